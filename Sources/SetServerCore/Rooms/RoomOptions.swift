import SetDigest
import SetGame
import SetProtocol

/// The game a room plays and the options it was created with.
struct RoomOptions: Equatable, Sendable {
    var game: GameKind
    var set = SetGame.Options()
    var hintsEnabled = true
    var matchCount = 2
    /// A private room's password, as a salted PBKDF2 hash (never the password): such a room is not
    /// listed by `ROOMS`, and joining or watching it needs the password. Never shown in `OPTIONS`.
    var password: PasswordHash?
    /// `start=ready`: each game waits for its players' `READY` (or the host's `START`) and a countdown;
    /// `start=now` (the default) deals at once, as nc sessions expect.
    var startsWhenReady = false

    /// The modes `mode=` takes, as its `BADOPTION` lists them.
    static let modeNames = SetMode.offered.map(\.rawValue).joined(separator: ", ")

    /// Most sets a first-to-N game may ask for: more than any deck's game holds is no target.
    static let maximumSetsToWin = 99
    /// Longest time limit, in minutes: two hours is a whole evening's game.
    static let maximumMinutes = 120

    /// Longest password, so a password fits comfortably in a command line.
    static let maximumPasswordLength = 64

    /// The options as `OPTIONS` lists them, in a fixed order; `start=ready` only when it is set, so a
    /// room made as before lists what it listed before.
    var pairs: [(String, String)] {
        gamePairs + (startsWhenReady ? [("start", "ready")] : [])
    }

    /// The options of the game itself.
    private var gamePairs: [(String, String)] {
        switch game {
        case .set:
            // Practice and timing are listed only when set, so a room made as before lists what it did.
            return [
                ("mode", set.mode.rawValue), ("penalty", "\(set.wrongClaimPenalty)"),
                ("hints", hintsEnabled ? "on" : "off"),
            ] + (set.isPractice ? [("practice", "on")] : [])
                + (set.setsToWin.map { [("sets", "\($0)")] } ?? [])
                + (set.timeLimit.map { [("minutes", "\($0.components.seconds / 60)")] } ?? [])
        case .matchismo:
            return [("n", "\(matchCount)")]
        }
    }

    /// The options as the journal keeps them: the listed ones, the game, and the password's hash.
    var journalPairs: [(String, String)] {
        // Every room keeps its pairs for its snapshots; most rooms have a game's default options, and
        // those share one array instead of holding a copy each (16 bytes a seated player at 10 a room).
        switch self {
        case Self.defaultSet: Self.defaultSetPairs
        case Self.defaultMatchismo: Self.defaultMatchismoPairs
        default: madeJournalPairs
        }
    }

    private static let defaultSet = RoomOptions(game: .set)
    private static let defaultMatchismo = RoomOptions(game: .matchismo)
    private static let defaultSetPairs = defaultSet.madeJournalPairs
    private static let defaultMatchismoPairs = defaultMatchismo.madeJournalPairs

    private var madeJournalPairs: [(String, String)] {
        [("game", game.rawValue)] + pairs + (password.map { [("password-hash", $0.text)] } ?? [])
    }

