/// Checks UTF-8 a few bytes at a time, as RFC 6455 wants a text message checked: a message split into
/// fragments (or a read split in the middle of a character) is valid when the whole is, and an invalid
/// byte is caught as soon as it arrives, not at the end of the message.
///
/// Well-formed means RFC 3629: no overlong forms, no surrogates (U+D800...U+DFFF), nothing above
/// U+10FFFF.
public struct UTF8Validator: Sendable, Equatable {
    /// Continuation bytes still expected for the current character.
    private var remaining = 0
    /// The range the next continuation byte must fall in; narrower than 80...BF right after E0, ED, F0
    /// and F4, which is how overlong forms, surrogates and code points past U+10FFFF are refused.
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// Creates a validator at the start of a text.
    public init() {}

    /// Whether the bytes so far end on a character boundary (a complete text is valid only then).
    public var isAtBoundary: Bool { remaining == 0 }

    /// Feeds bytes; returns `false` at the first byte that cannot be part of well-formed UTF-8 (the
    /// validator is then of no further use).
    public mutating func consume<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        for byte in bytes {
            guard consume(byte) else { return false }
        }
        return true
    }

    /// Feeds one byte; returns `false` if it cannot continue well-formed UTF-8.
    public mutating func consume(_ byte: UInt8) -> Bool {
        if remaining > 0 {
            guard byte >= lower, byte <= upper else { return false }
            remaining -= 1
            lower = 0x80
            upper = 0xBF
            return true
        }
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: remaining = 1
        case 0xE0:
            remaining = 2
            lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: remaining = 2
        case 0xED:
            remaining = 2
            upper = 0x9F
        case 0xF0:
            remaining = 3
            lower = 0x90
        case 0xF1...0xF3: remaining = 3
        case 0xF4:
            remaining = 3
            upper = 0x8F
        default: return false
        }
        return true
    }

    /// Whether `bytes` is, on its own, well-formed UTF-8.
    public static func isValid<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        var validator = UTF8Validator()
        return validator.consume(bytes) && validator.isAtBoundary
    }
}
