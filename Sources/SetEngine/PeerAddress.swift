import SetServerCore

/// Where a connection comes from: the `address:port` the log shows, and the key the per-address limits
/// count it under.
///
/// One IPv6 host owns a whole /64 (SLAAC and privacy addresses hand it a new address whenever it
/// likes), so an IPv6 address counts by its first 64 bits; an IPv4 address (or an IPv4-mapped IPv6 one)
/// counts by itself.
public struct PeerAddress: Equatable, Sendable, CustomStringConvertible {
    /// The address itself, when the text holds one (what `--trust-proxy` ranges are matched against).
    public let address: IPAddress?
    /// The port after the address, if the text has one.
    private let port: UInt16?
    /// The text and key as given, kept only when ``address`` and the port do not spell them back (an
    /// IPv4-mapped IPv6 peer, a zone, text that is no address): every connection holds a peer, and two
    /// strings for each would be most of its size.
    private let verbatim: Verbatim?

    /// The text and key of a peer whose address and port do not spell them.
    private final class Verbatim: Sendable {
        let text: String
        let key: String

        init(text: String, key: String) { (self.text, self.key) = (text, key) }
    }

    /// `a.b.c.d:port` or `[v6]:port`.
    public var text: String {
        if let verbatim { return verbatim.text }
        guard let address else { return "" }
        return Self.spell(address, port: port)
    }

    /// An IPv4 peer's address and port when its text is `a.b.c.d:port` and its key the address, else
    /// nil: what the core keeps of such a peer, handed over without spelling it and reading it back.
    public var ipv4: (address: UInt32, port: UInt16)? {
        guard verbatim == nil, let address, address.isIPv4, let port else { return nil }
        return (Self.ipv4Value(address), port)
    }

    /// The address the limits count: IPv4 as it is, IPv6 as its /64 (`2001:db8:1:2::/64`).
    public var key: String {
        if let verbatim { return verbatim.key }
        guard let address else { return "" }
        return Self.key(of: address)
    }

    /// Reads `a.b.c.d:port` or `[v6]:port` (what the shell's socket layer prints).
    public init(_ text: String) {
        let host = Self.host(of: text)
        let key = Self.key(ofHost: host)
        address = IPAddress(host)
        port = Self.port(of: text)
        if let address, Self.spell(address, port: port) == text, Self.key(of: address) == key {
            verbatim = nil
        } else {
            verbatim = Verbatim(text: text, key: key)
        }
    }

    /// The peer at `address` and `port` (a client a proxy names; X-Forwarded-For names no port): the
    /// text is `a.b.c.d:port` or `[v6]:port`, or without `:port` when there is none.
    public init(_ address: IPAddress, port: UInt16?) {
        self.init(Self.spell(address, port: port))
    }

    public var description: String { text }

    /// Equal when their texts are: a peer is made from its text alone, and an address and port that
    /// spell the text spell no other, so two peers that hold no verbatim text are compared by address
    /// and port without spelling either (the engine compares peers at every accept).
    public static func == (lhs: PeerAddress, rhs: PeerAddress) -> Bool {
        if lhs.verbatim == nil, rhs.verbatim == nil {
            return lhs.address == rhs.address && lhs.port == rhs.port
        }
        return lhs.text == rhs.text
    }

    /// `a.b.c.d:port` or `[v6]:port`, without `:port` when there is none.
    private static func spell(_ address: IPAddress, port: UInt16?) -> String {
        if address.isIPv4, let port {
            // At most 21 bytes, written straight into the string: the engine spells a peer at every
            // greeting, and the description and interpolation made a buffer and three strings.
            return String(unsafeUninitializedCapacity: 21) {
                DecimalText.write(ipv4: ipv4Value(address), port: port, to: $0)
            }
        }
        let host = address.isIPv4 ? "\(address)" : "[\(address)]"
        return port.map { "\(host):\($0)" } ?? host
    }

    /// The port after the address in `address:port` or `[v6]:port`, if there is one.
    private static func port(of peer: String) -> UInt16? {
        let bytes = Array(peer.utf8)
        let colon = UInt8(ascii: ":")
        let start: Int
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close + 1 < bytes.count,
                bytes[close + 1] == colon
            else { return nil }
            start = close + 2
        } else {
            guard bytes.count(where: { $0 == colon }) == 1, let index = bytes.firstIndex(of: colon) else {
                return nil
            }
            start = index + 1
        }
        return UInt16(String(decoding: bytes[start...], as: UTF8.self))
    }

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

    /// The key of `address`, what ``key(ofHost:)`` reads from its text, spelled from its bytes: IPv4
    /// itself, IPv6 its first four groups and `::/64`. The engine asks a peer for its key several times
    /// at every accept, and reading the address's text back was most of an accept's time.
    static func key(of address: IPAddress) -> String {
        if address.isIPv4 { return dottedDecimal(address) }
        // At most 24 bytes (four groups of four digits, three colons, `::/64`), written straight into the
        // string, with no array in between.
        return String(unsafeUninitializedCapacity: 24) { text in
            var count = 0
            for index in 0..<4 {
                if index > 0 {
                    text[count] = UInt8(ascii: ":")
                    count += 1
                }
                let group = address.group(index)
                var shift = 12
                while shift > 0, group >> UInt16(shift) == 0 { shift -= 4 }
                while shift >= 0 {
                    let digit = UInt8(truncatingIfNeeded: group >> UInt16(shift)) & 0xF
                    text[count] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                    count += 1
                    shift -= 4
                }
            }
            for byte in "::/64".utf8 {
                text[count] = byte
                count += 1
            }
            return count
        }
    }

    /// An IPv4 address in dotted decimal (what its `description` spells), written straight into the
    /// string: at most 15 bytes, which a String holds inline, so no buffer is allocated and freed for it
    /// at each of the several times an accept asks for the key.
    static func dottedDecimal(_ address: IPAddress) -> String {
        String(unsafeUninitializedCapacity: 15) { DecimalText.write(ipv4: ipv4Value(address), to: $0) }
    }

    /// An IPv4 address's 32 bits (its last two groups).
    private static func ipv4Value(_ address: IPAddress) -> UInt32 {
        UInt32(address.group(6)) << 16 | UInt32(address.group(7))
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
