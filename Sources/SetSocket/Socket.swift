#if canImport(Glibc)
    import Glibc
#endif

/// A non-blocking TCP socket: the one place that calls `socket`, `bind`, `accept`, `read`, `write` and
/// `close`, so the rest of the code sees Swift errors and never `errno`.
///
/// It is a plain file descriptor, not an owner: whoever holds it closes it exactly once.
public struct Socket: Hashable, Sendable {
    /// The file descriptor.
    public let fd: Int32

    /// Wraps an existing descriptor.
    public init(fd: Int32) { self.fd = fd }

    /// The outcome of a read or a write on a non-blocking socket.
    public enum Transfer: Equatable, Sendable {
        /// This many bytes moved (a write may be short).
        case bytes(Int)
        /// Nothing can move now (`EAGAIN`); wait for the socket to be ready.
        case wouldBlock
        /// The peer closed its end (a read of 0 bytes).
        case closed
    }

    /// Ignores SIGPIPE for the process, so that writing to a vanished peer is an error, not a death.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Opens a listening socket on `host` (`nil` for every interface, IPv6 and IPv4 together) and
    /// `port` (0 picks a free one).
    public static func listen(host: String?, port: UInt16, backlog: Int32 = 4096) throws(SocketError)
        -> Socket
    {
        let addresses = try resolve(host: host ?? "::", port: port, passive: true)
        var lastError = SocketError("getaddrinfo", code: EADDRNOTAVAIL)
        var candidates = addresses
        if host == nil {
            // Fall back to IPv4 on machines without IPv6.
            candidates += (try? resolve(host: "0.0.0.0", port: port, passive: true)) ?? []
        }
        for address in candidates {
            guard let fd = makeDescriptor(family: address.family) else {
                lastError = SocketError("socket")
                continue
            }
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            if address.family == AF_INET6 {
                var no: Int32 = 0
                setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &no, socklen_t(MemoryLayout<Int32>.size))
            }
            let bound = withUnsafeBytes(of: address.storage) { raw in
                bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
            }
            guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
                lastError = SocketError(bound == 0 ? "listen" : "bind")
                Glibc.close(fd)
                continue
            }
            return Socket(fd: fd)
        }
        throw lastError
    }

    /// Starts a non-blocking connection to `host`:`port`; the socket becomes writable when it is made.
    /// With `source`, an IPv4 address of this machine (`127.0.0.2` …), an IPv4 connection is made from
    /// that address: the load tester spreads its bots over loopback addresses that way, so a server's
    /// per-address limits count them as many machines.
    public static func connect(host: String, port: UInt16, source: String? = nil) throws(SocketError)
        -> Socket
    {
        var lastError = SocketError("getaddrinfo", code: EADDRNOTAVAIL)
        for address in try resolve(host: host, port: port, passive: false) {
            guard let fd = makeDescriptor(family: address.family) else {
                lastError = SocketError("socket")
                continue
            }
            if let source, address.family == AF_INET {
                var local = sockaddr_in()
                local.sin_family = sa_family_t(AF_INET)
                guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else {
                    Glibc.close(fd)
                    throw SocketError("inet_pton \(source)", code: EINVAL)
                }
                let bound = withUnsafePointer(to: &local) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                guard bound == 0 else {
                    lastError = SocketError("bind \(source)")
                    Glibc.close(fd)
                    continue
                }
            }
            let result = withUnsafeBytes(of: address.storage) { raw in
                Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
            }
            if result == 0 || errno == EINPROGRESS {
                let socket = Socket(fd: fd)
                socket.setNoDelay()
                return socket
            }
            lastError = SocketError("connect")
            Glibc.close(fd)
        }
        throw lastError
    }

    /// A non-blocking, close-on-exec TCP descriptor, or `nil` with `errno` set.
    private static func makeDescriptor(family: Int32) -> Int32? {
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = Glibc.socket(family, flags, 0)
        return fd >= 0 ? fd : nil
    }

    /// Accepts one pending connection, non-blocking and with Nagle off; `nil` when none is pending.
    public func accept() throws(SocketError) -> (Socket, String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        while true {
            let fd = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.accept(self.fd, $0, &length)
                }
            }
            if fd >= 0 {
                let socket = Socket(fd: fd)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                socket.setNoDelay()
                return (socket, Self.describe(&storage))
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw SocketError("accept")
            }
        }
    }

    /// Accepts one waiting connection, writes `message` to it (what a non-blocking socket takes at once)
    /// and closes it: the answer to a client when the server cannot keep another connection.
    public func acceptAndRefuse(_ message: [UInt8]) {
        guard let (socket, _) = try? accept() else { return }
        _ = message.withUnsafeBytes { try? socket.write($0) }
        socket.close()
    }

    /// Reads into `buffer`, retrying on `EINTR`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SocketError) -> Transfer {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: throw SocketError("read")
            }
        }
    }

    /// Writes as much of `bytes` as the socket takes now, retrying on `EINTR`; never raises SIGPIPE.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SocketError) -> Transfer {
        guard !bytes.isEmpty else { return .bytes(0) }
        while true {
            let n = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return .bytes(n) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: throw SocketError("write")
            }
        }
    }

    /// The error a non-blocking `connect` finished with, or `nil` once it succeeded.
    public func pendingError() -> SocketError? {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else {
            return SocketError("getsockopt")
        }
        return code == 0 ? nil : SocketError("connect", code: code)
    }

    /// The local port the socket is bound to.
    public var localPort: UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt16(bigEndian: $0.pointee.sin_port)
            }
        }
    }

    /// Sends a TCP reset instead of a normal close when the socket is closed (for abuse tests).
    public func setLingerReset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Makes the kernel fail the connection when sent data stays unacknowledged this long, which is how
    /// a peer that vanished without closing is found.
    public func setUserTimeout(seconds: Double) {
        var milliseconds = UInt32(min(seconds * 1000, Double(UInt32.max)))
        setsockopt(
            fd, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, &milliseconds, socklen_t(MemoryLayout<UInt32>.size))
    }

    /// Closes the descriptor.
    public func close() {
        _ = Glibc.close(fd)
    }

    /// Shuts down the sending side, so the peer reads end-of-file after what was sent.
    public func shutdownWrite() {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    private func setNoDelay() {
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    }
}