    /// Applies `options` (from `JOIN` or `NEW`) on top of these, refusing unknown names and values; a
    /// `password` is kept as `sealing` hashes it (without `sealing`, a `password` is refused).
    func applying(
        _ options: [String: String], verb: Verb?, sealing: ((String) -> PasswordHash)? = nil
    ) -> Result<RoomOptions, ProtocolError> {
        var result = self
        for (key, value) in options.sorted(by: { $0.key < $1.key }) {
            func bad(_ allowed: String) -> Result<RoomOptions, ProtocolError> {
                let shown = TextRules.sanitized(value.prefix(20))
                return .failure(ProtocolError(verb, .badOption, "\(key)=\(shown): \(key) is \(allowed)"))
            }
            switch (game, key) {
            case (_, "start"):
                guard value == "now" || value == "ready" else { return bad("now or ready") }
                result.startsWhenReady = value == "ready"
            case (_, "password") where sealing != nil:
                guard value.utf8.count <= Self.maximumPasswordLength else {
                    return bad("at most \(Self.maximumPasswordLength) bytes")
                }
                result.password = sealing?(value)
            case (.set, "mode"):
                guard let mode = SetMode(rawValue: value.lowercased()), mode.isOffered else {
                    return bad(Self.modeNames)
                }
                result.set.mode = mode
            case (.set, "penalty"):
                guard value == "0" || value == "1" else { return bad("0 or 1") }
                result.set.wrongClaimPenalty = Int(value)!
            case (.set, "practice"):
                guard value == "on" || value == "off" else { return bad("on or off") }
                result.set.isPractice = value == "on"
            case (.set, "sets"):
                // First to N sets: a game of 81 cards has at most 27 sets, and larger decks more.
                if value == "off" {
                    result.set.setsToWin = nil
                } else {
                    guard let n = Int(value), (1...Self.maximumSetsToWin).contains(n) else {
                        return bad("1 to \(Self.maximumSetsToWin), or off")
                    }
                    result.set.setsToWin = n
                }
            case (.set, "minutes"):
                if value == "off" {
                    result.set.timeLimit = nil
                } else {
                    guard let m = Int(value), (1...Self.maximumMinutes).contains(m) else {
                        return bad("1 to \(Self.maximumMinutes), or off")
                    }
                    result.set.timeLimit = .seconds(60 * m)
                }
            case (.set, "hints"):
                guard value == "on" || value == "off" else { return bad("on or off") }
                result.hintsEnabled = value == "on"
            case (.matchismo, "n"):
                guard let n = Int(value), (2...MatchismoGame.boardSize).contains(n) else {
                    return bad("2 to \(MatchismoGame.boardSize)")
                }
                result.matchCount = n
            default:
                let extra = game == .set ? ["practice", "sets", "minutes"] : []
                let names = (gamePairs.map(\.0) + extra + ["start"]).filter { !$0.isEmpty }
                    .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.joined(
                        separator: ", ")
                let shown = TextRules.sanitized(key.prefix(20))
                return .failure(
                    ProtocolError(
                        verb, .badOption, "unknown option '\(shown)' for \(game.rawValue); options: \(names)")
                )
            }
        }
        return .success(result)
    }
}

extension RoomOptions {
    /// Rebuilds options from ``journalPairs`` of room `room`. A journal written before passwords were
    /// hashed holds a room's password in clear (`password`): it is hashed here, with a salt derived from
    /// the room's name so that every record of the room (and its archived games) hashes it alike and a
    /// replay makes the same hash every time (it may read nothing but the journal).
    init?(journalPairs: [(String, String)], room: String) {
        var fields = Dictionary(journalPairs, uniquingKeysWith: { _, last in last })
        var password: PasswordHash?
        if let text = fields.removeValue(forKey: "password-hash") {
            guard let hash = PasswordHash(text: text) else { return nil }
            password = hash
        }
        if let clear = fields.removeValue(forKey: "password") {
            password = Self.legacyHash(of: clear, room: room)
        }
        guard let name = fields.removeValue(forKey: "game"), let game = GameKind(rawValue: name),
            case .success(var options) = RoomOptions(game: game).applying(fields, verb: nil)
        else { return nil }
        options.password = password
        self = options
    }

    /// The hash of a password an older journal kept in clear, in room `room` (see
    /// ``init(journalPairs:room:)``): its salt is the first 16 bytes of SHA-1 of the room's name.
    static func legacyHash(of clear: String, room: String) -> PasswordHash {
        let salt = Array(SHA1.digest(Array("setd room password salt \(room)".utf8)).prefix(16))
        return PasswordHash(secret: clear, salt: salt, iterations: legacyIterations)
    }

    /// Iterations of a password hashed from an older journal: fixed, so a replay always makes the same.
    static let legacyIterations = 10_000
}
