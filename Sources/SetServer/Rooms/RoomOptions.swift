import SetGame
import SetProtocol

/// The game a room plays and the options it was created with.
struct RoomOptions: Equatable, Sendable {
    var game: GameKind
    var set = SetGame.Options()
    var hintsEnabled = true
    var matchCount = 2

    /// The options as `OPTIONS` lists them, in a fixed order.
    var pairs: [(String, String)] {
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

    /// Applies `options` (from `JOIN` or `NEW`) on top of these, refusing unknown names and values.
    func applying(_ options: [String: String], verb: String) -> Result<RoomOptions, ProtocolError> {
        var result = self
        for (key, value) in options.sorted(by: { $0.key < $1.key }) {
            func bad(_ allowed: String) -> Result<RoomOptions, ProtocolError> {
                let shown = TextRules.sanitized(value.prefix(20))
                return .failure(ProtocolError(verb, .badOption, "\(key)=\(shown): \(key) is \(allowed)"))
            }
            switch (game, key) {
            case (.set, "mode"):
                guard let mode = SetMode(rawValue: value.lowercased()) else {
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
                let names = pairs.map(\.0).joined(separator: ", ")
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
