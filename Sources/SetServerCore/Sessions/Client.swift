/// What the core knows of one open connection: who speaks on it, what it watches, and its clocks.
///
/// The socket itself belongs to the shell; the core knows the connection only by its ``id``.
final class Client {
    let id: ConnectionID
    /// `address:port`, for the log.
    var peer: String { "\(peerText)" }
    /// The address the per-address limits count it under (an IPv6 address by its /64).
    var addressKey: String { peerText.key }
    /// The peer and its key as one value: most are `a.b.c.d:port` keyed by `a.b.c.d`, which 6 bytes
    /// hold, and strings beside them would be 32 bytes and a heap block for every connection.
    private let peerText: PeerText
    /// Whether the client ever said `HELLO`, `RESUME` or `WATCH`, for the registration deadline. Here,
    /// in the padding after the peer, rather than last: the object stays within 80 bytes, a 96-byte
    /// block of malloc's instead of 112 or 128.
    var hasIdentified = false
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

    init(id: ConnectionID, peer: String, addressKey: String, at now: Double) {
        self.id = id
        peerText = PeerText(peer, key: addressKey)
        lastActivity = now
        connectedAt = now
    }
}

extension Client {
    /// Finds a client in a ``KeyedTable`` by its connection's ID.
    enum ByID: TableKeying {
        static func key(of client: Client) -> ConnectionID { client.id }
    }
}
