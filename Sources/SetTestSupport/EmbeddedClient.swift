import SetProtocol
import SetServerCore

/// One connection to an ``EmbeddedServer``: what it types goes to the core at once, and what the core
/// sends waits here until the test reads it. Nothing blocks: a read with nothing there is an error that
/// lists what did arrive, since in memory nothing more can come without the test doing something.
public final class EmbeddedClient {
    /// Where the connection is in its life.
    public enum State: Sendable {
        /// Open.
        case open
        /// The server closed it (after `BYE`, `QUIT` or a refusal).
        case closed
        /// The server dropped it for not reading.
        case dropped
        /// The client closed it.
        case closedByClient
    }

    /// The core's name for this connection.
    public let id: ConnectionID
    /// The name used in error messages.
    public let label: String
    /// Whether it is open.
    public internal(set) var state = State.open
    /// While `false` the client is a reader that stopped reading: output piles up, and past the server's
    /// ``EmbeddedServer/maximumOutputBytes`` the connection is dropped.
    public var isReading = true {
        didSet {
            guard isReading != oldValue else { return }
            if isReading { server.resumedReading(self) } else { server.stoppedReading(self) }
        }
    }
    private unowned let server: EmbeddedServer
    private var inbox: [UInt8] = []
    private var start = 0
    /// The last lines read, for error messages.
    private var recent: [String] = []

    init(id: ConnectionID, label: String, server: EmbeddedServer) {
        self.id = id
        self.label = label
        self.server = server
    }

    /// Bytes sent by the server and not read yet.
    public var unreadBytes: Int { inbox.count - start }

    /// Whether the server has closed the connection and every line has been read.
    public var isAtEOF: Bool { state != .open && state != .closedByClient && unreadBytes == 0 }

    func deliver(_ bytes: [UInt8]) {
        inbox.append(contentsOf: bytes)
    }

    // MARK: Writing

    /// Sends one line with an LF.
    public func send(_ line: String) throws {
        try send(bytes: Array((line + "\n").utf8))
    }

    /// Sends several lines at once.
    public func send(lines: [String]) throws {
        try send(bytes: Array(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Sends raw bytes; throws once the connection is closed, as a write to a closed socket fails.
    public func send(bytes: [UInt8]) throws {
        guard state == .open else {
            throw ClientError(description: "\(label): send on a closed connection (\(state))\(context)")
        }
        server.received(bytes, from: self)
        try server.throwReplayMismatch()
    }

    /// Closes the connection from the client's side: the core sees the peer go.
    public func close() {
        guard state == .open else { return }
        state = .closedByClient
        server.closedByPeer(self)
    }

    // MARK: Reading

    private var context: String {
        "; last lines:\n  " + recent.suffix(12).joined(separator: "\n  ")
    }

    /// The next line, or `nil` if none has arrived.
    public func readLineIfAny() -> String? {
        guard let newline = inbox[start...].firstIndex(of: 0x0A) else { return nil }
        let line = String(decoding: inbox[start..<newline], as: UTF8.self)
        start = newline + 1
        if start == inbox.count {
            inbox.removeAll(keepingCapacity: true)
            start = 0
        }
        recent.append(line)
        if recent.count > 64 { recent.removeFirst(32) }
        return line
    }

    /// The next `count` bytes as they came, line ends or not (telnet's answers have none); throws if
    /// fewer have arrived.
    public func readBytes(_ count: Int) throws -> [UInt8] {
        guard unreadBytes >= count else {
            throw ClientError(
                description: "\(label): \(unreadBytes) bytes arrived while waiting for \(count)\(context)")
        }
        let bytes = Array(inbox[start..<(start + count)])
        start += count
        return bytes
    }

    /// The next line; throws if none has arrived.
    public func readLine() throws -> String {
        try server.throwReplayMismatch()
        guard let line = readLineIfAny() else {
            let why = isAtEOF ? "end of file" : "nothing more has arrived"
            throw ClientError(description: "\(label): \(why) while waiting for a line\(context)")
        }
        return line
    }

    /// The next line, or `nil` at end of file; throws if the connection is open and nothing arrived.
    public func readLineOrEOF() throws -> String? {
        try server.throwReplayMismatch()
        if let line = readLineIfAny() { return line }
        if isAtEOF { return nil }
        throw ClientError(description: "\(label): the connection is open and nothing more arrived\(context)")
    }

    /// Reads lines until one satisfies `predicate`; returns the lines skipped and the one found.
    @discardableResult
    public func expect(_ what: String, where predicate: (String) -> Bool) throws -> (
        skipped: [String], line: String
    ) {
        var skipped: [String] = []
        while let line = readLineIfAny() {
            if predicate(line) { return (skipped, line) }
            skipped.append(line)
        }
        throw ClientError(description: "\(label): no \(what) arrived; skipped \(skipped)")
    }

    /// Reads every line up to end of file; throws if the server has not closed the connection.
    @discardableResult
    public func expectEOF() throws -> [String] {
        let lines = readAvailable()
        guard isAtEOF else {
            throw ClientError(description: "\(label): still open after \(lines)")
        }
        return lines
    }

    /// Every line that has arrived (none is fine).
    public func readAvailable() -> [String] {
        var lines: [String] = []
        while let line = readLineIfAny() { lines.append(line) }
        return lines
    }

    /// The lines that arrive while the virtual clock moves on by `seconds` (none is fine).
    public func lines(arrivingWithin seconds: Double) -> [String] {
        server.advance(by: seconds)
        return readAvailable()
    }

    /// Throws away whatever has arrived; returns the bytes dropped.
    @discardableResult
    public func discardAvailable() -> Int {
        let dropped = unreadBytes
        inbox.removeAll(keepingCapacity: true)
        start = 0
        return dropped
    }
}
