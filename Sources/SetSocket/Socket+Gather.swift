#if canImport(Glibc)
    import Glibc
#endif

extension Socket {
    /// The most buffers one gathered write takes: the kernel refuses more than `IOV_MAX` (`UIO_MAXIOV`,
    /// 1,024 on Linux; Glibc's module does not export the macro) with `EINVAL`, so a longer queue is
    /// written in several calls.
    public static let maximumGather = 1_024

    /// Writes as much of `buffers`, in order, as the socket takes now, in one `sendmsg` (a gathered
    /// write: the buffers are not copied together first), retrying on `EINTR`; never raises SIGPIPE.
    /// At most ``maximumGather`` buffers.
    public func write(gathering buffers: UnsafeMutableBufferPointer<iovec>) throws(SocketError) -> Transfer {
        precondition(buffers.count <= Self.maximumGather, "more buffers than one gathered write takes")
        guard !buffers.isEmpty else { return .bytes(0) }
        var message = msghdr()
        message.msg_iov = buffers.baseAddress
        message.msg_iovlen = buffers.count
        while true {
            let n = sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
            if n >= 0 { return .bytes(n) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: throw SocketError("write")
            }
        }
    }
}
