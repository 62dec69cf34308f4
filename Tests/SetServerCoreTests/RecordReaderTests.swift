import SetGame
import Testing

@testable import SetServerCore

/// The journal's field reader finds each field as it reads it; what it reads must be what splitting the
/// body at every space gives (empty fields included), whatever the body.
@Suite struct RecordReaderTests {
    @Test func fieldsAreTheBodySplitAtEverySpace() throws {
        var random = SeededGenerator(seed: 22)
        let alphabet: [UInt8] = Array("a %1-".utf8)
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...12, using: &random)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
            // A slice that does not start at 0, as a journal line's body is.
            let line = [0x78] + bytes + [0x78]
            let body = line[1..<(line.count - 1)]
            let expected = body.split(separator: 0x20, omittingEmptySubsequences: false)
            var reader = RecordReader(body: body)
            for (index, field) in expected.enumerated() {
                #expect(!reader.isAtEnd)
                #expect(reader.unread.elementsEqual(body[field.startIndex...]))
                #expect(reader.peekedField.map(Array.init) == Array(field))
                #expect(throws: RecordReader.Malformed.self) { try reader.finish() }
                if index % 2 == 0 { reader.skip() } else { _ = try? reader.text() }
            }
            #expect(reader.isAtEnd, "\(Array(body))")
            #expect(reader.unread.isEmpty)
            #expect(reader.peekedField == nil)
            #expect(throws: RecordReader.Malformed.self) { try reader.text() }
            try reader.finish()
        }
    }

    @Test func numbersAndTextAreReadFromTheirOwnFieldsOnly() throws {
        let body = Array("12 -7 %41b  x".utf8)[...]
        var reader = RecordReader(body: body)
        #expect(try reader.int() == 12)
        #expect(try reader.int() == -7)
        #expect(try reader.text() == "Ab")
        do {
            try reader.finish()
            Issue.record("three fields are left: an empty one, `x`… the reader says so")
        } catch {
            #expect(error.description == "2 fields too many")
        }
        #expect(try reader.text() == "")
        #expect(try reader.text() == "x")
        try reader.finish()
        var missing = RecordReader(body: Array("5".utf8)[...])
        #expect(try missing.int() == 5)
        #expect(throws: RecordReader.Malformed.self) { try missing.int() }
    }

    @Test func bytesAreTheSameExactlyWhenEveryByteIs() {
        var random = SeededGenerator(seed: 5)
        for _ in 0..<2_000 {
            let a = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                UInt8.random(in: 0...3, using: &random)
            }
            var b = a
            if Bool.random(using: &random), !b.isEmpty {
                b[Int.random(in: 0..<b.count, using: &random)] &+= 1
            } else if Bool.random(using: &random) {
                b.append(0)
            }
            // Slices that do not start at 0, as a journal line's are.
            let x = ([9] + a)[1...]
            let y = ([7, 7] + b)[2...]
            #expect(JournalCoding.sameBytes(x, y) == x.elementsEqual(y))
        }
    }

    /// Every record is about as small as its fields: a room's snapshot and an archived game, far larger,
    /// sit in boxes, so copying any record, or an array of them, does not move a snapshot's worth.
    @Test func aRecordIsNotAsLargeAsASnapshot() {
        #expect(MemoryLayout<JournalRecord>.size < MemoryLayout<RoomSnapshot>.size / 2)
        #expect(MemoryLayout<JournalRecord>.size <= 96)
    }
}
