#if canImport(Glibc)
    import Glibc
#endif

/// One network interface of this machine with its addresses: what the mDNS responder serves and
/// what `set-cli --find` asks on.
public struct NetworkInterface: Equatable, Sendable {
    /// One address of the interface and the length of its subnet's prefix.
    public struct Address: Equatable, Sendable {
        /// The address's bytes: 4 for IPv4, 16 for IPv6, in network order.
        public var bytes: [UInt8]
        /// The prefix length in bits, from the netmask.
        public var prefixLength: Int
    }

    /// The name, e.g. `eth0`.
    public var name: String
    /// The index that `IP_ADD_MEMBERSHIP`, `IPV6_JOIN_GROUP` and `IP_PKTINFO` use.
    public var index: UInt32
    /// Whether it is up and running.
    public var isUp: Bool
    /// Whether it is the loopback interface.
    public var isLoopback: Bool
    /// Whether it can send and receive multicast: where mDNS can work at all.
    public var isMulticast: Bool
    /// Its IPv4 and IPv6 addresses.
    public var addresses: [Address]

    /// Every interface with at least one address, in the order `getifaddrs` lists them.
    public static func all() -> [NetworkInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: [NetworkInterface] = []
        var node = list
        while let entry = node {
            defer { node = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, let bytes = Self.addressBytes(address) else {
                continue
            }
            let prefix =
                entry.pointee.ifa_netmask.flatMap(Self.addressBytes).map(Self.prefixLength) ?? bytes.count * 8
            let name = String(cString: entry.pointee.ifa_name)
            let flags = entry.pointee.ifa_flags
            if let i = found.firstIndex(where: { $0.name == name }) {
                found[i].addresses.append(Address(bytes: bytes, prefixLength: prefix))
                continue
            }
            found.append(
                NetworkInterface(
                    name: name, index: if_nametoindex(entry.pointee.ifa_name),
                    isUp: flags & UInt32(IFF_UP) != 0 && flags & UInt32(IFF_RUNNING) != 0,
                    isLoopback: flags & UInt32(IFF_LOOPBACK) != 0,
                    isMulticast: flags & UInt32(IFF_MULTICAST) != 0,
                    addresses: [Address(bytes: bytes, prefixLength: prefix)]))
        }
        return found
    }

    /// The bytes of an IPv4 or IPv6 socket address; `nil` for any other family.
    static func addressBytes(_ address: UnsafeMutablePointer<sockaddr>) -> [UInt8]? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
            }
        default:
            return nil
        }
    }

    /// The number of leading one bits of a netmask.
    static func prefixLength(_ mask: [UInt8]) -> Int {
        var bits = 0
        for byte in mask {
            bits += byte.leadingZeroBitCount == 0 ? (~byte).leadingZeroBitCount : 0
            if byte != 0xFF { break }
        }
        return bits
    }
}

extension NetworkInterface {
    /// The bytes of a numeric IPv4 or IPv6 address (`192.168.1.20`, `fe80::1`); `nil` for a host name
    /// or anything else.
    public static func numericAddress(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
        return nil
    }
}
