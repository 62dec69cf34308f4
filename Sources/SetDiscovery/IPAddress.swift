/// An IPv4 or IPv6 address as its bytes: what the responder and the finder reason about (is it on this
/// link, which records hold it) without a socket in sight.
public enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// An IPv4 address, 4 bytes in network order.
    case v4([UInt8])
    /// An IPv6 address, 16 bytes in network order.
    case v6([UInt8])

    /// An address from 4 or 16 bytes; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is read as IPv4.
    public init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4: self = .v4(bytes)
        case 16:
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                self = .v4(Array(bytes[12...]))
            } else {
                self = .v6(bytes)
            }
        default: return nil
        }
    }

    /// The bytes.
    public var bytes: [UInt8] {
        switch self {
        case .v4(let bytes), .v6(let bytes): bytes
        }
    }

    /// Whether this is an IPv6 address.
    public var isIPv6: Bool { if case .v6 = self { true } else { false } }

    /// 127.0.0.0/8 or ::1.
    public var isLoopback: Bool {
        switch self {
        case .v4(let b): b[0] == 127
        case .v6(let b): b[0..<15].allSatisfy { $0 == 0 } && b[15] == 1
        }
    }

    /// 169.254.0.0/16 or fe80::/10: an address that is on the link by definition.
    public var isLinkLocal: Bool {
        switch self {
        case .v4(let b): b[0] == 169 && b[1] == 254
        case .v6(let b): b[0] == 0xFE && b[1] & 0xC0 == 0x80
        }
    }

    /// Whether the first `prefixLength` bits of this address and `other` are equal (false across
    /// families).
    public func shares(prefix prefixLength: Int, with other: IPAddress) -> Bool {
        guard isIPv6 == other.isIPv6 else { return false }
        let a = bytes
        let b = other.bytes
        var remaining = max(0, min(prefixLength, a.count * 8))
        for i in a.indices where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if a[i] & mask != b[i] & mask { return false }
            remaining -= 8
        }
        return true
    }

    /// Dotted quad, or RFC 5952 text for IPv6 (lower case, the longest run of zero groups as `::`).
    public var description: String {
        switch self {
        case .v4(let b):
            return b.map(String.init).joined(separator: ".")
        case .v6(let b):
            let groups = (0..<8).map { UInt16(b[2 * $0]) << 8 | UInt16(b[2 * $0 + 1]) }
            var best = (start: -1, length: 0)
            var run = (start: -1, length: 0)
            for (i, group) in groups.enumerated() {
                if group == 0 {
                    run = run.start < 0 ? (i, 1) : (run.start, run.length + 1)
                    if run.length > best.length { best = run }
                } else {
                    run = (-1, 0)
                }
            }
            let hex = groups.map { String($0, radix: 16) }
            guard best.length >= 2 else { return hex.joined(separator: ":") }
            let head = hex[..<best.start].joined(separator: ":")
            let tail = hex[(best.start + best.length)...].joined(separator: ":")
            return head + "::" + tail
        }
    }
}

/// One network interface as the responder sees it: its index, and its addresses with their prefixes.
public struct LinkInterface: Hashable, Sendable {
    /// The interface's index (`if_nametoindex`).
    public var index: UInt32
    /// Its name (`eth0`), for the log.
    public var name: String
    /// Its addresses, each with its prefix length.
    public var addresses: [Prefixed]

    /// An address and the length of its subnet's prefix.
    public struct Prefixed: Hashable, Sendable {
        /// The address.
        public var address: IPAddress
        /// The prefix length in bits.
        public var prefixLength: Int

        /// Pairs an address with its prefix length.
        public init(_ address: IPAddress, prefixLength: Int) {
            self.address = address
            self.prefixLength = prefixLength
        }
    }

    /// Describes an interface.
    public init(index: UInt32, name: String, addresses: [Prefixed]) {
        self.index = index
        self.name = name
        self.addresses = addresses
    }

    /// Whether `source` is on this interface's link: link-local, or inside one of its subnets
    /// (RFC 6762 §11's source address check).
    public func isOnLink(_ source: IPAddress) -> Bool {
        source.isLinkLocal
            || addresses.contains { source.shares(prefix: $0.prefixLength, with: $0.address) }
    }
}
