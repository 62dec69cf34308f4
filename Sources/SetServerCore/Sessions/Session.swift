/// A named player: identity, token and seat, which outlive a dropped connection for the grace period.
///
/// Owned by the ``ServerCore`` like everything in it; a session knows its connection only by ID.
final class Session {
    let name: String
    /// The secret that `RESUME` presents to take this session back; every `RESUME` replaces it.
    var token: SessionToken {
        get { rare?.textToken ?? SessionToken(high: tokenBits.high, low: tokenBits.low) }
        set {
            if let bits = newValue.bits {
                tokenBits = bits
                if rare?.textToken != nil { updateRare { $0.textToken = nil } }
            } else {
                updateRare { $0.textToken = newValue }
            }
        }
    }
    /// The token's 128 bits, for every token the server makes; one of any other text is in the box.
    private var tokenBits: (high: UInt64, low: UInt64) = (0, 0)
    /// Whether the room this session is seated in counts it online, as the journal tells it: set and
    /// cleared by the `Room` only (seat, presence, unseat, restore), never from a connection.
    var isPresent: Bool {
        get { connectionAndPresence < 0 }
        set {
            connectionAndPresence =
                newValue ? connectionAndPresence | Int.min : connectionAndPresence & Int.max
        }
    }
    /// The connection speaking for the player now, or `nil` while they are away.
    var connection: ConnectionID? {
        get {
            let slot = connectionAndPresence & Int.max
            return slot == 0 ? nil : slot - 1
        }
        set {
            precondition(newValue.map { $0 >= 0 && $0 < Int.max } ?? true, "connection IDs count up from 1")
            connectionAndPresence = connectionAndPresence & Int.min | (newValue.map { $0 + 1 } ?? 0)
            room?.listenersChanged()
        }
    }
    /// ``connection`` plus one (0 for none) and, in the sign bit, ``isPresent``: one word where an
    /// optional ID and a flag took two. With the token's bits inline, a session is 72 bytes, an 80-byte
    /// block of malloc's instead of 96 (every seated player holds one; issue 28).
    private var connectionAndPresence = 0
    /// The room the player is seated in: set by ``Room/seat(_:)`` and restore, cleared by
    /// ``Room/unseat(_:)``, so it names a room in the core's table (a room leaves the table only once
    /// nobody is seated there).
    ///
    /// Strong, though the room holds its seats: that cycle is broken by `unseat` and, for a core thrown
    /// away with players seated (a restore's, a test's, a simulation's), by `ServerCore`'s `deinit`. A
    /// weak link gave every room a side table, and every retain and release of a room, and every read of
    /// this link, went through it: a twentieth of setd's time with every player chatting (issue 28).
    var room: Room?
    /// What only a player who dropped or resumed has (or a token the server did not make), in a box made
    /// when first needed and let go when all of it is back to nothing: every seated player holds a
    /// session, few ever use these.
    private var rare: Rare?

    /// A session's rarely set state.
    private final class Rare {
        var retiredTokens: [SessionToken] = []
        var lastNoticeAt = -Double.infinity
        var awaySince: Double?
        var lastAddress: String?
        /// The token, when it is not 32 lowercase hex digits (a hand-edited journal's).
        var textToken: SessionToken?

        var isEmpty: Bool {
            retiredTokens.isEmpty && lastNoticeAt == -Double.infinity && awaySince == nil
                && lastAddress == nil && textToken == nil
        }
    }

    /// Changes the rare state, making its box if need be and letting it go once it holds nothing.
    private func updateRare(_ change: (Rare) -> Void) {
        let box = rare ?? Rare()
        change(box)
        rare = box.isEmpty ? nil : box
    }

    /// Tokens this session had before its last `RESUME`s, newest last (at most
    /// ``ServerCore/retiredTokensKept``): presenting one is refused, and the player is told.
    var retiredTokens: [SessionToken] {
        get { rare?.retiredTokens ?? [] }
        set { updateRare { $0.retiredTokens = newValue } }
    }
    /// When the player was last told that someone presented a retired token (uptime).
    var lastNoticeAt: Double {
        get { rare?.lastNoticeAt ?? -Double.infinity }
        set { updateRare { $0.lastNoticeAt = newValue } }
    }
    /// When the connection dropped, for the grace period.
    var awaySince: Double? {
        get { rare?.awaySince }
        set { updateRare { $0.awaySince = newValue } }
    }
    /// The address key of the connection that last held the seat, kept from its drop: a kick holds it
    /// even when the player dropped just before (while the player is online, their connection's key is
    /// at hand). Live only; a kick journals the address it used.
    var lastAddress: String? {
        get { rare?.lastAddress }
        set { updateRare { $0.lastAddress = newValue } }
    }

    init(name: String, token: SessionToken, connection: ConnectionID?) {
        self.name = name
        self.token = token
        self.connection = connection
    }

    var isOnline: Bool { connection != nil }

    /// 128 random bits (32 hex digits); the token is all that stands between a stranger and a seat.
    /// Taken as bits, the first word the first 16 digits: spelled as hex and read back, they were
    /// over a quarter of a `HELLO`'s work in the core.
    static func makeToken(_ random: Randomness) -> SessionToken {
        let high = random.bits()
        return SessionToken(high: high, low: random.bits())
    }
}

extension Session {
    /// Finds a session in a ``KeyedTable`` by its player's name.
    enum ByName: TableKeying {
        static func key(of session: Session) -> String { session.name }
    }

    /// Finds a session in a ``KeyedTable`` by its token; a session's token changes only while it is out
    /// of the table (see `ServerCore.replaceToken`).
    enum ByToken: TableKeying {
        static func key(of session: Session) -> SessionToken { session.token }
    }
}
