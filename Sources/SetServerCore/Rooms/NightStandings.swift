import SetProtocol

/// A room's standings for the night (`STANDINGS`): every game played out in the room since the host
/// last reset them, added up per player.
///
/// Points go by finishing place, 3 for first, 2 for second, 1 for third, as a pub quiz or a board-game
/// night scores a series: it rewards winning without making one lucky game decide the night. Tied
/// players share the better place (two first places each get 3, and the next player is third). A game
/// needs two players for places: alone, a player's games and sets still count, but no points or win.
public struct NightStandings: Equatable, Sendable {
    /// Points by finishing place, first place first; places past the end get none.
    public static let placePoints = [3, 2, 1]

    /// One player's night so far.
    public struct Player: Equatable, Sendable {
        /// Games played to the end in the room (seated at the end).
        public var games = 0
        /// Games finished first (ties count for each).
        public var wins = 0
        /// Points by finishing place.
        public var points = 0
        /// Sets taken (Matchismo: matches).
        public var sets = 0
        /// The fastest set of the night, in milliseconds (`nil` before one).
        public var bestMs: Int?

        /// Creates a player's figures.
        public init(games: Int = 0, wins: Int = 0, points: Int = 0, sets: Int = 0, bestMs: Int? = nil) {
            (self.games, self.wins, self.points, self.sets, self.bestMs) = (games, wins, points, sets, bestMs)
        }
    }

    /// Games added up since the last reset.
    public var games = 0
    /// Figures by player name.
    public var players: [String: Player] = [:]

    /// Creates standings.
    public init(games: Int = 0, players: [String: Player] = [:]) {
        self.games = games
        self.players = players
    }

    /// Whether nothing was added up yet.
    public var isEmpty: Bool { games == 0 && players.isEmpty }

    /// Adds a game that was played out: `ranked` is its final scores, best first, and `sheet` its score
    /// sheet.
    public mutating func add(ranked: [(name: String, score: Int)], sheet: [ScoreSheetEntry]) {
        games += 1
        let entries = Dictionary(sheet.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, player) in ranked.enumerated() {
            // The place of the first player with the same score: ties share the better place.
            let place = ranked.firstIndex { $0.score == player.score } ?? index
            var figures = players[player.name] ?? Player()
            figures.games += 1
            if ranked.count >= 2 {
                if place == 0 { figures.wins += 1 }
                if place < Self.placePoints.count { figures.points += Self.placePoints[place] }
            }
            if let entry = entries[player.name] {
                figures.sets += entry.sets
                if let fastest = entry.fastest { figures.bestMs = min(figures.bestMs ?? fastest, fastest) }
            }
            players[player.name] = figures
        }
    }

    /// The rows, best first: points, then wins, then sets, then the faster best time, then the name.
    public var rows: [StandingRow] {
        let sorted = players.sorted { a, b in
            let (x, y) = (a.value, b.value)
            if x.points != y.points { return x.points > y.points }
            if x.wins != y.wins { return x.wins > y.wins }
            if x.sets != y.sets { return x.sets > y.sets }
            if x.bestMs != y.bestMs { return (x.bestMs ?? .max) < (y.bestMs ?? .max) }
            return a.key < b.key
        }
        var rows: [StandingRow] = []
        for (index, (name, player)) in sorted.enumerated() {
            // Equal points and wins share a place.
            let place: Int
            if let last = rows.last, last.points == player.points, last.wins == player.wins {
                place = last.place
            } else {
                place = index + 1
            }
            rows.append(
                StandingRow(
                    place: place, name: name, points: player.points, wins: player.wins, games: player.games,
                    sets: player.sets, bestMs: player.bestMs))
        }
        return rows
    }

    /// The standings as CSV (RFC 4180, CRLF line ends left to the caller): a header, then one row per
    /// player, best first. Names are `[A-Za-z0-9_-]`, so no field needs quoting.
    public var csvLines: [String] {
        ["place,name,points,wins,games,sets,best_ms"]
            + rows.map { row in
                "\(row.place),\(row.name),\(row.points),\(row.wins),\(row.games),\(row.sets),"
                    + (row.bestMs.map(String.init) ?? "")
            }
    }
}
