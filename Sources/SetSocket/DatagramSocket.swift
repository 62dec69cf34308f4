#if canImport(Glibc)
    import Glibc
#endif

/// A non-blocking UDP socket for multicast DNS: the one place that calls `recvmsg`, `sendto` and the
/// multicast options, so the responder and the finder see bytes, addresses and interface indices.
///
/// It is a plain file descriptor, not an owner: whoever holds it closes it exactly once.
public struct DatagramSocket: Hashable, Sendable {
    /// The file descriptor.
    public let fd: Int32
    /// Whether it is an IPv6 socket (IPv6 only: IPv4 has a socket of its own).
    public let isIPv6: Bool

    /// One datagram received.
    public struct Datagram: Equatable, Sendable {
        /// Its length; the bytes are in the buffer given to ``receive(into:)``.
        public var count: Int
        /// The sender's address bytes (4 or 16).
        public var source: [UInt8]
        /// The sender's port.
        public var sourcePort: UInt16
        /// The address it was sent to (a multicast group or one of ours), from `IP_PKTINFO`.
        public var destination: [UInt8]?
        /// The index of the interface it arrived on, from `IP_PKTINFO` (0 if unknown).
        public var interface: UInt32
        /// The IP TTL (IPv6 hop limit) it arrived with, from `IP_RECVTTL`/`IPV6_RECVHOPLIMIT`.
        public var hopLimit: Int?
    }

    /// The mDNS groups (RFC 6762 §3): 224.0.0.251 and ff02::fb.
    public static let mdnsGroupIPv4: [UInt8] = [224, 0, 0, 251]
    /// See ``mdnsGroupIPv4``.
    public static let mdnsGroupIPv6: [UInt8] = [0xFF, 0x02] + [UInt8](repeating: 0, count: 13) + [0xFB]

    /// Opens a non-blocking UDP socket of one family bound to `port` on every address (0 for any free
    /// port). With `sharesPort` the port is shared with other mDNS responders on the machine (Avahi,
    /// Bonjour, a second setd): `SO_REUSEADDR` and `SO_REUSEPORT`, as RFC 6762 §15 asks. Each datagram
    /// reports where it came in and its TTL; everything sent leaves with TTL 255 and loops back to local
    /// listeners, so a responder and a finder on one machine hear each other.
    public static func open(ipv6: Bool, port: UInt16, sharesPort: Bool) throws(SocketError) -> DatagramSocket
    {
        let family = ipv6 ? AF_INET6 : AF_INET
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = Glibc.socket(family, type, 0)
        guard fd >= 0 else { throw SocketError("socket") }
        let socket = DatagramSocket(fd: fd, isIPv6: ipv6)
        do throws(SocketError) {
            if sharesPort {
                try socket.set(SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR")
                try socket.set(SOL_SOCKET, SO_REUSEPORT, 1, "SO_REUSEPORT")
            }
            if ipv6 {
                let level = Int32(IPPROTO_IPV6)
                try socket.set(level, IPV6_V6ONLY, 1, "IPV6_V6ONLY")
                try socket.set(level, IPV6_RECVPKTINFO, 1, "IPV6_RECVPKTINFO")
                try socket.set(level, IPV6_RECVHOPLIMIT, 1, "IPV6_RECVHOPLIMIT")
                try socket.set(level, IPV6_MULTICAST_HOPS, 255, "IPV6_MULTICAST_HOPS")
                try socket.set(level, IPV6_UNICAST_HOPS, 255, "IPV6_UNICAST_HOPS")
                try socket.set(level, IPV6_MULTICAST_LOOP, 1, "IPV6_MULTICAST_LOOP")
            } else {
                let level = Int32(IPPROTO_IP)
                try socket.set(level, IP_PKTINFO, 1, "IP_PKTINFO")
                try socket.set(level, IP_RECVTTL, 1, "IP_RECVTTL")
                try socket.set(level, IP_MULTICAST_TTL, 255, "IP_MULTICAST_TTL")
                try socket.set(level, IP_TTL, 255, "IP_TTL")
                try socket.set(level, IP_MULTICAST_LOOP, 1, "IP_MULTICAST_LOOP")
                // Only the groups this socket joined, not every group any socket of the machine joined.
                try socket.set(level, IP_MULTICAST_ALL, 0, "IP_MULTICAST_ALL")
            }
            var storage = sockaddr_storage()
            let length = makeAddress(
                &storage, bytes: ipv6 ? [UInt8](repeating: 0, count: 16) : [0, 0, 0, 0], port: port)
            let bound = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            guard bound == 0 else { throw SocketError("bind") }
        } catch {
            Glibc.close(fd)
            throw error
        }
        return socket
    }

    private func set(_ level: Int32, _ option: Int32, _ value: Int32, _ name: String) throws(SocketError) {
        var value = value
        guard setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SocketError("setsockopt \(name)")
        }
    }

