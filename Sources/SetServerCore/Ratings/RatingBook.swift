import Foundation
import SetGame
import SetProtocol

/// Every name's totals and rating, per mode (each SET mode, then `matchismo`), kept
/// across games and, through the journal, across restarts.
///
/// Ratings follow Set with Friends' formula over the players seated at `OVER`: Qᵢ = 10^(Rᵢ/800),
/// Eᵢ = Qᵢ/ΣQ, Rᵢ′ = Rᵢ + K(Sᵢ − Eᵢ), with Sᵢ the player's share of the game's sets and one K for the
/// game, the mean of each player's max(256/(1 + games/20), 64) over the games played before this one (so
/// a game's rating changes sum to zero). Shared by the core and its rooms, like the archive.
final class RatingBook {
    /// One name's record in one mode.
    struct Entry: Equatable, Sendable {
        /// The rating, unrounded (the journal keeps its exact bits, so a restart changes nothing).
        var rating = RatingBook.startingRating
        var games = 0
        var wins = 0
        var sets = 0
        var wrong = 0
        var stale = 0
    }

    /// What one seated player did in a finished game.
    struct Result {
        var name: String
        var sets: Int
        var wrong: Int
        var stale: Int
        var isWinner: Bool
    }

    /// A name never rated starts here.
    static let startingRating = 1500.0
    /// How many names `TOP` lists.
    static let topCount = 10
    /// The modes a rating is kept for, in the order `STATS` lists them.
    static let modes = SetMode.allCases.map(\.rawValue) + ["matchismo"]

    private(set) var entries: [String: [String: Entry]] = [:]
    /// Each name's rating gains in each mode within an hour of its latest, oldest first, with the time
    /// of the game that brought each (Unix seconds, as journaled).
    private(set) var gains: [String: [String: [(time: Double, amount: Double)]]] = [:]

    /// Most rating a name may gain in one mode within an hour (lichess bounds farming likewise): a
    /// strong player gains about 30 a game, so an evening's honest play never meets it, while a pair of
    /// accounts trading wins cannot climb `TOP` faster than this.
    static let hourlyGainLimit = 200.0
    static let gainWindow = 3600.0

    /// Notes that `name` gained `amount` in `mode` from a game that ended at `time`, forgetting gains
    /// more than an hour older than it.
    func noteGain(_ name: String, mode: String, _ amount: Double, at time: Double) {
        var list = gains[name]?[mode] ?? []
        list.append((time, amount))
        list.removeAll { $0.time <= time - Self.gainWindow }
        gains[name, default: [:]][mode] = list
    }

    /// What `name` may still gain in `mode` from a game ending at `time`.
    func gainAllowed(_ name: String, mode: String, at time: Double) -> Double {
        let recent = (gains[name]?[mode] ?? []).filter { $0.time > time - Self.gainWindow && $0.time <= time }
        return max(0, Self.hourlyGainLimit - recent.reduce(0) { $0 + $1.amount })
    }

    /// The record of `name` in `mode`, if they have one.
    func entry(_ name: String, mode: String) -> Entry? { entries[name]?[mode] }

    /// Sets a record, as a journal record says it.
    func set(_ name: String, mode: String, _ entry: Entry) { entries[name, default: [:]][mode] = entry }

    /// The ratings after a game, in `players`' order: `ratings` before, `games` played before, and each
    /// player's share of the sets. One player, or no sets, changes nothing.
    ///
    /// The game has one K, the mean of its players' (each K = max(256/(1 + games/20), 64)): the shares
    /// and the expectations each sum to one, so with one K what some gain the others lose exactly. A K
    /// per player, as Set with Friends has it, lets a newcomer's large K print rating from nothing.
    static func rated(_ ratings: [Double], games: [Int], shares: [Double]) -> [Double] {
        guard ratings.count >= 2, shares.reduce(0, +) > 0 else { return ratings }
        let q = ratings.map { pow(10, $0 / 800) }
        let total = q.reduce(0, +)
        let k = games.map { max(256 / (1 + Double($0) / 20), 64) }.reduce(0, +) / Double(games.count)
        return ratings.indices.map { i in ratings[i] + k * (shares[i] - q[i] / total) }
    }

