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

    /// A line read back verifies exactly when its checksum is the reference FNV-1a of its body, whatever
    /// slice of a larger journal it is (the checksum runs on the slice's memory, from its own start).
    @Test func aLineVerifiesByTheReferenceChecksumWhereverItSits() {
        var random = SeededGenerator(seed: 37)
        for length in 0..<200 {
            let body = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let prefix = (0..<Int(random.next() % 9)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let journal = prefix + JournalCoding.line(body: body) + [0x41]
            let line = journal[prefix.count..<(journal.count - 2)]
            #expect(JournalCoding.verifiedBody(line) == body[...])
            #expect(JournalCoding.checksum(line.dropLast(10)) == ChecksumReference.fnv1a32(body))
            // One byte changed anywhere in the body: it does not verify.
            guard length > 0 else { continue }
            var damaged = journal
            damaged[prefix.count + Int(random.next() % UInt64(length))] ^= 0x20
            #expect(JournalCoding.verifiedBody(damaged[prefix.count..<(journal.count - 2)]) == nil)
        }
    }

    /// Lines are split where the first LF is, in any slice (LF first, last, absent, many), as a
    /// byte-by-byte search finds it; and counted as the LFs are.
    @Test func linesSplitAtEachLFAsAByteSearchFindsIt() {
        var random = SeededGenerator(seed: 41)
        for length in 0..<400 {
            let bytes = (0..<length).map { _ in
                random.next() % 5 == 0 ? 0x0A : UInt8(truncatingIfNeeded: random.next())
            }
            let from = length == 0 ? 0 : Int(random.next() % UInt64(length))
            let slice = bytes[from...]
            #expect(JournalCoding.firstNewline(in: slice) == slice.firstIndex(of: 0x0A))
            #expect(JournalCoding.newlineCount(in: slice) == slice.count { $0 == 0x0A })
        }
    }
}
