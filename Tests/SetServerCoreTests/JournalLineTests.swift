import SetGame
import SetServerCore
import SetTestSupport
import Testing

/// A record's line — its body, ` ~`, the body's checksum in 8 lower-case hex digits, LF — made whole or
/// appended where it goes, is what protocol.md says it is.
@Suite struct JournalLineTests {
    @Test func aLineIsItsBodyAndItsChecksum() {
        var random = SeededGenerator(seed: 31)
        var journal: [UInt8] = []
        var expected: [UInt8] = []
        for length in 0..<300 {
            let body = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let sum = String(ChecksumReference.fnv1a32(body), radix: 16)
            let line =
                body + Array(" ~".utf8) + Array((String(repeating: "0", count: 8 - sum.count) + sum).utf8) + [
                    0x0A
                ]
            #expect(JournalCoding.line(body: body) == line)
            JournalCoding.appendLine(body: body, to: &journal)
            expected += line
            #expect(journal == expected)
        }
        let record = JournalRecord.chat(room: "r1", name: "c2", text: "hi there")
        var after: [UInt8] = [0x41]
        record.appendLine(to: &after)
        #expect(after == [0x41] + record.line)
        #expect(JournalCoding.verifiedBody(record.line.dropLast()) == record.body[...])
    }
}
