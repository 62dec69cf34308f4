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
    public static func classify<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Verdict {
        for (byte, expected) in zip(bytes, httpPrefix) where byte != expected { return .lineProtocol }
        return bytes.count >= httpPrefix.count ? .http : .undecided
    }
}
