import SetGame
import SetServerCore
import SetTestSupport
import Testing

/// A game's log is bounded (``GameLogLimit``): a Matchismo game of endless flipping, or a SET game of
/// endless wrong claims, holds at most twice the limit of choices and the limit of record events, in
/// the room and in its snapshot, while `HISTORY` and `RECORD` stay true to what they promise. Every
/// input of these tests is replayed from the journal and compared with live play (``EmbeddedServer``).
@Suite struct GameLogLimitTests {
    private static let limit = GameLogLimit(choices: 10, recordEvents: 30)

    private func server() -> EmbeddedServer {
        EmbeddedServer {
            $0.gameLogLimit = Self.limit
            $0.commandsPerSecond = 0
        }
    }

    /// What the room keeps, as its snapshot holds it: the game's choices, their times, the record's
    /// events and the count it left out.
    private func kept(in server: EmbeddedServer, room: String) throws -> (
        history: Int, forgotten: Int, times: Int, events: Int, omitted: Int
    ) {
        for case .snapshot(let snapshot) in server.core.snapshotRecords() where snapshot.name == room {
            var (history, forgotten) = (0, 0)
            if case .matchismo(let state) = snapshot.game {
                (history, forgotten) = (state.history.count, state.forgottenChoices)
            }
            return (
                history, forgotten, snapshot.historyTimes.count, snapshot.night.recordEvents.count,
                snapshot.night.recordOmitted
            )
        }
        throw ClientError(description: "no snapshot of \(room)")
    }

    @Test func endlessFlippingKeepsABoundedLogAndReplaysAsPlayed() throws {
        let server = server()
        let (ann, _) = try server.player("ann", room: "cards", options: "matchismo n=4")
        // c then b stay up while a is turned up and down long past the limit: the order they were
        // turned in (not the board's) outlives the choices that tell it.
        /// The card a choice turned, as its `CHOSE` line names it (`CHOSE ann -4 8♦`).
        func turned(_ reply: Reply) -> String {
            String(reply.lines.first { $0.hasPrefix("CHOSE ann ") }?.split(separator: " ").last ?? "")
        }
        let c = turned(try ann.request("CHOOSE c"))
        let b = turned(try ann.request("CHOOSE b"))
        let flips = 101
        var lastChose = ""
        var lastFlip = Reply(lines: [], final: "")
        for i in 0..<flips {
            if i % 7 == 0 { server.advance(by: 1) }
            let reply = try ann.request("CHOOSE a")
            #expect(reply.isOK("CHOOSE"))
            lastChose = reply.lines.first { $0.hasPrefix("CHOSE ann ") } ?? ""
            lastFlip = reply
            let log = try kept(in: server, room: "cards")
            #expect(log.history <= 2 * Self.limit.choices, "\(log)")
            #expect(log.times == log.history)
            #expect(log.history + log.forgotten == i + 3)
            #expect(log.events <= Self.limit.recordEvents)
        }
        let log = try kept(in: server, room: "cards")
        #expect(log.forgotten > 0)
        #expect(log.events == Self.limit.recordEvents)
        // 1 join (the room's first game is dealt before ann sits) + 103 choices, 30 kept.
        #expect(log.omitted == 1 + flips + 2 - Self.limit.recordEvents)

        // HISTORY lists the latest 10 choices, the last flip last.
        let history = try ann.request("HISTORY")
        #expect(history.final == "OK HISTORY \(Self.limit.choices)")
        #expect(history.lines.count == Self.limit.choices)
        let lastText = lastChose.dropFirst("CHOSE ann ".count)
        #expect(!lastText.isEmpty && history.lines.last?.hasSuffix(" ann \(lastText)") == true, "\(history)")

        // A fourth card scores the three up with it, in the order they were turned: c, b, a, d.
        let scored = try ann.request("CHOOSE d")
        #expect(scored.isOK("CHOOSE"), "\(scored)")
        let chose = try #require(scored.lines.first { $0.hasPrefix("CHOSE ann ") }, "\(scored)")
        #expect(chose.contains(" \(c) \(b) \(turned(lastFlip)) "), "\(chose)")
        let restarted = try server.restarted()
        #expect(try kept(in: restarted, room: "cards") == (try kept(in: server, room: "cards")))

        // The game ends by a vote: its archived history keeps the latest 10, its record the first
        // events and how many it left out.
        #expect(try ann.request("NEW").isOK("NEW"))
        let archived = try ann.request("HISTORY cards").lines
        // Entries are `HISTORY GAME 1 <seconds> ann <points> <text>` (not the header, ID, STATS, DURATION).
        let entries = archived.filter {
            let words = $0.split(separator: " ")
            return words.count > 4 && words[2] == "1" && Int(words[3]) != nil && words[4] == "ann"
        }
        #expect(entries.count == Self.limit.choices, "\(archived)")
        let choseText = chose.dropFirst("CHOSE ann ".count)
        #expect(entries.last?.hasSuffix(" ann \(choseText)") == true, "\(entries)")
        let prefix = "HISTORY GAME 1 ID "
        let id = try #require(archived.first { $0.hasPrefix(prefix) }?.dropFirst(prefix.count))
        let reply = try ann.request("RECORD \(id)")
        let record = try #require(GameRecord.parse(String(reply.final.dropFirst("OK RECORD ".count))))
        #expect(record.events.count == 1 + Self.limit.recordEvents + 1)
        #expect(record.events.first?.type == "deal" && record.events.last?.type == "over")
        // 1 join + 104 choices + the vote that ended it.
        #expect(record.omitted == 1 + flips + 3 + 1 - Self.limit.recordEvents)
    }

    @Test func endlessWrongClaimsKeepARecordOfBoundedSize() throws {
        let server = server()
        let (ann, joined) = try server.player("ann", room: "fun")
        let board = try #require(BoardView.last(in: joined.lines))
        let wrong = try #require(board.nonSet)
        for i in 0..<40 {
            if i % 7 == 0 { server.advance(by: 1) }
            #expect(try ann.request(board.claim(wrong)).error == .notSet)
        }
        let log = try kept(in: server, room: "fun")
        #expect(log.events == Self.limit.recordEvents)
        #expect(log.omitted == 1 + 40 - Self.limit.recordEvents)
        let restarted = try server.restarted()
        #expect(try kept(in: restarted, room: "fun") == log)
    }

    @Test func aSnapshotFromBeforeTheBoundsRestoresWithinThem() throws {
        let server = server()
        let (ann, _) = try server.player("ann", room: "cards", options: "matchismo")
        for _ in 0..<2 { #expect(try ann.request("CHOOSE a").isOK("CHOOSE")) }
        // A setd before the bounds kept every choice and event: 200 of each.
        let records = server.core.snapshotRecords().map { record -> JournalRecord in
            guard case .snapshot(var room) = record, case .matchismo(var state) = room.game else {
                return record
            }
            state.history = Array(repeatElement(state.history, count: 100).joined())
            room.game = .matchismo(state)
            room.historyTimes = Array(repeatElement(room.historyTimes, count: 100).joined())
            let chosen = room.night.recordEvents.filter { $0.type == "choose" }
            room.night.recordEvents += Array(repeatElement(chosen, count: 99).joined())
            return .snapshot(room)
        }
        let restarted = try server.restarted(from: records)
        let log = try kept(in: restarted, room: "cards")
        #expect(log.history == Self.limit.choices && log.forgotten == 190 && log.times == log.history)
        // 1 join + 200 choices, 30 kept.
        #expect(log.events == Self.limit.recordEvents && log.omitted == 201 - Self.limit.recordEvents)
    }
}
