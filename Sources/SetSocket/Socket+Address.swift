#if canImport(Glibc)
    import Glibc
#endif

extension Socket {
    struct Address {
        var family: Int32
        var storage: sockaddr_storage
        var length: socklen_t
    }

    static func resolve(host: String, port: UInt16, passive: Bool) throws(SocketError) -> [Address] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            // A name that does not resolve is the lookup's own error, not any errno.
            throw .lookup(host, status: status == 0 ? EAI_NONAME : status)
        }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let info = node {
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(
                    from: UnsafeRawBufferPointer(
                        start: info.pointee.ai_addr, count: Int(info.pointee.ai_addrlen)))
            }
            addresses.append(
                Address(family: info.pointee.ai_family, storage: storage, length: info.pointee.ai_addrlen))
            node = info.pointee.ai_next
        }
        return addresses
    }

    /// `host:port` (IPv4) or `[host]:port` (IPv6) of a socket address.
    static func describe(_ storage: inout sockaddr_storage) -> String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo(
                    $0, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                    NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard status == 0 else { return "?" }
        var name = String(cStringArray: host)
        if name.hasPrefix("::ffff:") { name.removeFirst(7) }
        return name.contains(":")
            ? "[\(name)]:\(String(cStringArray: service))" : "\(name):\(String(cStringArray: service))"
    }

    /// The addresses of this machine's network interfaces, for telling friends where to connect;
    /// loopback last.
    public static func localAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        var loopback: [String] = []
        var node = list
        while let entry = node {
            defer { node = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(
                family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0
            else { continue }
            let name = String(cStringArray: host)
            // Link-local addresses need a scope; friends can't type them.
            if name.hasPrefix("fe80") { continue }
            if (entry.pointee.ifa_flags & UInt32(IFF_LOOPBACK)) != 0 {
                loopback.append(name)
            } else {
                found.append(name)
            }
        }
        return found + loopback
    }
}
