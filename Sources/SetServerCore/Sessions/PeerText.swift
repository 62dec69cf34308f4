/// A client's `address:port` as the core keeps it for the log: `a.b.c.d:port` in dotted decimal (no
/// leading zeros) as its 6 bytes, anything else as the text itself, so it always reads back as given.
struct PeerText: Sendable, CustomStringConvertible {
    private enum Form {
        case ipv4(address: UInt32, port: UInt16)
        case text(String)
    }

    private let form: Form

    /// The peer `text` spells.
    init(_ text: String) {
        form = Self.ipv4(of: text) ?? .text(text)
    }

    /// The text as it was given.
    var description: String {
        switch form {
        case .ipv4(let address, let port):
            "\(address >> 24).\(address >> 16 & 0xFF).\(address >> 8 & 0xFF).\(address & 0xFF):\(port)"
        case .text(let text): text
        }
    }

    /// The address and port of text that is exactly `a.b.c.d:port` as ``description`` writes it.
    private static func ipv4(of text: String) -> Form? {
        var numbers: [UInt32] = []
        var value: UInt32 = 0
        var digits = 0
        for byte in text.utf8 {
            let separator: UInt8 = numbers.count < 3 ? UInt8(ascii: ".") : UInt8(ascii: ":")
            if byte == separator, digits > 0, numbers.count < 4 {
                numbers.append(value)
                (value, digits) = (0, 0)
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 5 {
                value = value * 10 + UInt32(byte - UInt8(ascii: "0"))
                digits += 1
            } else {
                return nil
            }
        }
        guard numbers.count == 4, digits > 0, numbers.allSatisfy({ $0 <= 255 }), value <= 65535 else {
            return nil
        }
        let form = Form.ipv4(
            address: numbers[0] << 24 | numbers[1] << 16 | numbers[2] << 8 | numbers[3], port: UInt16(value))
        // Leading zeros and the like do not spell back: those keep their text.
        return "\(PeerText(form: form))" == text ? form : nil
    }

    private init(form: Form) { self.form = form }
}
