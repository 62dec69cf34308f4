/// What the core knows of one open connection: who speaks on it, what it watches, and its clocks.
///
/// The socket itself belongs to the shell; the core knows the connection only by its ``id``.
final class Client {
    let id: ConnectionID
    /// `address:port`, for the log.
    var peer: String { "\(peerText)" }
    /// The peer as a value: most are `a.b.c.d:port`, which 6 bytes hold, and a longer string would be a
    /// heap block of its own for every connection.
    private let peerText: PeerText
    /// The address the per-address limits count it under (an IPv6 address by its /64).
    let addressKey: String
    /// The player this connection speaks for, after `HELLO` or `RESUME`.
    var session: Session?
    /// The room this connection watches as a spectator.
    /// Weak: the core's table owns rooms (a room holds its spectators by ID only).
    weak var watching: Room?
    /// When the last complete line arrived.
    var lastActivity: Double
    let connectedAt: Double
    /// When the last server `PING` went out.
    var lastPingAt = -Double.infinity
    /// Whether the client ever said `HELLO`, `RESUME` or `WATCH`, for the registration deadline.
    var hasIdentified = false

    init(id: ConnectionID, peer: String, addressKey: String, at now: Double) {
        self.id = id
        peerText = PeerText(peer)
        self.addressKey = addressKey
        lastActivity = now
        connectedAt = now
    }
}
