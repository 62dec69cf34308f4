/// What a host can set on the command line, with the defaults a LAN party needs.
public struct ServerConfiguration: Sendable, Equatable {
    /// The address to listen on; `nil` is every interface, IPv6 and IPv4.
    public var host: String?
    /// The TCP port; 0 picks a free one.
    public var port: UInt16 = 7777
    /// Connections held at once; the next one gets `ERR - FULL` and is closed.
    public var maxClients = 20_000
    /// Rooms at once.
    public var maxRooms = 5_000
    /// Seconds a dropped player keeps seat and score, waiting for `RESUME`.
    public var grace: Double = 120
    /// Seconds without a command before a connection gets `BYE idle`.
    public var idleTimeout: Double = 600
    /// The lowest level logged.
    public var logLevel: LogLevel = .info
    /// Makes every room's deals reproducible when set.
    public var seed: UInt64?
    /// Connections at once from one address; `nil` for no limit.
    public var maxPerIP: Int?
    /// Rooms one address may have created and still open; `nil` for no limit. Without it, a script that
    /// connects, joins a new room and leaves, thousands of times, fills the room table for everyone.
    public var maxRoomsPerIP: Int? = 20
    /// Finished games kept for `HISTORY` (and in the journal) in all, the oldest dropped first.
    public var maxArchivedGames = 1_000
    /// Seconds a new connection has to say `HELLO`, `RESUME` or `WATCH`.
    public var registrationTimeout: Double = 60
    /// Seconds of silence from a client before the server sends `PING`; unanswered data then lets the
    /// kernel declare a vanished peer dead within about the same time.
    public var pingInterval: Double = 30
    /// Sustained commands a second per connection (`--rate-limit`); 0 turns the limit off, for trusted
    /// LANs and benchmarks.
    public var commandsPerSecond = Limits.commandsPerSecond
    /// The burst allowed above ``commandsPerSecond``.
    public var commandBurst = Limits.commandBurst
    /// Where the journal of every room is kept; `nil` keeps everything in memory.
    public var stateDirectory: String?
    /// When the journal is flushed to the disk itself, past the page cache.
    public var fsync = FsyncPolicy.everySecond
    /// Whether a connection whose first bytes are `GET ` is HTTP (the page and its WebSocket);
    /// `--no-http` turns it off, and then `GET ` is a line protocol command like any other.
    public var isHTTPEnabled = true
    /// Seconds a new connection that says nothing waits for its greeting while HTTP is on, so that a
    /// browser's `GET` (which follows the TCP handshake at once) never receives it. Tests shorten it.
    public var sniffWindow = 0.15
    /// Bytes of output a connection may have waiting, whatever they are, before it is dropped as a
    /// reader that stopped reading: 1 MiB is hundreds of board updates, far more than any reader that is
    /// merely slow falls behind (Redis's `client-output-buffer-limit` is the model).
    public var maximumOutputBytes = 1 << 20
    /// Origins (`scheme://host[:port]`) besides the server's own whose pages may open the WebSocket
    /// (`--allow-origin`): a host behind a proxy names the proxy's public origin here.
    public var allowedOrigins: [String] = []
    /// Proxies whose word on a client's address is taken (`--trust-proxy`): from these peers only, a
    /// PROXY protocol header before the first bytes, and an HTTP request's `X-Forwarded-For` or
    /// `Forwarded`, name the client that every limit, log line and decision is about. A PROXY header
    /// from any other peer closes its connection; forwarding fields from any other peer are ignored.
    public var trustedProxies: [AddressRange] = []
    /// The origin players reach the page at through a proxy (`--public-url`, e.g.
    /// `https://set.example.org`, without a trailing `/`): its pages may use the WebSocket, and the
    /// banner links to it.
    public var publicURL: String?

    /// Days after which a claimed name whose key nobody said is freed (`--name-expiry-days`); 0 keeps
    /// claims for ever. Decided from the claim's journaled last use, never from who is online.
    public var nameExpiryDays = 90
    /// Claimed names the server keeps in all: past it a claim is refused (`TOOMANYNAMES`), so claims
    /// cannot grow the journal and the memory without bound, whoever makes them.
    public var maxClaimedNames = 10_000

    /// PBKDF2 iterations a new name key or room password is hashed with (stored with the hash, so a
    /// change applies to new ones only). 10,000 costs about 4 ms on one core (protocol.md); the
    /// deterministic simulation, which claims thousands of names, lowers it.
    public var keyHashIterations = 10_000

    /// How much of one game's log a room keeps (Matchismo choices for `HISTORY`, a record's events).
    public var gameLogLimit = GameLogLimit.standard

    /// Creates the default configuration.
    public init() {}
}

/// When the journal is flushed to the disk (`fsync`), as Redis's `appendfsync`. Every policy writes a
/// change to the journal (the page cache, which survives a crash of setd) before acknowledging it; they
/// differ in what a power cut or a kernel crash can take.
public enum FsyncPolicy: String, Sendable, CaseIterable {
    /// After every write, before the reply: a power cut loses nothing acknowledged. Slowest.
    case always
    /// Once a second: a power cut loses at most the last second or so.
    case everySecond = "everysec"
    /// Never explicitly; the kernel writes back within about 30 s. A power cut can lose that much.
    case never = "no"
}

/// Limits that protect the server and everyone on it; each has a test that hits it.
public enum Limits {
    /// Sustained commands per second per connection; a person types a few, a fast bot a few dozen.
    public static let commandsPerSecond = 100.0
    /// The burst allowed above the sustained rate, so that pipelined start-up commands pass.
    public static let commandBurst = 200.0
    /// Without `@<rev>`, positions are read against the board as it was this many seconds ago: a person
    /// cannot have seen a board younger than that, so a change this recent makes the claim stale.
    static let reactionWindow = 1.0
}
