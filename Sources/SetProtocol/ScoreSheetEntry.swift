/// One player's line of a game's score sheet: `STATS <name> sets=<n> wrong=<n> stale=<n> fastest=<ms>
/// mean=<ms>`, sent after `OVER` and kept by `HISTORY`.
public struct ScoreSheetEntry: Equatable, Sendable {
    /// The player.
    public var name: String
    /// Sets taken (Matchismo: matches).
    public var sets: Int
    /// Claims that were not a set (Matchismo: mismatches).
    public var wrong: Int
    /// Claims that came too late (`STALE`).
    public var stale: Int
    /// The quickest set, in milliseconds from the moment all its cards were on the board to the claim;
    /// `nil` without a set (and always in Matchismo).
    public var fastest: Int?
    /// The mean time of the player's sets, in milliseconds (rounded); `nil` without a set.
    public var mean: Int?

    /// Creates an entry.
    public init(name: String, sets: Int, wrong: Int, stale: Int, fastest: Int?, mean: Int?) {
        self.name = name
        self.sets = sets
        self.wrong = wrong
        self.stale = stale
        self.fastest = fastest
        self.mean = mean
    }

    /// The fields after `STATS` (and after `HISTORY GAME <k> STATS`).
    public var fields: String {
        "\(name) sets=\(sets) wrong=\(wrong) stale=\(stale) fastest=\(fastest.map(String.init) ?? "-") "
            + "mean=\(mean.map(String.init) ?? "-")"
    }

    /// The `STATS` line.
    public var text: String { "STATS " + fields }
}

/// A name's totals and rating in one mode: `RATING <name> <mode> rating=<r> games=<n> wins=<n> sets=<n>
/// wrong=<n> stale=<n>`, a data line of the `STATS` reply.
public struct RatingEntry: Equatable, Sendable {
    /// The player's name.
    public var name: String
    /// `normal`, `junior`, `chain`, `ultra` or `matchismo`.
    public var mode: String
    /// The rating, rounded to an integer.
    public var rating: Int
    /// Games finished while seated.
    public var games: Int
    /// Games finished first (ties included) with at least one other player.
    public var wins: Int
    /// Sets taken in all those games.
    public var sets: Int
    /// Wrong claims.
    public var wrong: Int
    /// Stale claims.
    public var stale: Int

    /// Creates an entry.
    public init(
        name: String, mode: String, rating: Int, games: Int, wins: Int, sets: Int, wrong: Int, stale: Int
    ) {
        self.name = name
        self.mode = mode
        self.rating = rating
        self.games = games
        self.wins = wins
        self.sets = sets
        self.wrong = wrong
        self.stale = stale
    }

    /// The `RATING` line.
    public var text: String {
        "RATING \(name) \(mode) rating=\(rating) games=\(games) wins=\(wins) sets=\(sets) wrong=\(wrong) "
            + "stale=\(stale)"
    }
}