    /// Adds a finished game in `mode` (its ratings changed only if `isRated`: see ``isRealGame``);
    /// returns the records that changed, in `results`' order.
    ///
    /// A gain is cut to what the name may still gain this hour (``hourlyGainLimit``, counted back from
    /// `time`, the game's end); `gained` gets each gain kept, to be journaled.
    func record(
        _ results: [Result], mode: String, isRated: Bool = true, at time: Double,
        gained: (String, Double) -> Void = { _, _ in }
    ) -> [(name: String, entry: Entry)] {
        let before = results.map { entries[$0.name]?[mode] ?? Entry() }
        let totalSets = results.reduce(0) { $0 + $1.sets }
        let shares = results.map { totalSets > 0 ? Double($0.sets) / Double(totalSets) : 0 }
        var ratings =
            isRated
            ? Self.rated(before.map(\.rating), games: before.map(\.games), shares: shares)
            : before.map(\.rating)
        for (i, result) in results.enumerated() where ratings[i] > before[i].rating {
            let gain = min(ratings[i] - before[i].rating, gainAllowed(result.name, mode: mode, at: time))
            ratings[i] = before[i].rating + gain
            if gain > 0 {
                noteGain(result.name, mode: mode, gain, at: time)
                gained(result.name, gain)
            }
        }
        var changed: [(name: String, entry: Entry)] = []
        for (i, result) in results.enumerated() {
            var entry = before[i]
            entry.rating = ratings[i]
            entry.games += 1
            entry.wins += result.isWinner ? 1 : 0
            entry.sets += result.sets
            entry.wrong += result.wrong
            entry.stale += result.stale
            set(result.name, mode: mode, entry)
            changed.append((result.name, entry))
        }
        return changed
    }

    /// Scores `loser`, who left a game before its end, as a loss against the others in `results` at that
    /// moment: their share of the game is nothing, and the others' shares are their sets (equal without
    /// any). Only the loser's figures change (the others are rated when the game ends). Returns them.
    func forfeit(_ results: [Result], loser: String, mode: String) -> Entry? {
        guard let index = results.firstIndex(where: { $0.name == loser }), results.count >= 2 else {
            return nil
        }
        let before = results.map { entries[$0.name]?[mode] ?? Entry() }
        let others = results.indices.filter { $0 != index }
        let otherSets = others.reduce(0) { $0 + results[$1].sets }
        let shares = results.indices.map { i in
            i == index
                ? 0 : otherSets > 0 ? Double(results[i].sets) / Double(otherSets) : 1 / Double(others.count)
        }
        let ratings = Self.rated(before.map(\.rating), games: before.map(\.games), shares: shares)
        var entry = before[index]
        entry.rating = ratings[index]
        entry.games += 1
        entry.sets += results[index].sets
        entry.wrong += results[index].wrong
        entry.stale += results[index].stale
        set(loser, mode: mode, entry)
        return entry
    }

    /// Fewest players who each took a set for a game to be rated: a game against nobody, or against a
    /// partner who only sat there, proves nothing.
    static let realGamePlayers = 2
    /// Fewest sets (matches) taken in all for a game to be rated.
    static let realGameSets = 5
    /// Shortest rated game, deal to last set, in milliseconds: a scripted game of seconds is farming.
    static let realGameMilliseconds = 60_000

    /// Whether a game whose players took `sets` (one count per player) and lasted `milliseconds` is a
    /// real game, the only kind that changes ratings (lichess likewise rates no aborted game).
    static func isRealGame(sets: [Int], milliseconds: Int) -> Bool {
        sets.filter { $0 > 0 }.count >= realGamePlayers && sets.reduce(0, +) >= realGameSets
            && milliseconds >= realGameMilliseconds
    }

    /// The `RATING` lines of `name`, one per mode played.
    func lines(of name: String) -> [ServerLine] {
        Self.modes.compactMap { mode in entries[name]?[mode].map { .rating(Self.figures(name, mode, $0)) } }
    }

    /// The `TOP` lines of `mode`: best rating first, then more games, then name.
    func top(_ mode: String) -> [ServerLine] {
        let rated = entries.compactMap { name, modes in modes[mode].map { (name, $0) } }
        let ranked = rated.sorted { a, b in
            if a.1.rating != b.1.rating { return a.1.rating > b.1.rating }
            if a.1.games != b.1.games { return a.1.games > b.1.games }
            return a.0 < b.0
        }
        return ranked.prefix(Self.topCount).enumerated().map { i, row in
            .top(rank: i + 1, name: row.0, rating: Int(row.1.rating.rounded()), games: row.1.games)
        }
    }

    static func figures(_ name: String, _ mode: String, _ entry: Entry) -> RatingEntry {
        RatingEntry(
            name: name, mode: mode, rating: Int(entry.rating.rounded()), games: entry.games, wins: entry.wins,
            sets: entry.sets, wrong: entry.wrong, stale: entry.stale)
    }
}
