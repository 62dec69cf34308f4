import SetGame
import SetProtocol

/// The game record (`RECORD <id>`): what the room notes while a game is played, and the record it makes
/// when the game ends. Everything here is fed by the live path and by the journal's replay alike, so a
/// restored room makes the same record.
extension Room {
    /// Milliseconds from this game's deal to `time`, never negative.
    private func offset(_ time: Double) -> Int { max(0, Int(((time - startedAt) * 1000).rounded())) }

    /// Notes a claim for the record. `time` is `nil` for a stale claim, whose time the journal does not
    /// keep: it takes the time of the event before it, so the record replays to the same bytes.
    func noteClaimForRecord(by player: String, cards: [String]?, result: String, at time: Double?) {
        let ms = time.map(offset) ?? (recordEvents.last?.ms ?? 0)
        recordEvents.append(
            GameRecord.Event(ms: ms, type: "claim", name: player, cards: cards, result: result))
    }

    /// The record of the game that just ended.
    func makeRecord(sheet: [ScoreSheetEntry], duration: Int) -> GameRecord {
        var deck: [String] = []
        var events = [GameRecord.Event(ms: 0, type: "deal")]
        switch game {
        case .set(let setGame):
            // The deal is rebuilt from the room's seed: the same order the game was dealt in.
            if case .set(let fresh) = Self.makeGame(
                options, seed: Self.gameSeed(seed, index: gameIndex), firstRevision: 1)
            {
                deck = (fresh.state.board + fresh.state.deck).map(\.code)
            }
            let noted = recordEvents.filter { $0.result == "set" }.count
            if noted == setGame.takenSets.count {
                events += recordEvents
            } else {
                // Restored from a snapshot mid-game: the sets are in the game, the failed claims before
                // the snapshot are gone.
                for (i, taken) in setGame.takenSets.enumerated() {
                    let ms = i < historyTimes.count ? offset(historyTimes[i]) : 0
                    events.append(
                        GameRecord.Event(
                            ms: ms, type: "claim", name: taken.player, cards: taken.cards.map(\.code),
                            result: "set"))
                }
            }
        case .matchismo(let matchismo):
            for (i, choice) in matchismo.history.enumerated() {
                let ms = i < historyTimes.count ? offset(historyTimes[i]) : 0
                events.append(
                    GameRecord.Event(ms: ms, type: "choose", name: choice.player, cards: [choice.text]))
            }
        }
        let scores: [String: Int]
        if case .over(let ranked) = overLine {
            scores = Dictionary(ranked.map { ($0.name, $0.score) }, uniquingKeysWith: { first, _ in first })
        } else {
            scores = [:]
        }
        let rows = sheet.map { entry in
            GameRecord.SheetRow(
                name: entry.name, score: scores[entry.name] ?? 0, sets: entry.sets, wrong: entry.wrong,
                stale: entry.stale, fastestMs: entry.fastest, meanMs: entry.mean)
        }
        let shownOptions = options.journalPairs.filter { $0.0 != "password-hash" }
        return GameRecord(
            id: GameRecord.makeID(room: name, index: gameIndex, startedAt: startedAt), room: name,
            kind: options.game.rawValue,
            options: Dictionary(shownOptions, uniquingKeysWith: { _, last in last }),
            startedAtMs: Int64((startedAt * 1000).rounded()), durationMs: duration, deck: deck,
            players: seats.map(\.name), events: events + [GameRecord.Event(ms: duration, type: "over")],
            sheet: rows)
    }
}
