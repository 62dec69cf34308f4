/// What a connection's first bytes say it speaks: `GET ` starts HTTP, anything else is the line protocol.
public enum FirstBytes {
    /// What the bytes so far decide.
    public enum Verdict: Sendable, Equatable {
        /// A prefix of `GET `: wait for more (or for the sniff window to end).
        case undecided
        /// The connection is HTTP.
        case http
        /// The connection is the line protocol.
        case lineProtocol
    }

    /// What every HTTP request this server serves begins with.
    public static let httpPrefix = Array("GET ".utf8)

    /// The verdict on a connection's first bytes (only the first four matter).
    ///
    /// Inlinable, so the engine's call is specialized for its buffer: generic across modules, the `zip`
    /// this was written with fetched its iterator's metadata at every connection's first read.
    @inlinable
    public static func classify<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Verdict {
        var index = bytes.startIndex
        for expected in httpPrefix {
            guard index != bytes.endIndex else { return .undecided }
            guard bytes[index] == expected else { return .lineProtocol }
            bytes.formIndex(after: &index)
        }
        return .http
    }
}
