import CEpoll

#if canImport(Glibc)
    import Glibc
#endif

/// An epoll set: the system calls of ``EventLoop``, kept here with the rest of the syscall layer.
///
/// It is a plain descriptor, not an owner: whoever holds it closes it exactly once.
public struct Epoll: Sendable {
    /// The epoll descriptor.
    public let fd: Int32

    /// What a descriptor is ready for, from one `epoll_wait`.
    public struct Event: Sendable {
        /// The token the descriptor was added with.
        public var token: UInt64
        /// The `EPOLL*` bits that are set.
        public var bits: UInt32

        /// Readable: data, or the end of the stream, is waiting.
        public var isReadable: Bool { bits & EPOLLIN.rawValue != 0 }
        /// Writable: the socket takes more output (or a connection in progress has finished).
        public var isWritable: Bool { bits & EPOLLOUT.rawValue != 0 }
        /// The peer closed its end, or the connection failed: a read now says how.
        public var isHangUp: Bool {
            bits & (EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
        }
    }

    /// A new, close-on-exec epoll set.
    public static func make() throws(SocketError) -> Epoll {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw SocketError("epoll_create1") }
        return Epoll(fd: fd)
    }

    /// Watches `socket` for input, output and the peer's close, edge-triggered: each is reported once
    /// when it becomes true, so the descriptor is added once and never modified (no `epoll_ctl` per
    /// event). Closing the descriptor removes it from the set.
    public func add(_ socket: Socket, token: UInt64) throws(SocketError) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
        event.data.u64 = token
        guard epoll_ctl(fd, EPOLL_CTL_ADD, socket.fd, &event) == 0 else { throw SocketError("epoll_ctl") }
    }

    /// Stops watching `socket`. Closing a descriptor takes it out of the set only when no other
    /// descriptor shares its open file (a `dup`, or a child that inherited it before close-on-exec was
    /// set), so an owner that must hear nothing more of it removes it first.
    public func remove(_ socket: Socket) {
        var event = epoll_event()
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, socket.fd, &event)
    }

    /// Watches `fd` for input, level-triggered, under `token`: how a loop's own thread is woken (an
    /// eventfd), reported on every wait until it is read.
    public func addWakeUp(_ fd: Int32, token: UInt64) throws(SocketError) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = token
        guard epoll_ctl(self.fd, EPOLL_CTL_ADD, fd, &event) == 0 else { throw SocketError("epoll_ctl") }
    }

    /// The events ready now, without waiting, into `buffer`; returns how many (0 on an error, which for
    /// a valid epoll set can only be `EINTR`).
    public func ready(into buffer: UnsafeMutableBufferPointer<epoll_event>) -> Int {
        while true {
            let n = epoll_wait(fd, buffer.baseAddress, Int32(buffer.count), 0)
            if n >= 0 { return Int(n) }
            if errno != EINTR { return 0 }
        }
    }

    /// Blocks until an event is ready (forever when `blocking`, otherwise not at all) and puts what is
    /// ready into `buffer`; returns how many (0 when a signal interrupted the wait).
    public func wait(into buffer: UnsafeMutableBufferPointer<epoll_event>, blocking: Bool) -> Int {
        let n = epoll_wait(fd, buffer.baseAddress, Int32(buffer.count), blocking ? -1 : 0)
        return n > 0 ? Int(n) : 0
    }

    /// The event at `index` of a buffer filled by ``ready(into:)``.
    public static func event(_ buffer: UnsafeMutableBufferPointer<epoll_event>, at index: Int) -> Event {
        let raw = buffer[index]
        return Event(token: raw.data.u64, bits: raw.events)
    }

    /// Closes the set.
    public func close() {
        _ = Glibc.close(fd)
    }
}
