import SetProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// How many times slower than a plain debug build this run is, from `SETD_TEST_TIME_SCALE` (CI sets it for
/// the ThreadSanitizer pass, which runs the server several times slower).
public let testTimeScale: Double = {
    guard let text = getenv("SETD_TEST_TIME_SCALE"), let scale = Double(String(cString: text)), scale >= 1
    else { return 1 }
    return scale
}()

/// Monotonic seconds, for deadlines and latency bounds. Test time runs `testTimeScale` times slower than
/// the wall clock, so that every deadline and every "answered within" bound stretches together on a
/// slow build, while `pause` still sleeps real seconds (the server's own timers are real).
public func monotonicNow() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9) / testTimeScale
}

/// Real seconds since `testTime` (a `monotonicNow()` reading): for lower bounds on what the server's own
/// timers do, which run on real seconds however slow the build.
public func realSeconds(since testTime: Double) -> Double {
    (monotonicNow() - testTime) * testTimeScale
}

/// Sleeps the calling thread; the tests are blocking by design, so every wait is bounded.
public func pause(_ seconds: Double) {
    usleep(UInt32(seconds * 1_000_000))
}

/// Opens a blocking TCP socket to 127.0.0.1:`port`, from the loopback address `source` (127.0.0.2 …
/// stand for other hosts) if given. `receiveBufferSize` shrinks its receive buffer before connecting, so
/// a client that stops reading backs the server up quickly; `configure` sets any other option first.
public func connectToLoopback(
    port: UInt16, label: String, source: String? = nil, receiveBufferSize: Int32? = nil,
    configure: (Int32) -> Void = { _ in }
) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw ClientError(description: "\(label): socket failed, errno \(errno)") }
    if var size = receiveBufferSize {
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    configure(fd)
    if let source {
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else {
            Glibc.close(fd)
            throw ClientError(description: "\(label): '\(source)' is not an IPv4 address")
        }
        let bound = withUnsafePointer(to: &local) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            Glibc.close(fd)
            throw ClientError(description: "\(label): bind to \(source) failed, errno \(code)")
        }
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(port).bigEndian
    address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
    let result = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard result == 0 else {
        let code = errno
        Glibc.close(fd)
        throw ClientError(description: "\(label): connect to port \(port) failed, errno \(code)")
    }
    return fd
}

/// A blocking TCP client for one loopback connection. Every read waits at most its timeout, so no test
/// can hang on a server that stays silent.
public final class TestClient {
    public let label: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    public private(set) var isAtEOF = false
    /// The last lines received, for error messages.
    private var recent: [String] = []
    /// Bytes received in all.
    public private(set) var bytesReceived = 0
    /// Bytes of the lines read so far, LFs included: ``bytesReceived`` once every byte that arrived was
    /// in a line and all of them were read.
    public private(set) var bytesInLinesRead = 0

