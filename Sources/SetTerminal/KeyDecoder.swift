/// A key the player pressed, decoded from the bytes a terminal in raw mode sends.
public enum Key: Equatable, Sendable {
    /// A printable character.
    case character(Character)
    /// Enter (CR or LF).
    case enter
    /// Backspace (DEL or Ctrl-H).
    case backspace
    /// The Delete key.
    case delete
    /// Escape on its own.
    case escape
    /// Arrow keys.
    case up, down, left, right
    /// Home and End.
    case home, end
    /// Page Up and Page Down.
    case pageUp, pageDown
    /// Tab.
    case tab
    /// Ctrl and a letter, given in lower case (`c` for Ctrl-C).
    case control(Character)
}

/// Turns the bytes read from a terminal into keys, keeping an unfinished UTF-8 character or escape
/// sequence for the next read.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Creates a decoder.
    public init() {}

    /// Decodes `bytes` (and whatever was left from before) into keys.
    ///
    /// A lone ESC at the end of a read is the Escape key: terminals send a whole escape sequence in
    /// one write, so an ESC with nothing after it was typed on its own.
    public mutating func decode(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var i = 0
        let b = pending
        decoding: while i < b.count {
            let byte = b[i]
            switch byte {
            case 0x1B:
                guard i + 1 < b.count else {
                    keys.append(.escape)
                    i += 1
                    break
                }
                guard b[i + 1] == UInt8(ascii: "[") || b[i + 1] == UInt8(ascii: "O") else {
                    i += 2  // Alt and a key: not used.
                    break
                }
                var j = i + 2
                while j < b.count, !(0x40...0x7E).contains(b[j]) { j += 1 }
                guard j < b.count else { break decoding }  // Unfinished; wait for the rest.
                if let key = Self.escapeKey(parameters: Array(b[(i + 2)..<j]), final: b[j]) {
                    keys.append(key)
                }
                i = j + 1
            case 0x0D, 0x0A:
                keys.append(.enter)
                i += 1
            case 0x7F, 0x08:
                keys.append(.backspace)
                i += 1
            case 0x09:
                keys.append(.tab)
                i += 1
            case 0x01...0x1A:
                keys.append(.control(Character(UnicodeScalar(byte + 0x60))))
                i += 1
            case 0x00, 0x1C...0x1F:
                i += 1
            default:
                let length = Self.utf8Length(byte)
                guard length > 0 else {
                    i += 1  // A stray continuation byte or invalid lead byte.
                    break
                }
                guard i + length <= b.count else { break decoding }
                if let text = String(validating: b[i..<(i + length)], as: UTF8.self), let c = text.first {
                    keys.append(.character(c))
                }
                i += length
            }
        }
        pending = Array(b[i...])
        return keys
    }

    private static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0x20...0x7E: return 1
        case 0xC2...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF4: return 4
        default: return 0
        }
    }

    private static func escapeKey(parameters: [UInt8], final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch String(decoding: parameters, as: UTF8.self).split(separator: ";").first ?? "" {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            case "5": return .pageUp
            case "6": return .pageDown
            default: return nil
            }
        default: return nil
        }
    }
}
