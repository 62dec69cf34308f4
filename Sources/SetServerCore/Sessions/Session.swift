/// A named player: identity, token and seat, which outlive a dropped connection for the grace period.
///
/// Owned by the ``ServerCore`` like everything in it; a session knows its connection only by ID.
final class Session {
    let name: String
    /// The secret that `RESUME` presents to take this session back; every `RESUME` replaces it.
    var token: SessionToken
    /// Tokens this session had before its last `RESUME`s, newest last (at most
    /// ``ServerCore/retiredTokensKept``): presenting one is refused, and the player is told.
    var retiredTokens: [SessionToken] = []
    /// When the player was last told that someone presented a retired token (uptime).
    var lastNoticeAt = -Double.infinity
    /// The connection speaking for the player now, or `nil` while they are away.
    var connection: ConnectionID?
    /// The room the player is seated in.
    /// Weak: the core's table owns rooms, and a room holds its seats; a strong link back would make every
    /// seat a cycle that outlives a core thrown away (a restore's, a test's, a simulation's).
    weak var room: Room?
    /// When the connection dropped, for the grace period.
    var awaySince: Double?
    /// The address key of the connection that last held the seat: a kick holds it even when the player
    /// dropped just before. Live only; a kick journals the address it used.
    var lastAddress: String?

    init(name: String, token: SessionToken, connection: ConnectionID?) {
        self.name = name
        self.token = token
        self.connection = connection
    }

    var isOnline: Bool { connection != nil }

    /// 128 random bits as hex; the token is all that stands between a stranger and a seat.
    static func makeToken(_ random: Randomness) -> SessionToken { SessionToken(random.hex(words: 2)) }
}
