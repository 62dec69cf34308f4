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

    /// The error code of an `ERR` final line, or `nil`.
    public var errorCode: String? {
        let words = final.split(separator: " ")
        guard words.first == "ERR", words.count >= 3 else { return nil }
        return String(words[2])
    }
}

/// Whether a line ends a reply.
public func isFinalLine(_ line: String) -> Bool {
    line.hasPrefix("OK ") || line == "OK" || line.hasPrefix("ERR ")
}
