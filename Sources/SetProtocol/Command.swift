/// A command a client sent, parsed from one line.
public enum Command: Equatable, Sendable {
    /// `HELLO <name> [key=<secret>]`: take a name; the reply carries the token for `RESUME`. With a key,
    /// an unclaimed name is claimed, and a claimed name is taken only with its key.
    case hello(name: String, key: String? = nil)
    /// `RESUME <token>`: take back a seat kept after a drop.
    case resume(token: String)
    /// `ROOMS`: list the public rooms.
    case rooms
    /// `JOIN <room> [<game>] [<option>=<value> ...]`: join a room, creating it if needed.
    case join(room: String, game: GameKind?, options: [String: String])
    /// `LEAVE`: leave the room (or stop watching).
    case leave
    /// `STATE`: the room's snapshot again.
    case state
    /// `CHOOSE <card> ... [@<rev>]`: claim a set (SET) or turn a card (Matchismo).
    case choose(picks: [Pick], revision: Int?)
    /// `HINT`: one card of a valid claim.
    case hint
    /// `NEW [<option>=<value> ...]`: start a new game (or vote for one).
    case new(options: [String: String])
    /// `HISTORY [<room>]`: the sets or choices of the game, and past games.
    case history(room: String?)
    /// `CHAT <text>`: say something to the room.
    case chat(text: String)
    /// `WATCH <room> [password=<secret>]`: follow a room as a spectator.
    case watch(room: String, password: String?)
    /// `PING`: check the connection.
    case ping
    /// `HELP`: list the commands.
    case help
    /// `QUIT`: say goodbye; the server closes after the reply.
    case quit
    /// `READY`: in a waiting room, say you are ready to start.
    case ready
    /// `START`: the host starts the countdown of a waiting room.
    case start
    /// `STATS [<name>]`: a name's totals and rating per mode (your own without a name).
    case stats(name: String?)
    /// `TOP [<mode>]`: the best ratings of a mode (`normal` without one).
    case top(mode: String?)
    /// `KICK <name> [<reason>]`: the host takes a player's seat away, saying why to the room.
    case kick(name: String, reason: String? = nil)
    /// `LOCK`: the host closes the room to new players.
    case lock
    /// `UNLOCK`: the host opens the room to new players again.
    case unlock
    /// `UNREADY`: in a waiting room, take back a `READY` (and stop a countdown under way).
    case unready
    /// `PAUSE`: stops a practice game's play and clock until `UNPAUSE`.
    case pause
    /// `UNPAUSE`: lets a paused practice game go on.
    case unpause
    /// `ALLOW <name>`: the host lets a kicked name, and the address kicked with it, back in.
    case allow(name: String)
    /// `RECORD <game-id>`: a finished game's record, as JSON.
    case record(id: String)
    /// `REMATCH`: after the game, offer to play again with the same players and options.
    case rematch
    /// `STANDINGS [csv|reset]`: the room's standings for the night, as lines or CSV, or (the host) reset.
    case standings(StandingsRequest)

    /// What `STANDINGS` asks for.
    public enum StandingsRequest: String, Equatable, Sendable {
        /// `STANDINGS`: the `STANDING` lines.
        case show = ""
        /// `STANDINGS csv`: the same as CSV lines.
        case csv
        /// `STANDINGS reset`: the host starts the night's standings again.
        case reset
    }

    /// One card named in a `CHOOSE`.
    public enum Pick: Equatable, Sendable {
        /// A board position, `a` being 0.
        case position(Int)
        /// A card code as typed, parsed by the room's game (a SET code or a playing card).
        case code(String)
    }

    /// The verb, as the reply's final line names it.
    public var verb: Verb {
        switch self {
        case .hello: return .hello
        case .resume: return .resume
        case .rooms: return .rooms
        case .join: return .join
        case .leave: return .leave
        case .state: return .state
        case .choose: return .choose
        case .hint: return .hint
        case .new: return .new
        case .history: return .history
        case .chat: return .chat
        case .watch: return .watch
        case .ping: return .ping
        case .help: return .help
        case .quit: return .quit
        case .ready: return .ready
        case .start: return .start
        case .stats: return .stats
        case .top: return .top
        case .kick: return .kick
        case .lock: return .lock
        case .unlock: return .unlock
        case .unready: return .unready
        case .allow: return .allow
        case .record: return .record
        case .rematch: return .rematch
        case .standings: return .standings
        case .pause: return .pause
        case .unpause: return .unpause
        }
    }
}

/// The games a room can host.
public enum GameKind: String, Sendable, CaseIterable {
    case set
    case matchismo
}
