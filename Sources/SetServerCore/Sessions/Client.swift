/// What the core knows of one open connection: who speaks on it, what it watches, and its clocks.
///
/// The socket itself belongs to the shell; the core knows the connection only by its ``id``.
final class Client {
    let id: ConnectionID
    /// `address:port`, for the log.
    let peer: String
    /// The address part of `peer`, for the per-address limit.
    let host: String
    var limiter = RateLimiter()
    /// The player this connection speaks for, after `HELLO` or `RESUME`.
    var session: Session?
    /// The room this connection watches as a spectator.
    var watching: Room?
    /// When the last complete line arrived.
    var lastActivity: Double
    let connectedAt: Double
    /// When the last server `PING` went out.
    var lastPingAt = -Double.infinity
    /// Whether the client ever said `HELLO`, `RESUME` or `WATCH`, for the registration deadline.
    var hasIdentified = false

    init(id: ConnectionID, peer: String, at now: Double) {
        self.id = id
        self.peer = peer
        host = Self.host(of: peer)
        lastActivity = now
        connectedAt = now
    }

    /// The address part of `address:port` (an IPv6 address keeps its colons).
    static func host(of peer: String) -> String {
        guard let colon = peer.lastIndex(of: ":") else { return peer }
        return String(peer[..<colon])
    }
}
