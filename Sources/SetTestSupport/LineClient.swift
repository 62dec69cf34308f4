import SetProtocol

/// A client a test drives line by line: `nc` in memory (``EmbeddedClient``) or over loopback
/// (``TestClient``), or a browser's WebSocket (``EmbeddedWebSocketClient``, ``WebSocketTestClient``). What a
/// test says to one it can say to any, so one scenario runs over every way in.
public protocol LineClient: AnyObject {
    /// The name used in error messages.
    var label: String { get }
    /// Sends one line (a text message over a WebSocket).
    func send(_ line: String) throws
    /// The next line, or `nil` at the end of the stream; throws when none comes (in memory: none has
    /// arrived, since nothing more can without the test doing something; over loopback: none within the
    /// client's timeout).
    func readLineOrEOF() throws -> String?
}

extension LineClient {
    /// The next line; throws at the end of the stream.
    public func readLine() throws -> String {
        guard let line = try readLineOrEOF() else {
            throw ClientError(description: "\(label): end of file while waiting for a line")
        }
        return line
    }

    /// Reads lines up to and including the next final line (`OK …`/`ERR …`).
    public func readReply() throws -> Reply {
        var lines: [String] = []
        while true {
            let line = try readLine()
            if isFinalLine(line) { return Reply(lines: lines, final: line) }
            lines.append(line)
        }
    }

    /// Sends a line and reads its reply.
    public func request(_ line: String) throws -> Reply {
        try send(line)
        return try readReply()
    }

    /// Sends a typed command and reads its reply.
    public func request(_ command: Command) throws -> Reply { try request(command.text) }

    /// Says `HELLO <name>` (with a key to claim it); returns the token, or throws with the reply that
    /// refused it: the one way a test makes a named player, on any client.
    @discardableResult
    public func hello(_ name: String, key: String? = nil) throws -> String {
        let reply = try request(.hello(name: name, key: key))
        guard case .hello(name, let token)? = reply.ok else {
            throw ClientError(description: "\(label): HELLO \(name) got \(reply)")
        }
        return token
    }

    /// Reads lines until one starts with `prefix`; returns the lines skipped and the one found.
    @discardableResult
    public func expect(prefix: String) throws -> (skipped: [String], line: String) {
        var skipped: [String] = []
        while true {
            let line = try readLine()
            if line.hasPrefix(prefix) { return (skipped, line) }
            skipped.append(line)
        }
    }
}

extension EmbeddedClient: LineClient {}

extension TestClient: LineClient {
    /// The next line within the default timeout.
    public func readLineOrEOF() throws -> String? { try readLineOrEOF(timeout: 5) }
}
