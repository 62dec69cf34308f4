import Foundation
import SetGame
import Testing

@testable import SetServerCore

/// A game record's JSON (`RECORD <id>`, the journal's archive records) is written and read by hand for
/// speed: the bytes must stay exactly what `JSONEncoder` writes, and reading must give what
/// `JSONDecoder` gives.
@Suite struct GameRecordJSONTests {
    /// Text that needs every escape JSON has, and some it does not (slashes, DEL, non-ASCII).
    static let awkward: [String] = [
        "", "plain", "a\"quote", "back\\slash", "sl/ash", "\u{7F}del", "\u{80}", "e\u{301}", "👩‍👩‍👧",
        "\u{2028}\u{2029}", "\u{0600}x", "ea", "f", "😀", "\u{FF01}", "\u{E000}",
        "tab\tcr\rlf\nff\u{0C}bs\u{08}", "\u{0}\u{1}\u{1F}\u{1B}",
        String((0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }),
        // Keys JSONEncoder might sort by case or as numbers (it sorts by UTF-8 bytes: "B" < "a", "a10" < "a9").
        "B", "a", "a10", "a9", "_", "\u{E9}", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{10FFFF}",
        "a long plain name, past the fifteen bytes a small string holds",
    ]

    /// A random record; with `digits18`, its numbers have at most 18 digits (the hand-written reader
    /// leaves longer ones to `JSONDecoder`).
    private func record(_ rng: inout SeededGenerator, digits18: Bool = false) -> GameRecord {
        func text() -> String { Self.awkward[Int(rng.next() % UInt64(Self.awkward.count))] }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { rng.next() % 2 == 0 ? value() : nil }
        func number() -> Int {
            let number = Int(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64))
            return digits18 ? number % 1_000_000_000_000_000_000 : number
        }
        var options: [String: String] = [:]
        for _ in 0..<Int(rng.next() % 5) { options[text() + "\(rng.next() % 20)"] = text() }
        let events = (0..<Int(rng.next() % 6)).map { _ in
            GameRecord.Event(
                ms: number(), type: text(), name: maybe(text()), cards: maybe([text(), text()]),
                result: maybe(text()), position: maybe(number()), card: maybe(text()), by: maybe(text()),
                options: maybe([text(): text(), text() + "1": text()]))
        }
        let sheet = (0..<Int(rng.next() % 4)).map { _ in
            GameRecord.SheetRow(
                name: text(), score: number(), sets: number(), wrong: number(), stale: number(),
                fastestMs: maybe(number()), meanMs: maybe(number()))
        }
        return GameRecord(
            id: text(), room: text(), kind: text(), options: options, startedAtMs: Int64(number()),
            durationMs: number(), deck: (0..<Int(rng.next() % 4)).map { _ in text() },
            players: [text(), text()], events: events, sheet: sheet, dealtIn: maybe([text()]),
            end: maybe(text()), omitted: maybe(number()))
    }

    /// The hand-written reader reads whatever the writer wrote, itself (not through the `JSONDecoder`
    /// that takes over from it for any other shape), and refuses keys in another order.
    @Test func theHandWrittenReaderReadsWhatTheWriterWrites() throws {
        var rng = SeededGenerator(seed: 23)
        for _ in 0..<500 {
            let record = record(&rng, digits18: true)
            let json = record.json
            #expect(GameRecord.parseAsWritten(json) == record, "\(json)")
            for event in record.events {
                var reader = JSONBytesReader(Array(event.json.utf8))
                #expect(reader.event() == event && reader.isAtEnd, "\(event.json)")
            }
        }
        let event = GameRecord.Event(ms: 5, type: "claim", name: "ann", cards: ["1RES"], result: "set")
        #expect(event.json == #"{"cards":["1RES"],"ms":5,"name":"ann","result":"set","type":"claim"}"#)
        var reordered = JSONBytesReader(
            Array(#"{"ms":5,"cards":["1RES"],"name":"ann","result":"set","type":"claim"}"#.utf8))
        #expect(reordered.event() == nil, "keys out of the writer's order are not read by hand")
        #expect(
            GameRecord.Event.parse(#"{"ms":5,"cards":["1RES"],"name":"ann","result":"set","type":"claim"}"#)
                == event,
            "JSONDecoder reads them")
    }

    @Test func theBytesAreJSONEncodersAndReadBackAsJSONDecoderReadsThem() throws {
        var rng = SeededGenerator(seed: 22)
        for _ in 0..<500 {
            let record = record(&rng)
            let json = record.json
            #expect(json == record.foundationJSON)
            #expect(GameRecord.parse(json) == record, "\(json)")
            let decoded = try JSONDecoder().decode(GameRecord.self, from: Data(json.utf8))
            #expect(decoded == record)
            for event in record.events {
                #expect(event.json == event.foundationJSON)
                #expect(GameRecord.Event.parse(event.json) == event, "\(event.json)")
            }
        }
    }

    @Test func keysAreSortedAsJSONEncoderSortsThem() {
        let keys = [
            "a9", "a10", "B", "a", "_", "ea", "e\u{301}", "f", "\u{E9}x", "😀", "\u{FF01}", "\u{0}", "~",
        ]
        let options = Dictionary(uniqueKeysWithValues: keys.map { ($0, $0) })
        let record = GameRecord(
            id: "i", room: "r", kind: "set", options: options, startedAtMs: 1, durationMs: 2, deck: [],
            players: [], events: [GameRecord.Event(ms: 0, type: "t", options: options)], sheet: [])
        #expect(record.json == record.foundationJSON)
        #expect(record.events[0].json == record.events[0].foundationJSON)
    }

    /// Damaged JSON (bytes changed, dropped or added; invalid UTF-8 repaired as a `String` repairs it) is
    /// read exactly as `JSONDecoder` reads it: the same record, or nothing.
    @Test func damagedJSONIsReadAsJSONDecoderReadsIt() {
        var rng = SeededGenerator(seed: 2209)
        let noise: [UInt8] =
            Array("\"\\{}[],:0-9eu".utf8) + [0x20, 0x00, 0x1F, 0x7F, 0xC3, 0xFF, 0xED, 0xA0, 0x80]
        for _ in 0..<300 {
            let record = record(&rng)
            var bytes = Array(record.json.utf8)
            for _ in 0...Int(rng.next() % 3) where !bytes.isEmpty {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[at] = noise[Int(rng.next() % UInt64(noise.count))]
                case 1: bytes.remove(at: at)
                default: bytes.insert(noise[Int(rng.next() % UInt64(noise.count))], at: at)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let decoded = try? JSONDecoder().decode(GameRecord.self, from: Data(text.utf8))
            #expect(GameRecord.parse(text) == decoded, "\(text)")
            if let event = record.events.first {
                var eventBytes = Array(event.json.utf8)
                let at = Int(rng.next() % UInt64(eventBytes.count))
                eventBytes[at] = noise[Int(rng.next() % UInt64(noise.count))]
                let eventText = String(decoding: eventBytes, as: UTF8.self)
                let decodedEvent = try? JSONDecoder().decode(
                    GameRecord.Event.self, from: Data(eventText.utf8))
                #expect(GameRecord.Event.parse(eventText) == decodedEvent, "\(eventText)")
            }
        }
    }

    @Test func jsonInAnotherShapeIsStillRead() throws {
        var rng = SeededGenerator(seed: 7)
        let record = record(&rng)
        // Pretty-printed, keys in their declared order: not the hand-written shape, read by JSONDecoder.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted]
        let other = String(decoding: try encoder.encode(record), as: UTF8.self)
        #expect(other != record.json)
        #expect(GameRecord.parse(other) == record)
        #expect(GameRecord.parse(record.json + " ") == record)
        #expect(GameRecord.parse("{}") == nil)
        #expect(GameRecord.parse(String(record.json.dropLast())) == nil)
    }

    /// A field added to the record must be added to the hand-written JSON too: until it is, the record
    /// is written by `JSONEncoder` (correct, but slow), and this test fails.
    @Test func theHandWrittenJSONKnowsEveryField() {
        #expect(
            GameRecord.isWrittenByHand,
            "GameRecord, Event or SheetRow has a field GameRecord+JSON.swift does not write: add it there")
    }
}
