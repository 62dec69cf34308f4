import SetProtocol

/// What protocol.md promises about free text and server lines, checked from the outside.
public enum TextReference {
    /// Whether `text` has none of the characters `TextRules.sanitized` promises to remove: C0 and C1
    /// controls (ESC and CSI among them), DEL, tabs, the zero-width space, the bidi marks, overrides and
    /// isolates, the line and paragraph separators (which many clients split lines on), and the BOM.
    /// (Zero-width joiners stay: emoji and scripts need them.)
    public static func isClean(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x200B, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E,
                0x2066...0x2069,
                0xFEFF:
                return false
            default: return true
            }
        }
    }

    /// Whether `name` is a player or room name as protocol.md defines one: 1–16 bytes of
    /// `A–Z a–z 0–9 _ -`, and not `-` alone (lines use `-` for "nobody", as in `TURN -`).
    public static func isValidName(_ name: some StringProtocol) -> Bool {
        let bytes = Array(name.utf8)
        let allowed = { (byte: UInt8) in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x5F || byte == 0x2D
        }
        return (1...16).contains(bytes.count) && bytes.allSatisfy(allowed) && bytes != [0x2D]
    }

    /// Whether a `CHAT` event the server formats from `text` reads back, in a client, as the same sender
    /// and text.
    public static func chatRoundTrips(_ text: String) -> Bool {
        let line = ServerLine.chat(name: "ann", text: text).text
        guard case .chat(let name, let parsed) = ServerLine(parsing: line) else { return false }
        return name == "ann" && parsed == text
    }

    /// The name of `line`'s case, such as `chat`, for messages and for checking that samples cover every
    /// case.
    public static func caseName(_ line: ServerLine) -> String {
        Mirror(reflecting: line).children.first?.label ?? String(describing: line)
    }
}
