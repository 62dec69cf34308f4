import SetGame
import SetProtocol

/// The game record (`RECORD <id>`): what the room notes while a game is played, and the record it makes
/// when the game ends. Everything here is fed by the live path and by the journal's replay alike, so a
/// restored room makes the same record: claims and choices from their own journal records (which hold
/// their times), everything else (joins, leaves, kicks, votes, stale claims) from an `event` record
/// written when it happened.
extension Room {
    /// Milliseconds from this game's deal to `time`, never negative.
    private func offset(_ time: Double) -> Int { max(0, Int(((time - startedAt) * 1000).rounded())) }

    /// Whether the current game is dealt and not over: what happens now belongs to its record.
    var isRecording: Bool { !isWaiting && !isOver }

    /// Notes a judged claim (a set or a wrong one) for the record, live and in replay alike.
    func noteClaimForRecord(by player: String, cards: [String], result: String, at time: Double) {
        appendRecordEvent(
            GameRecord.Event(ms: offset(time), type: "claim", name: player, cards: cards, result: result))
    }

    /// Notes a Matchismo choice for the record, live and in replay alike.
    func noteChoiceForRecord(_ choice: MatchismoGame.Choice, position: Int, at time: Double) {
        let card = matchismoGame.map {
            $0.slots.indices.contains(position) ? $0.slots[position].card.code : "?"
        }
        appendRecordEvent(
            GameRecord.Event(
                ms: offset(time), type: "choose", name: choice.player, cards: [choice.text],
                position: position,
                card: card))
    }

    /// Notes, live, something no other journal record times (a join, a leave, a kick, a vote, a stale
    /// claim) and journals it as an `event` record, which a replay appends as it is.
    func noteEvent(
        _ type: String, name: String, at time: Double, cards: [String]? = nil, result: String? = nil,
        by host: String? = nil, options: [String: String]? = nil
    ) {
        guard isRecording, !outbox.isReplaying else { return }
        let event = GameRecord.Event(
            ms: offset(time), type: type, name: name, cards: cards, result: result, by: host, options: options
        )
        appendRecordEvent(event)
        record(.recordEvent(room: self.name, event: event))
    }

    /// Adds an event to the record, or, past ``GameLogLimit/recordEvents``, counts it as omitted: the
    /// record keeps the game from its deal up to the limit. The journal still holds every event, so a
    /// replay counts the same.
    func appendRecordEvent(_ event: GameRecord.Event) {
        if recordEvents.count < outbox.gameLogLimit.recordEvents {
            if recordEvents.count == recordEvents.capacity {
                // Grown by half, not doubled: every room holds its record, and an idle room of ten (ten
                // `join`s) then holds 13 events, not 16 (14 bytes a seated player), for a few more
                // copies over a long game's thousands.
                recordEvents.reserveCapacity(max(4, recordEvents.count + recordEvents.count / 2))
            }
            recordEvents.append(event)
        } else {
            recordOmitted += 1
        }
    }

    /// A game everyone left before its end (the room is closing): archived with its record as it stood,
    /// `end` `abandoned`, unrated (those who left already forfeited). A game where nothing was claimed or
    /// chosen leaves no trace.
    func archiveAbandonedGame() {
        guard isRecording, !outbox.isReplaying,
            recordEvents.contains(where: { $0.type == "claim" || $0.type == "choose" })
        else { return }
        // Nobody is seated: the sheet is everyone who played, by score, then in the order they came.
        var names: [String] = dealtIn
        for event in recordEvents { if let name = event.name, !names.contains(name) { names.append(name) } }
        let ranked = names.enumerated()
            .map { (index: $0.offset, name: $0.element, score: score(of: $0.element)) }
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
            .map { (name: $0.name, score: $0.score) }
        archiveGame(
            ranked: ranked, sheet: ranked.map { tally.entry(for: $0.name) }, duration: durationMilliseconds,
            end: "abandoned")
        note("game-abandoned", ("index", "\(gameIndex)"), ("by", "everyone-left"))
    }

    /// The record of the game that just ended: `ranked` is its final scores, best first; `end` how it
    /// ended (`over`, `vote`, `abandoned`).
    func makeRecord(
        ranked: [(name: String, score: Int)], sheet: [ScoreSheetEntry], duration: Int, end: String
    ) -> GameRecord {
        var deck: [String] = []
        var events = [GameRecord.Event(ms: 0, type: "deal")]
        // The deal is rebuilt from the room's seed: the same order the game was dealt in.
        let fresh = Self.makeGame(options, seed: Self.gameSeed(seed, index: gameIndex), firstRevision: 1)
        switch (game, fresh) {
        case (.set(let setGame), .set(let freshGame)):
            deck = (freshGame.state.board + freshGame.state.deck).map(\.code)
            let noted = recordEvents.filter { $0.result == "set" }.count
            if noted == setGame.takenSets.count || recordOmitted > 0 {
                events += recordEvents
            } else {
                // Restored from a snapshot of a setd from before records were kept in snapshots: the
                // sets are in the game, the rest before the snapshot is gone.
                for (i, taken) in setGame.takenSets.enumerated() {
                    let ms = i < historyTimes.count ? offset(historyTimes[i]) : 0
                    events.append(
                        GameRecord.Event(
                            ms: ms, type: "claim", name: taken.player, cards: taken.cards.map(\.code),
                            result: "set"))
                }
            }
        case (.matchismo(let matchismo), .matchismo(let freshGame)):
            deck = freshGame.slots.map(\.card.code)
            let noted = recordEvents.filter { $0.type == "choose" }.count
            if noted == matchismo.choiceCount || recordOmitted > 0 {
                events += recordEvents
            } else {
                for (i, choice) in matchismo.history.enumerated() {
                    let ms = i < historyTimes.count ? offset(historyTimes[i]) : 0
                    events.append(
                        GameRecord.Event(ms: ms, type: "choose", name: choice.player, cards: [choice.text]))
                }
            }
        default:
            break
        }
        let scores = Dictionary(ranked.map { ($0.name, $0.score) }, uniquingKeysWith: { first, _ in first })
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
            sheet: rows, dealtIn: dealtIn, end: end, omitted: recordOmitted > 0 ? recordOmitted : nil)
    }
}
