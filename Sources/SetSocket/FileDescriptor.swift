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
