import SetProtocol

/// Why a test client gave up: a timeout, an early end of file, nothing to read, or a failed system call,
/// with the lines received so far, so that a failing test says what the server actually sent.
public struct ClientError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Creates an error.
    public init(description: String) { self.description = description }
}

/// A reply: the lines before the final line, and the final `OK …`/`ERR …` line itself.
public struct Reply: CustomStringConvertible, Sendable {
    /// Every line before the final one (events that arrived first, then the reply's data lines).
    public var lines: [String]
    /// The `OK …` or `ERR …` line.
    public var final: String

    /// Creates a reply.
    public init(lines: [String], final: String) {
        self.lines = lines
        self.final = final
    }

    /// The reply as received, one line per line.
    public var description: String { (lines + [final]).joined(separator: "\n") }

    /// Whether the final line is `OK <verb>…`.
    public func isOK(_ verb: String) -> Bool { final == "OK \(verb)" || final.hasPrefix("OK \(verb) ") }

    /// The error code of an `ERR` final line, or `nil`; read by the clients' own parser, so the tests
    /// check the server against the reading every client makes.
    public var error: ErrorCode? {
        guard case .err(_, let code, _) = ServerLine(parsing: final) else { return nil }
        return code
    }

    /// The typed detail of an `OK` final line, or `nil` for an `ERR`.
    public var ok: OKDetail? { ServerLine(parsing: final).okDetail }

    /// The token of the `TOKEN` line before the final line (a `RESUME` retires the token it presented
    /// and hands out this one), or `nil`.
    public var newToken: String? {
        for line in lines {
            if case .token(let token) = ServerLine(parsing: line) { return token }
        }
        return nil
    }

    /// ``lines`` without the `TOKEN` line: what a client shows (events, then the reply's data).
    public var shownLines: [String] {
        lines.filter { if case .token = ServerLine(parsing: $0) { false } else { true } }
    }
}

/// Whether a line ends a reply, as every client decides it.
public func isFinalLine(_ line: String) -> Bool {
    // Only a line whose first word is `OK` or `ERR` can be final: the other lines of a reply, most of
    // what a test reads, skip the whole parse (a tenth of the thousand-game record test's time).
    guard let first = line.utf8.first(where: { $0 != UInt8(ascii: " ") }),
        first == UInt8(ascii: "O") || first == UInt8(ascii: "E")
    else { return false }
    return ServerLine(parsing: line).isFinal
}