    /// Connects to 127.0.0.1:`port`. `receiveBufferSize` shrinks the socket's receive buffer before
    /// connecting, so that a client which stops reading backs the server up quickly.
    public init(port: UInt16, label: String, source: String? = nil, receiveBufferSize: Int32? = nil) throws {
        self.label = label
        // Writes block at most this long, in case the server stops reading.
        fd = try connectToLoopback(
            port: port, label: label, source: source, receiveBufferSize: receiveBufferSize
        ) { fd in
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    deinit { close() }

    /// Closes the socket (the server sees a normal end of file).
    public func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    /// Says "no more from me" (a FIN) and goes on reading, as `printf … | nc` does once its input ends.
    public func shutDownWriting() {
        guard fd >= 0 else { return }
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    // MARK: Writing

    /// Sends one line with an LF.
    public func send(_ line: String) throws {
        try send(bytes: Array((line + "\n").utf8))
    }

    /// Sends several lines in one write.
    public func send(lines: [String]) throws {
        try send(bytes: Array(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Sends raw bytes, all of them, blocking at most 10 s per write.
    public func send(bytes: [UInt8]) throws {
        var offset = 0
        try bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ClientError(description: "\(label): send failed, errno \(errno)\(context)")
                }
                offset += n
            }
        }
    }

    /// Sends a line and reads its reply.
    public func request(_ line: String, timeout: Double = 5) throws -> Reply {
        try send(line)
        return try readReply(timeout: timeout)
    }

    // MARK: Reading

    private var context: String {
        let shown = recent.suffix(12).map {
            $0.count > 120 ? $0.prefix(100) + "… (\($0.utf8.count) bytes)" : $0
        }
        return "; \(bytesReceived) bytes received"
            + (shown.isEmpty ? "" : "; last lines:\n  " + shown.joined(separator: "\n  "))
    }

    /// Reads more bytes, waiting until `deadline`; sets `isAtEOF` on end of file or reset.
    private func fill(until deadline: Double, waitingFor what: String) throws {
        let remaining = deadline - monotonicNow()
        guard remaining > 0 else {
            throw ClientError(description: "\(label): timed out waiting for \(what)\(context)")
        }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(max(1, (remaining * 1000).rounded(.up))))
        if ready < 0 {
            if errno == EINTR { return }
            throw ClientError(description: "\(label): poll failed, errno \(errno)")
        }
        guard ready > 0 else {
            throw ClientError(description: "\(label): timed out waiting for \(what)\(context)")
        }
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 65536 {
            buffer.removeSubrange(..<start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n > 0 {
            buffer.append(contentsOf: chunk[..<n])
            bytesReceived += n
        } else if n == 0 || errno == ECONNRESET {
            isAtEOF = true
        } else if errno != EINTR && errno != EAGAIN {
            throw ClientError(description: "\(label): read failed, errno \(errno)")
        }
    }

    /// The next complete line in the buffer, if any.
    private func takeLine() -> String? {
        guard let newline = buffer[start...].firstIndex(of: 0x0A) else { return nil }
        let line = String(decoding: buffer[start..<newline], as: UTF8.self)
        bytesInLinesRead += newline + 1 - start
        start = newline + 1
        recent.append(line)
        if recent.count > 64 { recent.removeFirst(32) }
        return line
    }

    /// The next line, or `nil` at end of file; throws after `timeout` seconds of waiting.
    public func readLineOrEOF(timeout: Double = 5) throws -> String? {
        let deadline = monotonicNow() + timeout
        while true {
            if let line = takeLine() { return line }
            if isAtEOF { return nil }
            try fill(until: deadline, waitingFor: "a line")
        }
    }

    /// The next `count` bytes as they came, line ends or not (telnet's answers have none); throws on
    /// end of file or after `timeout` seconds.
    public func readBytes(_ count: Int, timeout: Double = 5) throws -> [UInt8] {
        let deadline = monotonicNow() + timeout
        while buffer.count - start < count {
            if isAtEOF {
                throw ClientError(
                    description: "\(label): end of file while waiting for \(count) bytes\(context)")
            }
            try fill(until: deadline, waitingFor: "\(count) bytes")
        }
        let bytes = Array(buffer[start..<(start + count)])
        start += count
        return bytes
    }

    /// The next line; throws on end of file or after `timeout` seconds.
    public func readLine(timeout: Double = 5) throws -> String {
        guard let line = try readLineOrEOF(timeout: timeout) else {
            throw ClientError(description: "\(label): end of file while waiting for a line\(context)")
        }
        return line
    }

    /// Reads lines up to and including the next final line (`OK …`/`ERR …`).
    public func readReply(timeout: Double = 5) throws -> Reply {
        let deadline = monotonicNow() + timeout
        var lines: [String] = []
        while true {
            let line = try readLine(timeout: max(0.001, deadline - monotonicNow()))
            if isFinalLine(line) { return Reply(lines: lines, final: line) }
            lines.append(line)
        }
    }

    /// Reads lines until one satisfies `predicate`; returns the lines skipped and the one found.
    @discardableResult
    public func expect(
        _ what: String, timeout: Double = 5, where predicate: (String) -> Bool
    ) throws -> (skipped: [String], line: String) {
        let deadline = monotonicNow() + timeout
        var skipped: [String] = []
        while true {
            guard let line = try readLineOrEOF(timeout: max(0.001, deadline - monotonicNow())) else {
                throw ClientError(
                    description: "\(label): end of file while waiting for \(what); skipped \(skipped)")
            }
            if predicate(line) { return (skipped, line) }
            skipped.append(line)
        }
    }

    /// Reads lines until one starts with `prefix`.
    @discardableResult
    public func expect(prefix: String, timeout: Double = 5) throws -> (skipped: [String], line: String) {
        try expect("a line starting '\(prefix)'", timeout: timeout) { $0.hasPrefix(prefix) }
    }

    /// Reads until end of file; returns the lines read on the way.
    @discardableResult
    public func expectEOF(timeout: Double = 5) throws -> [String] {
        let deadline = monotonicNow() + timeout
        var lines: [String] = []
        while let line = try readLineOrEOF(timeout: max(0.001, deadline - monotonicNow())) {
            lines.append(line)
        }
        return lines
    }

    /// The lines that arrive within `seconds` (none is fine); stops early at end of file.
    public func lines(arrivingWithin seconds: Double) throws -> [String] {
        let deadline = monotonicNow() + seconds
        var lines: [String] = []
        while !isAtEOF {
            if let line = takeLine() {
                lines.append(line)
                continue
            }
            if monotonicNow() >= deadline { break }
            do {
                try fill(until: deadline, waitingFor: "silence")
            } catch {
                break
            }
        }
        while let line = takeLine() { lines.append(line) }
        return lines
    }

    /// Reads and throws away whatever has arrived, without waiting; returns the bytes dropped.
    @discardableResult
    public func discardAvailable() throws -> Int {
        var dropped = 0
        while !isAtEOF {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 0) > 0 else { break }
            let before = bytesReceived
            try fill(until: monotonicNow() + 1, waitingFor: "data")
            dropped += bytesReceived - before
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return dropped
    }
}
