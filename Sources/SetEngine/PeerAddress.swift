import SetServerCore

/// Where a connection comes from: the `address:port` the log shows, and the key the per-address limits
/// count it under.
///
/// One IPv6 host owns a whole /64 (SLAAC and privacy addresses hand it a new address whenever it
/// likes), so an IPv6 address counts by its first 64 bits; an IPv4 address (or an IPv4-mapped IPv6 one)
/// counts by itself.
public struct PeerAddress: Equatable, Sendable, CustomStringConvertible {
    /// `a.b.c.d:port` or `[v6]:port`.
    public let text: String
    /// The address the limits count: IPv4 as it is, IPv6 as its /64 (`2001:db8:1:2::/64`).
    public let key: String
    /// The address itself, when the text holds one (what `--trust-proxy` ranges are matched against).
    public let address: IPAddress?

    /// Reads `a.b.c.d:port` or `[v6]:port` (what the shell's socket layer prints).
    public init(_ text: String) {
        self.text = text
        let host = Self.host(of: text)
        key = Self.key(ofHost: host)
        address = IPAddress(host)
    }

    /// The peer at `address` and `port` (a client a proxy names; X-Forwarded-For names no port): the
    /// text is `a.b.c.d:port` or `[v6]:port`, or without `:port` when there is none.
    public init(_ address: IPAddress, port: UInt16?) {
        let host = address.isIPv4 ? "\(address)" : "[\(address)]"
        self.init(port.map { "\(host):\($0)" } ?? host)
    }

    public var description: String { text }

    /// The address part of `address:port`, without the brackets of an IPv6 address.
    static func host(of peer: String) -> String {
        var bytes = Array(peer.utf8)
        if bytes.first == UInt8(ascii: "["), let close = bytes.firstIndex(of: UInt8(ascii: "]")) {
            return String(decoding: bytes[1..<close], as: UTF8.self)
        }
        if let colon = bytes.lastIndex(of: UInt8(ascii: ":")),
            bytes.count(where: { $0 == UInt8(ascii: ":") }) == 1
        {
            bytes.removeSubrange(colon...)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The key of a bare address: IPv4 itself, IPv6 its /64, anything unreadable itself.
    static func key(ofHost host: String) -> String {
        guard host.contains(":") else { return host }
        let lower = host.lowercased()
        if lower.hasPrefix("::ffff:"), lower.dropFirst(7).contains(".") { return String(lower.dropFirst(7)) }
        guard let groups = ipv6Groups(lower) else { return host }
        return groups.prefix(4).map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// The eight 16-bit groups of an IPv6 address in text (with `::`, without a zone or an embedded
    /// IPv4 part); `nil` if it is not one.
    static func ipv6Groups(_ text: String) -> [UInt16]? {
        let address = Array((text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text).utf8)
        let colon = UInt8(ascii: ":")
        let doubles = address.indices.dropLast().filter { address[$0] == colon && address[$0 + 1] == colon }
        guard doubles.count <= 1 else { return nil }
        let halves =
            doubles.first.map {
                [
                    String(decoding: address[..<$0], as: UTF8.self),
                    String(decoding: address[($0 + 2)...], as: UTF8.self),
                ]
            } ?? [String(decoding: address, as: UTF8.self)]
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var out: [UInt16] = []
            for piece in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard !piece.isEmpty, piece.count <= 4, let value = UInt16(piece, radix: 16) else {
                    return nil
                }
                out.append(value)
            }
            return out
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }
}
