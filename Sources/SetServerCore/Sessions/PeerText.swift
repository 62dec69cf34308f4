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
        let utf8 = Array(text.utf8)
        guard let colon = utf8.lastIndex(of: UInt8(ascii: ":")),
            let address = IPAddress.ipv4Bytes(utf8[..<colon]),
            let port = UInt16(String(decoding: utf8[(colon + 1)...], as: UTF8.self))
        else { return nil }
        let form = Form.ipv4(
            address: address.reduce(0) { $0 << 8 | UInt32($1) }, port: port)
        // A port with leading zeros or a sign does not spell back: those keep their text.
        return "\(PeerText(form: form))" == text ? form : nil
    }

    private init(form: Form) { self.form = form }
}
