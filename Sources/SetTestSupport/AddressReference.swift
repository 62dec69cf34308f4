/// How an address is spelled and keyed, written the plain way (parts as strings, joined), for tests that
/// hold ``SetServerCore/IPAddress``'s and ``SetEngine/PeerAddress``'s byte-by-byte spelling to it.
public enum AddressReference {
    /// Dotted decimal for 4 bytes; RFC 5952's form for 16 (lower case, no leading zeros, the first
    /// longest run of two or more zero groups as `::`).
    public static func text(of bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        let groups = (0..<8).map { Int(bytes[2 * $0]) << 8 | Int(bytes[2 * $0 + 1]) }
        var best = (start: -1, length: 0)
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            var end = index
            while end < 8, groups[end] == 0 { end += 1 }
            if end - index > best.length { best = (index, end - index) }
            index = end
        }
        let hex = groups.map { String($0, radix: 16) }
        guard best.length >= 2 else { return hex.joined(separator: ":") }
        let head = hex[..<best.start].joined(separator: ":")
        let tail = hex[(best.start + best.length)...].joined(separator: ":")
        return head + "::" + tail
    }

    /// The per-address limits' key of an address of 4 or 16 bytes: IPv4 itself, IPv6 its /64 as its
    /// first four groups and `::/64`.
    public static func key(of bytes: [UInt8]) -> String {
        if bytes.count == 4 { return text(of: bytes) }
        let groups = (0..<4).map { String(Int(bytes[2 * $0]) << 8 | Int(bytes[2 * $0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
