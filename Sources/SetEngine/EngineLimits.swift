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
    /// Lines in a row that are no command (no verb setd knows, not UTF-8, over the line cap) after which
    /// a connection gets `BYE junk` and is closed: that is a program sending something else, not a
    /// person mistyping, and answering each of its lines costs the server what a player's command does.
    /// Postfix's `smtpd_hard_error_limit` is the reference (20 as well).
    static let junkLinesBeforeClose: UInt8 = 20
    /// Tokens `ROOMS` takes: listing thousands of rooms is worth ten pings, so ten a second at most.
    static let roomsCost = 10.0
    /// Tokens `HISTORY` takes.
    static let historyCost = 5.0
    /// Page requests a second from one address (over all its connections), and the burst allowed: a
    /// browser asks for the page once per load; reconnecting after each `429` must not buy a fresh
    /// bucket (nginx's `limit_req` is per address for the same reason).
    static let pagesPerSecondPerAddress = 20.0
    static let pageBurstPerAddress = 40.0
    /// Lines one room's commands may queue in one pass of the shell (a CHAT in a room of ten queues ten)
    /// before that room's further input waits for the next pass: a room flooding flat out then delays
    /// only itself, and every other room's lines leave in the pass they were sent in. A pass is one
    /// round of the shell's event loop: 80 CHATs in a room of 100, 800 in a room of 10. Not smaller: the
    /// lines of a pass leave in one write per member, and a smaller share means more writes per line (at
    /// 2,048 a flat-out room of 100 cost more CPU per line than with no bound, since its 64 lines in
    /// flight took four passes).
    static let linesPerRoomPerPass = 8_192
    /// Lines a connection may have waiting for a later pass; past that its input is handled whatever its
    /// room's budget, so what a client that sends without reading is held for stays bounded.
    static let maximumDeferredLines = 16_384
    /// The longest WebSocket message: a protocol line (the same cap as over TCP) and the CRLF a client
    /// may end it with, which is dropped.
    static let maximumMessageLength = LineFramer.maximumLineLength + 2
}
