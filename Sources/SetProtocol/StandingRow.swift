/// One player's line of a room's standings for the night: `STANDING <place> <name> points=<n> wins=<n>
/// games=<n> sets=<n> best=<ms>` (`best=-` before a set), after a game's score sheet and in the
/// `STANDINGS` reply.
public struct StandingRow: Equatable, Sendable {
    /// The place, from 1; players equal on points and wins share one.
    public var place: Int
    /// The player.
    public var name: String
    /// Points by finishing place, added up over the night's games.
    public var points: Int
    /// Games finished first.
    public var wins: Int
    /// Games played to the end.
    public var games: Int
    /// Sets taken over the night (Matchismo: matches).
    public var sets: Int
    /// The fastest set of the night in milliseconds, `nil` before one.
    public var bestMs: Int?

    /// Creates a row.
    public init(place: Int, name: String, points: Int, wins: Int, games: Int, sets: Int, bestMs: Int?) {
        (self.place, self.name, self.points, self.wins) = (place, name, points, wins)
        (self.games, self.sets, self.bestMs) = (games, sets, bestMs)
    }

    /// The `STANDING` line.
    public var text: String {
        "STANDING \(place) \(name) points=\(points) wins=\(wins) games=\(games) sets=\(sets) "
            + "best=\(bestMs.map(String.init) ?? "-")"
    }
}
