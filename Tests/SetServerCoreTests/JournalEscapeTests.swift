import SetGame
import Testing

@testable import SetServerCore

/// A journal field's escaping, written with fast paths (a table, a whole-buffer copy), gives exactly the
/// bytes of the rule protocol.md and `JournalCoding` state — `%`, space, `~`, C0 controls and DEL as
/// `%xx`, everything else as it is — and reads back what the rule reads back.
@Suite struct JournalEscapeTests {
    /// The rule, byte by byte, with nothing fast about it.
    private static func reference(_ text: String) -> [UInt8] {
        if text.isEmpty { return [0x25] }
        var out: [UInt8] = []
        for byte in text.utf8 {
            if byte <= 0x20 || byte == 0x25 || byte == 0x7E || byte == 0x7F {
                out += Array("%" + String(byte, radix: 16).leftPadded(to: 2)).map { $0.asciiValue! }
            } else {
                out.append(byte)
            }
        }
        return out
    }

    /// What the rule reads from a field: `%xx` (lowercase hex) as that byte, every byte that must be
    /// escaped refused when it is not, and the result refused unless it is UTF-8.
    private static func referenceRead(_ field: [UInt8]) -> String? {
        if field == [0x25] { return "" }
        var bytes: [UInt8] = []
        var i = 0
        let hex = Array("0123456789abcdef".utf8)
        while i < field.count {
            let byte = field[i]
            if byte == 0x25 {
                guard i + 2 < field.count, let high = hex.firstIndex(of: field[i + 1]),
                    let low = hex.firstIndex(of: field[i + 2])
                else { return nil }
                bytes.append(UInt8(high << 4 | low))
                i += 3
            } else {
                if byte <= 0x20 || byte == 0x7E || byte == 0x7F { return nil }
                bytes.append(byte)
                i += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Random text from scalars that need every kind of treatment: escaped ASCII, plain ASCII, the
    /// percent sign, non-ASCII of every UTF-8 length, marks that glue to their neighbours.
    private static func text(_ rng: inout SeededGenerator) -> String {
        let scalars: [Unicode.Scalar] =
            (0..<0x80).compactMap(Unicode.Scalar.init) + [
                "\u{80}", "\u{85}", "\u{A0}", "\u{301}", "\u{600}", "\u{200D}", "\u{2028}", "\u{FEFF}",
                "\u{FFFD}",
                "\u{FFFF}", "\u{1F469}", "\u{10FFFF}",
            ]
        var text = String.UnicodeScalarView()
        // Long ones too: a native string longer than the 15 bytes a small string holds in place.
        for _ in 0..<Int(rng.next() % 40) { text.append(scalars[Int(rng.next() % UInt64(scalars.count))]) }
        return String(text)
    }

    @Test func escapingGivesTheRulesBytes() {
        var rng = SeededGenerator(seed: 2207)
        for _ in 0..<5_000 {
            let text = Self.text(&rng)
            var out: [UInt8] = [0x41]
            JournalCoding.appendEscaped(text, to: &out)
            #expect(out == [0x41] + Self.reference(text), "\(text.debugDescription)")
            #expect(JournalCoding.unescape(out.dropFirst()) == text)
            // The same text given as its bytes (a game record's event, written as JSON bytes).
            var fromBytes: [UInt8] = [0x41]
            JournalCoding.appendEscaped(bytes: Array(text.utf8), to: &fromBytes)
            #expect(fromBytes == out, "\(text.debugDescription)")
        }
        // A string not stored as contiguous UTF-8 (a substring's copy, a bridged view) takes the slow path.
        let sliced = String("xx a%b~c\u{7F}d".dropFirst(2))
        var out: [UInt8] = []
        JournalCoding.appendEscaped(sliced, to: &out)
        #expect(out == Self.reference(sliced))
    }

    @Test func readingAnyBytesAgreesWithTheRule() {
        var rng = SeededGenerator(seed: 2208)
        // Bytes that matter to the reader: hex digits of both cases, the escape, separators, UTF-8 lead
        // and continuation bytes, bytes never in UTF-8.
        let alphabet: [UInt8] =
            Array("%09afAF~ z".utf8) + [0x00, 0x7F, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0xFF, 0xC0]
        for _ in 0..<20_000 {
            let field = (0..<Int(rng.next() % 12)).map { _ in
                alphabet[Int(rng.next() % UInt64(alphabet.count))]
            }
            #expect(JournalCoding.unescape(field[...]) == Self.referenceRead(field), "\(field)")
        }
    }

    @Test func numbersAreReadAsIntReadsTheirText() throws {
        // The digits fast path of a record's number fields: what `Int(text)` gives, or a refusal.
        for text in [
            "0", "-0", "7", "-7", "007", "123456789012345678", "1234567890123456789", "-9223372036854775808",
            "9223372036854775808", "+5", "-", "1-", "12a", "%31", " 1",
        ] {
            var body: [UInt8] = Array("choose r n 1 ".utf8)
            JournalCoding.appendEscaped(text, to: &body)
            var position: Int?
            if case .choose(_, _, _, let read) = try? JournalRecord(body: body[...]) { position = read }
            #expect(position == Int(text), "\(text)")
        }
    }

    @Test func numbersAreWrittenAsTheirTextWrites() {
        // Records and game records write numbers' digits straight into their bytes: the bytes
        // `String(number)` has, for every size and sign.
        var rng = SeededGenerator(seed: 22)
        var values: [Int] = [0, 1, -1, 9, 10, -10, 99, 100, Int.max, Int.min, Int.max - 1, Int.min + 1]
        for _ in 0..<2_000 {
            let bits = Int(rng.next() % 64)
            values.append(
                Int(truncatingIfNeeded: rng.next() >> UInt64(bits)) * (rng.next() % 2 == 0 ? 1 : -1))
        }
        for value in values {
            var bytes: [UInt8] = [0x41]
            JournalCoding.appendDecimal(value, to: &bytes)
            #expect(bytes == [0x41] + Array(String(value).utf8), "\(value)")
        }
        for value in [UInt64.max, 0, 7, UInt64(Int.max) + 1, rng.next()] {
            var bytes: [UInt8] = []
            JournalCoding.appendDecimal(magnitude: value, isNegative: false, to: &bytes)
            #expect(bytes == Array(String(value).utf8), "\(value)")
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
