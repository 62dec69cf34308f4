import SetGame
import SetProtocol

/// The game a room plays and the options it was created with.
struct RoomOptions: Equatable, Sendable {
    var game: GameKind
    var set = SetGame.Options()
    var hintsEnabled = true
    var matchCount = 2
    /// A private room's password: such a room is not listed by `ROOMS`, and joining or watching it needs
    /// the password. Never shown in `OPTIONS`.
    var password: String?
    /// `start=ready`: each game waits for its players' `READY` (or the host's `START`) and a countdown;
    /// `start=now` (the default) deals at once, as nc sessions expect.
    var startsWhenReady = false

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
            return [
                ("mode", set.mode.rawValue), ("penalty", "\(set.wrongClaimPenalty)"),
                ("hints", hintsEnabled ? "on" : "off"),
            ]
        case .matchismo:
            return [("n", "\(matchCount)")]
        }
    }

    /// The options as the journal keeps them: the listed ones, the game, and the password.
    var journalPairs: [(String, String)] {
        [("game", game.rawValue)] + pairs + (password.map { [("password", $0)] } ?? [])
    }

    /// Applies `options` (from `JOIN` or `NEW`) on top of these, refusing unknown names and values.
    func applying(_ options: [String: String], verb: Verb?) -> Result<RoomOptions, ProtocolError> {
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
            case (_, "password"):
                guard value.utf8.count <= Self.maximumPasswordLength else {
                    return bad("at most \(Self.maximumPasswordLength) bytes")
                }
                result.password = value
            case (.set, "mode"):
                // Only the modes the protocol and the clients can show yet (SetMode.offered).
                guard let mode = SetMode(rawValue: value.lowercased()), mode.isOffered else {
                    return bad("normal, junior, chain or ultra")
                }
                result.set.mode = mode
            case (.set, "penalty"):
                guard value == "0" || value == "1" else { return bad("0 or 1") }
                result.set.wrongClaimPenalty = Int(value)!
            case (.set, "hints"):
                guard value == "on" || value == "off" else { return bad("on or off") }
                result.hintsEnabled = value == "on"
            case (.matchismo, "n"):
                guard let n = Int(value), (2...MatchismoGame.boardSize).contains(n) else {
                    return bad("2 to \(MatchismoGame.boardSize)")
                }
                result.matchCount = n
            default:
                let names = (gamePairs.map(\.0) + ["start"]).joined(separator: ", ")
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
    /// Rebuilds options from ``journalPairs``.
    init?(journalPairs: [(String, String)]) {
        var fields = Dictionary(journalPairs, uniquingKeysWith: { _, last in last })
        guard let name = fields.removeValue(forKey: "game"), let game = GameKind(rawValue: name),
            case .success(let options) = RoomOptions(game: game).applying(fields, verb: nil)
        else { return nil }
        self = options
    }
}
