import SetGame
import SetTestSupport
import Testing

@testable import SetServerCore

/// A record's card fields are written and read through a table of every card's code: the same bytes
/// as writing each code's text, the same card (or the same refusal) as reading each field as text.
@Suite struct CardFieldsTests {
    /// What a list of one card field reads as by the general path: its text, then `Card(anyCode:)`.
    private func readAsText(_ field: [UInt8]) -> Card? {
        guard let text = JournalCoding.unescape(field[...]) else { return nil }
        return try? Card(anyCode: text)
    }

    @Test func everyCardIsWrittenAsItsCodesText() {
        var table = RecordWriter()
        table.append(cards: Card.universe)
        var text = RecordWriter()
        text.append(Card.universe.count)
        for card in Card.universe { text.append(card.code) }
        #expect(table.body == text.body)
    }

    /// Every card's code, in both cases, with a letter changed to its neighbours, cut short, made
    /// longer, escaped, and random short fields: each reads as the general path reads it.
    @Test func aCardFieldReadsAsItsTextReads() throws {
        var fields: [[UInt8]] = []
        for card in Card.universe {
            let code = Array(card.code.utf8)
            fields.append(code)
            fields.append(Array(card.code.lowercased().utf8))
            fields.append(Array(code.dropLast()))
            fields.append(code + [0x41])
            fields.append([0x25, 0x34, 0x31] + code.dropFirst())  // %41: an escaped first letter
            for at in code.indices {
                var next = code
                next[at] &+= 1
                fields.append(next)
                var previous = code
                previous[at] &-= 1
                fields.append(previous)
            }
        }
        var random = SeededGenerator(seed: 43)
        for _ in 0..<5_000 {
            let length = Int(random.next() % 7) + 1
            fields.append((0..<length).map { _ in UInt8(0x30 + random.next() % 0x4B) })
        }
        var read = 0
        for field in fields where !field.contains(0x20) && !field.isEmpty {
            var reader = RecordReader(body: ArraySlice(Array("1 ".utf8) + field))
            let card = try? reader.setCards()
            #expect(card == readAsText(field).map { [$0] }, "field \(field)")
            if card != nil { read += 1 }
        }
        // Both outcomes are exercised, many times each.
        #expect(read > 1_000)
        #expect(fields.count - read > 1_000)
    }
}
