import SetGame
import SetServerCore
import SetTestSupport
import Testing

/// Game records (`RECORD <id>`, `GET /games`): kept for every finished game, rebuilt with the
/// reference rules rather than trusted.
@Suite struct GameRecordTests {
    /// Plays one game between ann and bob with wrong and late claims mixed in; returns its record. With
    /// `cat`, by `variant`: cat sits down mid-game and leaves (1), or is kicked by ann, the host, and
    /// allowed back (2); or bob votes for a new game that never gets its majority (3).
    private func playGame(
        _ ann: EmbeddedClient, _ bob: EmbeddedClient, cat: EmbeddedClient? = nil, variant: Int = 0,
        rng: inout SeededGenerator
    ) throws -> GameRecord {
        var board = try #require(BoardView.last(in: try ann.request("STATE").lines))
        _ = bob.readAvailable()
        var previous: BoardView?
        for step in 0..<200 {
            if let cat, variant == 1 || variant == 2, step == 2 {
                #expect(try cat.request("JOIN night").isOK("JOIN"))
            }
            if let cat, variant == 1, step == 6 { #expect(try cat.request("LEAVE").isOK("LEAVE")) }
            if variant == 2, step == 6 {
                #expect(try ann.request("KICK cat").isOK("KICK"))
                #expect(try ann.request("ALLOW cat").isOK("ALLOW"))
            }
            if variant == 3, step == 4 { #expect(try bob.request("NEW").final == "OK NEW voted 1/2") }
            _ = cat?.readAvailable()
            let roll = Int.random(in: 0..<10, using: &rng)
            let reply: Reply
            if roll == 0, let wrong = board.nonSet {
                reply = try bob.request(board.claim(wrong))
                #expect(reply.final.hasPrefix("ERR CHOOSE NOTSET"))
            } else if roll == 1, let old = previous, let set = old.sets.first {
                // A claim aimed at the board before the last set: stale, or a set if it still stands.
                reply = try bob.request(old.claim(set))
            } else {
                let taker = roll < 6 ? ann : bob
                reply = try taker.request(board.claim(try #require(board.sets.first)))
                #expect(reply.isOK("CHOOSE"), "\(reply)")
            }
            _ = ann.readAvailable()
            _ = bob.readAvailable()
            if reply.lines.contains(where: { $0.hasPrefix("OVER ") }) { break }
            if let next = BoardView.last(in: reply.lines), next != board {
                previous = board
                board = next
            }
        }
        let history = try ann.request("HISTORY").lines
        let idLine = try #require(history.first { $0.hasPrefix("HISTORY GAME 1 ID ") }, "\(history)")
        let id = String(idLine.dropFirst("HISTORY GAME 1 ID ".count))
        let reply = try ann.request("RECORD \(id)")
        #expect(reply.final.hasPrefix("OK RECORD {"))
        return try #require(GameRecord.parse(String(reply.final.dropFirst("OK RECORD ".count))))
    }

    @Test func everyRecordRebuildsToItsSheetWithTheReferenceRules() throws {
        let server = EmbeddedServer()
        server.checksReplay = false  // hundreds of games: the replay check is for the scenario tests
        let (ann, _) = try server.player("ann", room: "night")
        let (bob, _) = try server.player("bob", room: "night")
        var rng = SeededGenerator(seed: 25)
        var ids: Set<String> = []
        let (cat, _) = try server.named("cat")
        var stale = 0
        var wrong = 0
        var kinds: Set<String> = []
        for game in 0..<400 {
            let record = try playGame(ann, bob, cat: cat, variant: game % 4, rng: &rng)
            kinds.formUnion(record.events.map(\.type))
            try RecordReference.check(record)
            #expect(ids.insert(record.id).inserted, "game \(game): the id \(record.id) again")
            // Every row of the sheet as the events give it; cat, who left, is on no sheet and took nothing.
            let rebuilt = try RecordReference.rebuild(record)
            #expect(
                rebuilt.filter { $0.key != "cat" } == RecordReference.claimedSheet(record),
                "game \(game): \(record.json)")
            #expect(rebuilt["cat"].map { $0 == RecordReference.Line() } ?? true)
            stale += record.sheet.map(\.stale).reduce(0, +)
            wrong += record.sheet.map(\.wrong).reduce(0, +)
            _ = try ann.request("NEW")
            _ = try bob.request("NEW")
            server.advance(by: 1)
        }
        #expect(stale > 0 && wrong > 0, "the games had no stale (\(stale)) or wrong (\(wrong)) claims")
        #expect(kinds == ["deal", "claim", "join", "leave", "kick", "vote", "over"], "\(kinds)")
    }

    @Test func aRecordSurvivesARestartAndIsServedOverHTTP() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "fun")
        let (bob, _) = try server.player("bob", room: "fun")
        var rng = SeededGenerator(seed: 7)
        let record = try playGame(ann, bob, rng: &rng)

        let restarted = try server.restarted(after: 5)
        let page = try restarted.get("/games")
        #expect(
            page.status == 200
                && String(decoding: page.body, as: UTF8.self).contains("\"id\":\"\(record.id)\""),
            "\(String(decoding: page.body, as: UTF8.self))")
        let fetched = try restarted.get("/games/\(record.id)")
        #expect(fetched.status == 200)
        let parsed = try #require(GameRecord.parse(String(decoding: fetched.body, as: UTF8.self)))
        #expect(parsed == record)
        #expect(try RecordReference.rebuild(parsed) == RecordReference.claimedSheet(parsed))
    }

