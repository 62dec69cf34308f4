/// The protocol's rules for names and free text.
public enum TextRules {
    /// Longest player or room name.
    public static let maximumNameLength = 16

    /// Whether `name` is 1–16 of `A–Z a–z 0–9 _ -`, and not `-` alone, which lines use for "nobody"
    /// (`TURN -`, `CHAIN -`).
    // Inlinable, so each caller's call is specialized for its String or Substring: generic across
    // modules, the count and the comparisons went through the protocol's witnesses at every HELLO and
    // JOIN.
    @inlinable
    public static func isValidName(_ name: some StringProtocol) -> Bool {
        let bytes = name.utf8
        let count = bytes.count
        guard (1...maximumNameLength).contains(count), !(count == 1 && bytes.first == 0x2D) else {
            return false
        }
        return bytes.allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: return true
            default: return false
            }
        }
    }

    /// Removes control characters and terminal escape sequences, so text from one player cannot move
    /// another player's cursor, recolour their screen or split a protocol line.
    public static func sanitized(_ text: some StringProtocol) -> String {
        var text = String(text)
        // Almost every chat line is printable ASCII: nothing in it is a control, an escape or a mark
        // that fuses with a space, so only the spaces at its ends go. Checked on the bytes, without
        // walking the text scalar by scalar and building it again (a fifth of a flat-out server's time).
        let plain = text.withUTF8 { bytes -> String?? in
            guard bytes.allSatisfy({ 0x20...0x7E ~= $0 }) else { return .none }
            guard let first = bytes.firstIndex(where: { $0 != 0x20 }) else { return .some("") }
            let last = bytes.lastIndex(where: { $0 != 0x20 })!
            if first == 0, last == bytes.count - 1 { return .some(nil) }
            return .some(String(decoding: UnsafeBufferPointer(rebasing: bytes[first...last]), as: UTF8.self))
        }
        switch plain {
        case .some(.none): return text
        case .some(.some(let trimmed)): return trimmed
        case .none: return sanitizedScalars(text)
        }
    }

    /// ``sanitized(_:)`` of valid UTF-8 bytes (a command's text): printable ASCII, nearly every chat
    /// line, is trimmed on its bytes and made a string once, not made one, trimmed and made again.
    public static func sanitized(utf8 bytes: ArraySlice<UInt8>) -> String {
        guard bytes.allSatisfy({ 0x20...0x7E ~= $0 }) else {
            return sanitizedScalars(String(decoding: bytes, as: UTF8.self))
        }
        guard let first = bytes.firstIndex(where: { $0 != 0x20 }) else { return "" }
        let last = bytes.lastIndex(where: { $0 != 0x20 })!
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// ``sanitized(_:)`` for text that is not all printable ASCII, scalar by scalar.
    private static func sanitizedScalars(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if scalar == "\u{1B}" || scalar == "\u{9B}" {
                skipEscapeSequence(after: scalar, in: &scalars)
            } else if scalar == "\t" {
                result.append(" ")
            } else if !isControl(scalar) {
                result.append(scalar)
            }
        }
        // The text follows a space in its protocol line (`CHAT <name> <text>`). A leading combining mark
        // would fuse with that space into one character, and a parser splitting at spaces would read it
        // as part of the word before: `CHAT ann ́hi` came back as a chat from "ann ́hi" saying nothing.
        let text = String(result).trimmingSpaces()
        return String(String.UnicodeScalarView(text.unicodeScalars.drop { $0 == " " || fusesWithSpace($0) }))
    }

    /// Whether `scalar` joins a space before it into one character (a combining mark, a joiner), by the
    /// same grapheme rules that `split` uses on the line.
    private static func fusesWithSpace(_ scalar: Unicode.Scalar) -> Bool {
        var probe = " "
        probe.unicodeScalars.append(scalar)
        return probe.count == 1
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200B, 0x200E...0x200F, 0x2028...0x202E, 0x2066...0x2069, 0xFEFF:
            return true
        default: return false
        }
    }

    /// Consumes the rest of an ESC / CSI sequence: CSI parameters up to a final byte, an OSC string up to
    /// BEL or ST, or the single character after a bare ESC.
    private static func skipEscapeSequence(
        after introducer: Unicode.Scalar, in scalars: inout String.UnicodeScalarView.Iterator
    ) {
        let kind = introducer == "\u{9B}" ? "[" : scalars.next()
        switch kind {
        case "[":
            while let s = scalars.next(), !(0x40...0x7E).contains(s.value) {}
        case "]", "P", "X", "^", "_":
            var previous: Unicode.Scalar?
            while let s = scalars.next() {
                // BEL, ESC \ or the one-character C1 ST all end the string.
                if s == "\u{07}" || s == "\u{9C}" || (previous == "\u{1B}" && s == "\\") { break }
                previous = s
            }
        default:
            break  // A two-character escape: the character after ESC is already consumed.
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces.
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " }),
            let last = scalars.lastIndex(where: { $0 != " " })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
