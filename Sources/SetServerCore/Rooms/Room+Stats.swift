import SetGame
import SetProtocol

extension Room {
    /// Counts a Matchismo choice on the score sheet: a match is a "set", a group that does not match a
    /// wrong claim; turning a first card is neither.
    func noteChoice(_ choice: MatchismoGame.Choice, by player: String) {
        if choice.isMatch {
            tally.noteMatch(by: player)
        } else if !choice.scored.isEmpty {
            tally.noteWrong(by: player)
        }
    }

    /// The game's length in milliseconds: from the deal to its last set or choice.
    var durationMilliseconds: Int {
        GameTally.milliseconds(historyTimes.last ?? startedAt) - GameTally.milliseconds(startedAt)
    }

    /// The score sheet, one entry per seated player in `OVER`'s order.
    var scoreSheet: [ScoreSheetEntry] {
        guard case .over(let scores) = overLine else { return [] }
        return scores.map { tally.entry(for: $0.name) }
    }

    /// The rating mode of the game: the SET mode, or `matchismo`.
    var ratingMode: String { setOptions?.mode.rawValue ?? "matchismo" }

    /// The game just ended: archives it, rates it, logs it; returns the lines that tell the room
    /// (`ROOM`, `OVER`, the `STATS` lines and `DURATION`).
    func finishGame() -> [ServerLine] {
        let (over, sheet, duration) = settleGame(end: "over")
        addToStandings()
        return [roomLine, over] + sheet.map { .stats($0) } + [.duration(duration)] + standingsLines
    }

    /// A game ended by a `NEW` vote before its end: archived with its sheet, and rated, as it stood, so
    /// a vote cannot wipe a game someone was winning. A game where nothing was taken leaves no trace.
    func abandonGame() {
        guard !isOver, !isWaiting, !historyTimes.isEmpty else { return }
        _ = settleGame(end: "vote")
        note("game-abandoned", ("index", "\(gameIndex)"))
    }

    /// `name` is leaving the game before its end (`LEAVE`, `QUIT`, another room, or their grace running
    /// out; not a kick, the host's doing): if the game is a real one so far, it is a loss for them,
    /// scored now, so leaving cannot dodge a result. Their seat is gone at the end, so it is not scored
    /// twice.
    func forfeit(_ name: String) {
        // A practice game puts no rating at stake: leaving it costs nothing.
        guard !outbox.isReplaying, options.password == nil, options.set.isRated || options.game != .set,
            !isOver, !isWaiting,
            seats.contains(where: { $0.name == name })
        else { return }
        let sheet = seats.map { tally.entry(for: $0.name) }
        guard RatingBook.isRealGame(sets: sheet.map(\.sets), milliseconds: durationMilliseconds) else {
            return
        }
        let results = sheet.map { entry in
            RatingBook.Result(
                name: entry.name, sets: entry.sets, wrong: entry.wrong, stale: entry.stale, isWinner: false)
        }
        guard let entry = ratings.forfeit(results, loser: name, mode: ratingMode) else { return }
        record(
            .rating(
                name: name, mode: ratingMode, rating: entry.rating.bitPattern, games: entry.games,
                wins: entry.wins, sets: entry.sets, wrong: entry.wrong, stale: entry.stale))
        note("forfeit", ("name", name), ("rating", "\(Int(entry.rating.rounded()))"))
    }

    /// Archives, rates and logs the game as it stands; returns its `OVER` line, sheet and length.
    private func settleGame(end: String) -> (over: ServerLine, sheet: [ScoreSheetEntry], duration: Int) {
        let over = overLine
        let sheet = scoreSheet
        let duration = durationMilliseconds
        if case .over(let ranked) = over {
            archiveGame(ranked: ranked, sheet: sheet, duration: duration, end: end)
        }
        if case .over(let scores) = over {
            let best = scores.first?.score
            let results = sheet.map { entry in
                RatingBook.Result(
                    name: entry.name, sets: entry.sets, wrong: entry.wrong, stale: entry.stale,
                    isWinner: scores.count >= 2 && scores.first { $0.name == entry.name }?.score == best)
            }
            // The journal keeps the result, not the arithmetic: a replay sets the same figures. A private
            // game is unrated: its results would show in everyone's STATS and TOP, telling of the room.
            if !outbox.isReplaying && options.password == nil {
                // A practice game counts as a game, but changes no rating.
                let isReal =
                    RatingBook.isRealGame(sets: sheet.map(\.sets), milliseconds: duration)
                    && (options.game != .set || options.set.isRated)
                // To the millisecond, as the journal keeps it, so a replay bounds the same gains.
                let endedAt = ((historyTimes.last ?? startedAt) * 1000).rounded() / 1000
                let changed = ratings.record(results, mode: ratingMode, isRated: isReal, at: endedAt) {
                    record(.gain(name: $0, mode: ratingMode, time: endedAt, amount: $1.bitPattern))
                }
                for (player, entry) in changed {
                    record(
                        .rating(
                            name: player, mode: ratingMode, rating: entry.rating.bitPattern,
                            games: entry.games,
                            wins: entry.wins, sets: entry.sets, wrong: entry.wrong, stale: entry.stale))
                }
            }
            note(
                "game-over", ("index", "\(gameIndex)"), ("duration-ms", "\(duration)"),
                ("scores", scores.map { "\($0.name):\($0.score)" }.joined(separator: " ")))
        }
        return (over, sheet, duration)
    }
}