    @Test func badIdsGetAClearRefusal() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "fun")
        #expect(try ann.request("RECORD").final.hasPrefix("ERR RECORD ARGS"))
        #expect(try ann.request("RECORD nothex!").final.hasPrefix("ERR RECORD ARGS"))
        #expect(try ann.request("RECORD 0123456789abcdef").final.hasPrefix("ERR RECORD NOSUCHGAME"))
        #expect(try server.get("/games/xyz").status == 400)
        #expect(try server.get("/games/0123456789abcdef").status == 404)
        #expect(try server.get("/games?page=0").status == 400)
        #expect(try server.get("/games?page=2").status == 200)
    }
}

/// The record inside an archive journal record: one escaped text field, read back byte for byte whatever
/// text its fields hold (the journal fuzzer checks the same with any text).
@Suite struct GameRecordJournalTests {
    @Test(arguments: [
        "plain", "sp ace", "quote\" back\\slash", "line\nbreak\r", "\u{0}nul", "é\u{301} 🃏", "\u{2028}",
    ])
    func anArchiveRecordWithAGameRecordReadsBackAsItWasWritten(text: String) throws {
        let record = JournalRecord.archive(
            room: text,
            game: ArchivedGame(
                startedAt: 1, endedAt: 2, scores: [(text, 1)], entries: [], sheet: [], duration: 5,
                record: GameRecord(
                    id: text, room: text, kind: "set", options: [text: text], startedAtMs: 1, durationMs: 5,
                    deck: [text], players: [text],
                    events: [GameRecord.Event(ms: 0, type: "claim", name: text, cards: [text], result: text)],
                    sheet: [])))
        let line = record.line
        #expect(line.last == 0x0A && !line.dropLast().contains(0x0A))
        let body = try #require(JournalCoding.verifiedBody(line.dropLast()[...]))
        let back = try JournalRecord(body: body)
        #expect(back.line == line)
        guard case .archive(_, let game) = back else {
            Issue.record("not an archive record: \(back)")
            return
        }
        #expect(game.record?.room == text && game.record?.events.first?.name == text)
    }

    @Test(arguments: [
        "plain", "sp ace", "quote\" back\\slash", "line\nbreak\r", "\u{0}nul", "é\u{301} 🃏", "\u{2028}",
    ])
    func theNewRoomRecordsReadBackAsTheyWereWritten(text: String) throws {
        for record in [
            JournalRecord.recordEvent(
                room: text,
                event: GameRecord.Event(
                    ms: 1, type: text, name: text, cards: [text], result: text, position: 3, card: text,
                    by: text,
                    options: [text: text])),
            .rematch(room: text, name: text), .standingsReset(room: text, by: text),
        ] {
            let line = record.line
            #expect(line.last == 0x0A && !line.dropLast().contains(0x0A))
            let body = try #require(JournalCoding.verifiedBody(line.dropLast()[...]))
            #expect(try JournalRecord(body: body).line == line)
        }
    }
}
