import SetProtocol

/// Limits of the connection stack: what one connection may cost in memory and time. Each has a test
/// that hits it; Redis's `client-output-buffer-limit` and nginx's `limit_conn` are the reference.
enum EngineLimits {
    /// Seconds a closing connection may take to drain its last bytes before it is cut.
    static let closingDeadline = 5.0
    /// Refused inputs after which a flooding connection is closed.
    static let floodDisconnectAfter = 1_000
    /// Seconds without a refusal that end a flood (and reset the count above).
    static let floodPause = 5.0
    /// Tokens `ROOMS` takes: listing thousands of rooms is worth ten pings, so ten a second at most.
    static let roomsCost = 10.0
    /// Tokens `HISTORY` takes.
    static let historyCost = 5.0
    /// Page requests a second from one address (over all its connections), and the burst allowed: a
    /// browser asks for the page once per load; reconnecting after each `429` must not buy a fresh
    /// bucket (nginx's `limit_req` is per address for the same reason).
    static let pagesPerSecondPerAddress = 20.0
    static let pageBurstPerAddress = 40.0
    /// The longest WebSocket message: a protocol line (the same cap as over TCP) and the CRLF a client
    /// may end it with, which is dropped.
    static let maximumMessageLength = LineFramer.maximumLineLength + 2
}