    /// Joins the multicast `group` (4 or 16 bytes, of the socket's family) on interface `index`.
    public func join(group: [UInt8], interface index: UInt32) throws(SocketError) {
        if isIPv6 {
            var request = ipv6_mreq()
            withUnsafeMutableBytes(of: &request.ipv6mr_multiaddr) { $0.copyBytes(from: group.prefix(16)) }
            request.ipv6mr_interface = index
            guard
                setsockopt(
                    fd, Int32(IPPROTO_IPV6), IPV6_JOIN_GROUP, &request,
                    socklen_t(MemoryLayout<ipv6_mreq>.size)) == 0
            else { throw SocketError("setsockopt IPV6_JOIN_GROUP") }
        } else {
            var request = ip_mreqn()
            withUnsafeMutableBytes(of: &request.imr_multiaddr) { $0.copyBytes(from: group.prefix(4)) }
            request.imr_ifindex = Int32(bitPattern: index)
            guard
                setsockopt(
                    fd, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &request, socklen_t(MemoryLayout<ip_mreqn>.size)
                ) == 0
            else { throw SocketError("setsockopt IP_ADD_MEMBERSHIP") }
        }
    }

    /// Receives one datagram into `buffer` (a larger one is cut to the buffer); `nil` when none waits.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SocketError) -> Datagram? {
        var storage = sockaddr_storage()
        var control = [UInt8](repeating: 0, count: 256)
        while true {
            var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
            var controlLength = 0
            let result: Int = withUnsafeMutablePointer(to: &storage) { address in
                withUnsafeMutablePointer(to: &vector) { vector in
                    control.withUnsafeMutableBytes { control in
                        var header = msghdr(
                            msg_name: UnsafeMutableRawPointer(address),
                            msg_namelen: socklen_t(MemoryLayout<sockaddr_storage>.size), msg_iov: vector,
                            msg_iovlen: 1, msg_control: control.baseAddress, msg_controllen: control.count,
                            msg_flags: 0)
                        let n = recvmsg(fd, &header, 0)
                        controlLength = header.msg_controllen
                        return n
                    }
                }
            }
            if result < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return nil
                default: throw SocketError("recvmsg")
                }
            }
            var datagram = Datagram(
                count: result, source: [], sourcePort: 0, destination: nil, interface: 0, hopLimit: nil)
            withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    datagram.source = NetworkInterface.addressBytes($0) ?? []
                }
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    // sin_port and sin6_port sit at the same offset.
                    datagram.sourcePort = UInt16(bigEndian: $0.pointee.sin_port)
                }
            }
            Self.readControl(Array(control.prefix(min(controlLength, control.count))), into: &datagram)
            return datagram
        }
    }

    /// Reads the control messages `recvmsg` left: the interface, the destination and the TTL. Laid out
    /// by hand, as `CMSG_FIRSTHDR` and friends are macros Swift cannot import: a header of a `size_t`
    /// length and two `int`s, then the data, each message padded to the alignment of `size_t`.
    static func readControl(_ control: [UInt8], into datagram: inout Datagram) {
        let alignment = MemoryLayout<Int>.size
        let headerSize = MemoryLayout<cmsghdr>.size
        var offset = 0
        func integer(_ at: Int, _ size: Int) -> Int {
            control.withUnsafeBytes { raw in
                size == 8
                    ? Int(raw.loadUnaligned(fromByteOffset: at, as: Int.self))
                    : Int(raw.loadUnaligned(fromByteOffset: at, as: Int32.self))
            }
        }
        while offset + headerSize <= control.count {
            let length = integer(offset, 8)
            let level = Int32(integer(offset + 8, 4))
            let type = Int32(integer(offset + 12, 4))
            guard length >= headerSize, offset + length <= control.count else { return }
            let data = offset + headerSize
            let dataLength = length - headerSize
            switch (level, type) {
            case (Int32(IPPROTO_IP), IP_PKTINFO) where dataLength >= 12:
                // struct in_pktinfo { int ipi_ifindex; in_addr ipi_spec_dst; in_addr ipi_addr; }
                datagram.interface = UInt32(truncatingIfNeeded: integer(data, 4))
                datagram.destination = Array(control[(data + 8)..<(data + 12)])
            case (Int32(IPPROTO_IP), IP_TTL) where dataLength >= 4:
                datagram.hopLimit = integer(data, 4)
            case (Int32(IPPROTO_IPV6), IPV6_PKTINFO) where dataLength >= 20:
                // struct in6_pktinfo { in6_addr ipi6_addr; unsigned ipi6_ifindex; }
                datagram.destination = Array(control[data..<(data + 16)])
                datagram.interface = UInt32(truncatingIfNeeded: integer(data + 16, 4))
            case (Int32(IPPROTO_IPV6), IPV6_HOPLIMIT) where dataLength >= 4:
                datagram.hopLimit = integer(data, 4)
            default:
                break
            }
            offset += (length + alignment - 1) / alignment * alignment
        }
    }

    /// Sends `bytes` to `address`:`port` out of interface `index` (for a multicast group it picks the
    /// interface; for a link-local IPv6 address it is the scope). An IPv4 multicast leaves from `source`,
    /// one of the interface's addresses, when given: the kernel would otherwise pick none on a loopback
    /// interface and send from 0.0.0.0. Returns false when the socket cannot take it now: a datagram is
    /// dropped rather than queued, as any mDNS packet may be lost.
    @discardableResult
    public func send(
        _ bytes: [UInt8], to address: [UInt8], port: UInt16, interface index: UInt32, source: [UInt8]? = nil
    ) throws(SocketError) -> Bool {
        if isIPv6 {
            var interface = index
            setsockopt(
                fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_IF, &interface, socklen_t(MemoryLayout<UInt32>.size))
        } else {
            var request = ip_mreqn()
            request.imr_ifindex = Int32(bitPattern: index)
            if let source, source.count == 4 {
                withUnsafeMutableBytes(of: &request.imr_address) { $0.copyBytes(from: source) }
            }
            setsockopt(
                fd, Int32(IPPROTO_IP), IP_MULTICAST_IF, &request, socklen_t(MemoryLayout<ip_mreqn>.size))
        }
        var storage = sockaddr_storage()
        let length = Self.makeAddress(&storage, bytes: address, port: port, scope: index)
        while true {
            let n = bytes.withUnsafeBytes { raw in
                withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), $0, length)
                    }
                }
            }
            if n >= 0 { return true }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK, ENOBUFS: return false
            default: throw SocketError("sendto")
            }
        }
    }

    /// The local port the socket is bound to.
    public var localPort: UInt16 { Socket(fd: fd).localPort }

    /// Closes the descriptor.
    public func close() {
        _ = Glibc.close(fd)
    }

    /// Fills `storage` with the socket address of `bytes` (4 or 16) and `port`; returns its length.
    /// A link-local IPv6 address gets `scope` as its interface.
    static func makeAddress(
        _ storage: inout sockaddr_storage, bytes: [UInt8], port: UInt16, scope: UInt32 = 0
    )
        -> socklen_t
    {
        withUnsafeMutablePointer(to: &storage) { pointer in
            if bytes.count == 16 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    address.pointee.sin6_family = sa_family_t(AF_INET6)
                    address.pointee.sin6_port = port.bigEndian
                    withUnsafeMutableBytes(of: &address.pointee.sin6_addr) { $0.copyBytes(from: bytes) }
                    let isLinkScoped = bytes[0] == 0xFF || (bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80)
                    address.pointee.sin6_scope_id = isLinkScoped ? scope : 0
                    return socklen_t(MemoryLayout<sockaddr_in6>.size)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_port = port.bigEndian
                withUnsafeMutableBytes(of: &address.pointee.sin_addr) { $0.copyBytes(from: bytes.prefix(4)) }
                return socklen_t(MemoryLayout<sockaddr_in>.size)
            }
        }
    }
}

extension DatagramSocket {
    /// Waits until one of `sockets` has a datagram or `timeout` seconds pass; returns those that have
    /// one. For a short blocking exchange (`set-cli --find`), not for a server's loop.
    public static func waitForInput(_ sockets: [DatagramSocket], timeout: Double) -> [DatagramSocket] {
        var entries = sockets.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        let milliseconds = Int32(max(0, min(timeout, 60)) * 1000)
        while true {
            let n = poll(&entries, nfds_t(entries.count), milliseconds)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return [] }
            return zip(sockets, entries).filter { $0.1.revents & Int16(POLLIN) != 0 }.map(\.0)
        }
    }
}
