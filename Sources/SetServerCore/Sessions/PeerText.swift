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
        if let (address, port, colon) = Self.ipv4(of: text), key.utf8.elementsEqual(text.utf8.prefix(colon)) {
            form = .ipv4(address: address, port: port)
        } else {
            form = .text(text, key: key)
        }
    }

    /// The peer at IPv4 `address` and `port`, counted under its address.
    init(ipv4 address: UInt32, port: UInt16) {
        form = .ipv4(address: address, port: port)
    }

    /// The text as it was given.
    var description: String {
        switch form {
        case .ipv4(let address, let port):
            // At most 21 bytes, written straight into the string (the core asks for it at every log
            // line with the peer; interpolation made a buffer and four strings).
            String(unsafeUninitializedCapacity: 21) { DecimalText.write(ipv4: address, port: port, to: $0) }
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

    /// `address` in dotted decimal, written straight into the string: at most 15 bytes, which a String
    /// holds inline, so nothing is allocated for the key the per-address limits ask for at every claim,
    /// guess and room made.
    private static func spell(_ address: UInt32) -> String {
        String(unsafeUninitializedCapacity: 15) { DecimalText.write(ipv4: address, to: $0) }
    }

    /// The address, port and the colon's offset of text that is exactly `a.b.c.d:port` as
    /// ``description`` writes it: four numbers of 0-255 and a port of 0-65535, in decimal without
    /// leading zeros or signs. Anything else keeps its text. Read on the bytes, without a copy of them.
    private static func ipv4(of text: String) -> (address: UInt32, port: UInt16, colon: Int)? {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            /// The decimal number at `index` of at most `digits` digits, without a leading zero.
            func number(digits: Int) -> UInt32? {
                let start = index
                var value: UInt32 = 0
                while index < bytes.count, index - start < digits, (0x30...0x39).contains(bytes[index]) {
                    value = value * 10 + UInt32(bytes[index] - 0x30)
                    index += 1
                }
                let count = index - start
                guard count > 0, count == 1 || bytes[start] != 0x30 else { return nil }
                return value
            }
            var address: UInt32 = 0
            for part in 0..<4 {
                if part > 0 {
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return nil }
                    index += 1
                }
                guard let octet = number(digits: 3), octet <= 255 else { return nil }
                address = address << 8 | octet
            }
            let colon = index
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let port = number(digits: 5), port <= 65_535, index == bytes.count else { return nil }
            return (address, UInt16(port), colon)
        }
    }
}
