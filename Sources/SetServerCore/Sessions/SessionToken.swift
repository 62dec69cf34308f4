/// A session's token as a value: the 32 lowercase hex digits every token the server makes has, held as
/// their 128 bits, so a seated player's token and the tables keyed by it hold no string of their own.
/// Any other text (a hand-edited journal's, a client's guess) is kept as it is, so every token reads
/// back exactly as it was written and compares as its text does.
struct SessionToken: Hashable, Sendable, CustomStringConvertible {
    private enum Form: Hashable {
        /// The 32 hex digits, the first 16 in `high`.
        case bits(high: UInt64, low: UInt64)
        case text(String)
    }

    private let form: Form

    /// The token that `text` spells.
    init(_ text: String) {
        form = Self.bits(of: text) ?? .text(text)
    }

    /// The token of 32 hex digits whose bits these are (the first 16 digits in `high`).
    init(high: UInt64, low: UInt64) {
        form = .bits(high: high, low: low)
    }

    /// The 128 bits of a token of 32 lowercase hex digits, `nil` for one kept as its text: what a
    /// ``Session`` holds inline.
    var bits: (high: UInt64, low: UInt64)? {
        guard case .bits(let high, let low) = form else { return nil }
        return (high, low)
    }

    /// The token's text: 32 lowercase hex digits for every token the server makes.
    var description: String {
        switch form {
        case .bits(let high, let low):
            // Digit by digit into the string's own bytes: every snapshot of a room spells each seat's
            // token, and `String(_:radix:)` with its padding was most of a room's snapshot.
            String(unsafeUninitializedCapacity: 32) { bytes in
                func hexDigit(_ value: UInt64) -> UInt8 {
                    let nibble = UInt8(truncatingIfNeeded: value & 0xF)
                    return nibble < 10 ? 0x30 + nibble : 0x57 + nibble
                }
                for digit in 0..<16 {
                    let shift = UInt64(60 - 4 * digit)
                    bytes[digit] = hexDigit(high >> shift)
                    bytes[16 + digit] = hexDigit(low >> shift)
                }
                return 32
            }
        case .text(let text): text
        }
    }

    /// The bits of exactly 32 lowercase hex digits, `nil` for anything else.
    private static func bits(of text: String) -> Form? {
        // From the string's bytes in a buffer, not its UTF-8 view: every token read comes through here.
        var text = text
        return text.withUTF8(bits(ofDigits:))
    }

    /// ``bits(of:)`` of a text's UTF-8 bytes.
    private static func bits(ofDigits utf8: UnsafeBufferPointer<UInt8>) -> Form? {
        guard utf8.count == 32 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for (index, byte) in utf8.enumerated() {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            if index < 16 {
                words.0 = words.0 << 4 | UInt64(digit)
            } else {
                words.1 = words.1 << 4 | UInt64(digit)
            }
        }
        return .bits(high: words.0, low: words.1)
    }

}
