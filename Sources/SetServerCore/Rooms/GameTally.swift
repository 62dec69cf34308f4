import SetProtocol

/// What one game's score sheet is made of: per player, the sets, wrong and stale claims and how long
/// each set took to find; and when each card on the board arrived there.
///
/// Times are whole milliseconds of wall-clock time, as the journal keeps them, so a game replayed from
/// the journal after a restart has exactly the figures it had live.
public struct GameTally: Equatable, Sendable {
    /// One player's figures so far.
    public struct Player: Equatable, Sendable {
        /// Sets taken (Matchismo: matches).
        public var sets = 0
        /// Claims that were not a set (Matchismo: mismatches).
        public var wrong = 0
        /// Claims too late for the board (`STALE`).
        public var stale = 0
        /// How long each set took, in milliseconds, in the order they were taken (SET only).
        public var setTimes: [Int] = []

        /// Creates figures.
        public init(sets: Int = 0, wrong: Int = 0, stale: Int = 0, setTimes: [Int] = []) {
            self.sets = sets
            self.wrong = wrong
            self.stale = stale
            self.setTimes = setTimes
        }
    }

    /// Figures by player name.
    public var players: [String: Player] = [:]
    /// The millisecond (Unix time) each card now on the board, or in the chain, arrived there, by code.
    public var arrivals = CardArrivals()

    /// Creates an empty tally.
    public init(players: [String: Player] = [:], arrivals: CardArrivals = CardArrivals()) {
        self.players = players
        self.arrivals = arrivals
    }

    /// Unix seconds as the whole milliseconds the journal keeps.
    static func milliseconds(_ time: Double) -> Int { Int((time * 1000).rounded()) }

    /// The board is now `codes` (and the chain cards) at `time`: cards already there keep their time.
    mutating func noteBoard(_ codes: [String], at time: Double) {
        arrivals = arrivals.keeping(codes, arrivingAt: Self.milliseconds(time))
    }

    /// `name` took the set `codes` at `time`: its time runs from the arrival of its last card.
    mutating func noteSet(by name: String, cards codes: [String], at time: Double) {
        let now = Self.milliseconds(time)
        let shown = codes.compactMap { arrivals[$0] }.max() ?? now
        players[name, default: Player()].sets += 1
        players[name, default: Player()].setTimes.append(max(0, now - shown))
    }

    /// `name` made a Matchismo match.
    mutating func noteMatch(by name: String) { players[name, default: Player()].sets += 1 }

    /// `name` claimed cards that were not a set (or turned a mismatch).
    mutating func noteWrong(by name: String) { players[name, default: Player()].wrong += 1 }

    /// `name`'s claim came too late.
    mutating func noteStale(by name: String) { players[name, default: Player()].stale += 1 }

    /// `name`'s line of the score sheet.
    func entry(for name: String) -> ScoreSheetEntry {
        let player = players[name] ?? Player()
        let times = player.setTimes
        let mean = times.isEmpty ? nil : Int((Double(times.reduce(0, +)) / Double(times.count)).rounded())
        return ScoreSheetEntry(
            name: name, sets: player.sets, wrong: player.wrong, stale: player.stale, fastest: times.min(),
            mean: mean)
    }
}
