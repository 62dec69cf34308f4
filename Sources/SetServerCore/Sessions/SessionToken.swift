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
        case .bits(let high, let low): Self.hex(high) + Self.hex(low)
        case .text(let text): text
        }
    }

    /// The bits of exactly 32 lowercase hex digits, `nil` for anything else.
    private static func bits(of text: String) -> Form? {
        let utf8 = text.utf8
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

    /// 16 lowercase hex digits, leading zeros kept.
    private static func hex(_ word: UInt64) -> String {
        let digits = String(word, radix: 16)
        return String(repeating: "0", count: 16 - digits.utf8.count) + digits
    }
}
