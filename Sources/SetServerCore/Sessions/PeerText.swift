/// A client's `address:port` as the core keeps it for the log, and the key its per-address limits
/// count it under: `a.b.c.d:port` in dotted decimal (no leading zeros) whose key is `a.b.c.d` as its 6
/// bytes; anything else (an IPv6 peer, whose key is its /64) as the two texts, in a box of their own,
/// so both always read back as given.
struct PeerText: Sendable, CustomStringConvertible {
    private enum Form {
        case ipv4(address: UInt32, port: UInt16)
        indirect case text(String, key: String)
    }

    private let form: Form

    /// The peer `text` spells, counted under `key`.
    init(_ text: String, key: String) {
        if let form = Self.ipv4(of: text), case .ipv4(let address, _) = form, Self.spell(address) == key {
            self.form = form
        } else {
            form = .text(text, key: key)
        }
    }

    /// The text as it was given.
    var description: String {
        switch form {
        case .ipv4(let address, let port): "\(Self.spell(address)):\(port)"
        case .text(let text, _): text
        }
    }

    /// The key as it was given.
    var key: String {
        switch form {
        case .ipv4(let address, _): Self.spell(address)
        case .text(_, let key): key
        }
    }

    /// An IPv4 peer keyed by its address in one integer, the address above the port (48 bits); `nil`
    /// for any other form. ``init(packed:)`` reads it back.
    var packed: UInt64? {
        guard case .ipv4(let address, let port) = form else { return nil }
        return UInt64(address) << 16 | UInt64(port)
    }

    /// The IPv4 peer that ``packed`` gave.
    init(packed: UInt64) {
        form = .ipv4(
            address: UInt32(truncatingIfNeeded: packed >> 16), port: UInt16(truncatingIfNeeded: packed))
    }

    private static func spell(_ address: UInt32) -> String {
        "\(address >> 24).\(address >> 16 & 0xFF).\(address >> 8 & 0xFF).\(address & 0xFF)"
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
