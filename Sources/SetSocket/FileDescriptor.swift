#if canImport(Glibc)
    import Glibc
#endif

/// Writing to a descriptor that is not a socket — a terminal, stderr, a journal file — in one place:
/// every byte, resuming after short writes and `EINTR`, waiting when a non-blocking descriptor is full.
public enum FileDescriptor {
    /// Writes all of `bytes` to `fd`; returns how many were written and, if it stopped early, `errno`.
    /// Allocates nothing, so it may be called from a signal handler.
    @discardableResult
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> (
        written: Int, errorCode: Int32?
    ) {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n > 0 {
                offset += n
                continue
            }
            let code = n == 0 ? EIO : errno
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, 1000)
            default:
                return (offset, code)
            }
        }
        return (offset, nil)
    }

    /// Writes all of `bytes` to `fd`.
    @discardableResult
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> (written: Int, errorCode: Int32?) {
        bytes.withUnsafeBytes { writeAll($0, to: fd) }
    }
}

/// One descriptor held in reserve (on `/dev/null`) for the moment the process runs out: at `EMFILE` or
/// `ENFILE` a server gives it up, accepts the waiting connection with it to tell the client and close,
/// and takes it back — so the backlog is answered rather than left to spin the accept loop (what
/// nginx's `worker_connections` warning is about).
public final class DescriptorReserve {
    private var fd: Int32 = -1

    /// Takes the reserve descriptor.
    public init() { renew() }

    deinit { release() }

    /// Whether the reserve is held.
    public var isHeld: Bool { fd >= 0 }

    /// Gives the descriptor up, so one more can be opened.
    public func release() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    /// Takes the descriptor back (if the process has one to spare).
    public func renew() {
        guard fd < 0 else { return }
        fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }
}
