import SetGame
import SetServerCore
import SetTestSupport
import Testing

/// A game's record holds everything that happened in it — joins, leaves, kicks, votes, every claim with
/// its result — survives a compaction in the middle of the game, and is kept for a game everyone left.
@Suite struct GameRecordEventsTests {
    /// The record of game `k` of `room`, read with `HISTORY <room>` and `RECORD <id>` by `client`.
    private func record(of room: String, game k: Int = 1, by client: EmbeddedClient) throws -> GameRecord {
        let history = try client.request("HISTORY \(room)").lines
        let prefix = "HISTORY GAME \(k) ID "
        let idLine = try #require(history.first { $0.hasPrefix(prefix) }, "\(history)")
        let reply = try client.request("RECORD \(idLine.dropFirst(prefix.count))")
        #expect(reply.final.hasPrefix("OK RECORD {"), "\(reply)")
        return try #require(GameRecord.parse(String(reply.final.dropFirst("OK RECORD ".count))))
    }

    @Test func joinsLeavesKicksVotesAndStaleClaimsAreInTheRecordAndItRebuildsOverHTTP() throws {
        let server = EmbeddedServer()
        let (ann, joined) = try server.player("ann", room: "fun")
        let (bob, _) = try server.player("bob", room: "fun")
        let (carol, _) = try server.player("carol", room: "fun")
        server.advance(by: 2)
        let (dave, _) = try server.player("dave", room: "fun")
        for client in [ann, bob, carol, dave] { _ = client.readAvailable() }

        // ann takes a set; bob then claims the same set on the board he saw: stale.
        let before = try #require(BoardView.last(in: try ann.request("STATE").lines))
        let first = try #require(before.sets.first)
        server.advance(by: 1.5)
        let taken = try ann.request(before.claim(first))
        #expect(taken.isOK("CHOOSE"))
        let after = try #require(BoardView.last(in: taken.lines))
        #expect(try bob.request(before.claim(first)).error == .stale)
        // carol claims cards that are not a set, and asks for a new game: a vote, not yet a majority.
        let now = try #require(BoardView.last(in: try carol.request("STATE").lines))
        server.advance(by: 1)
        #expect(try carol.request(now.claim(try #require(now.nonSet))).error == .notSet)
        #expect(try carol.request("NEW").final == "OK NEW voted 1/3")
        // ann, the host, kicks dave.
        server.advance(by: 1)
        #expect(try ann.request("KICK dave too loud").isOK("KICK"))
        _ = dave.readAvailable()
        for client in [bob, carol] { _ = client.readAvailable() }
        try ann.playToTheEnd(from: try ann.request("STATE").lines, atMost: 40)

        let record = try record(of: "fun", by: bob)
        #expect(joined.isOK("JOIN fun"))
        #expect(record.end == "over")
        // The first game of a room is dealt as ann makes it, before she sits: everyone joins it.
        #expect(record.dealtIn == [])
        #expect(record.players == ["ann", "bob", "carol"])
        let kinds = record.events.map { [$0.type, $0.name ?? "-", $0.result ?? ""].joined(separator: " ") }
        #expect(
            kinds.starts(with: [
                "deal - ", "join ann ", "join bob ", "join carol ", "join dave ", "claim ann set",
                "claim bob stale",
            ]), "\(kinds)")
        #expect(
            kinds.contains("claim carol wrong") && kinds.contains("vote carol ")
                && kinds.contains("kick dave ") && kinds.contains("leave dave "), "\(kinds)")
        let stale = try #require(record.events.first { $0.result == "stale" })
        #expect(stale.cards == after.codes(first), "a stale claim keeps the cards its positions named then")
        #expect(record.events.first { $0.type == "kick" }?.by == "ann")
        #expect(record.events.first { $0.type == "vote" }?.options?["mode"] == "normal")
        #expect((record.events.first { $0.type == "join" && $0.name == "dave" }?.ms ?? 0) >= 2000)
        #expect(record.sheet.first { $0.name == "bob" }?.stale == 1)
        try RecordReference.check(record)

        // The same record over HTTP, rebuilt with the reference rules to its sheet.
        let fetched = try server.get("/games/\(record.id)")
        #expect(fetched.status == 200)
        let parsed = try #require(GameRecord.parse(String(decoding: fetched.body, as: UTF8.self)))
        #expect(parsed == record)
        try RecordReference.check(parsed)
    }

    @Test func wrongAndStaleClaimsBeforeACompactionSurviveIt() throws {
        let server = EmbeddedServer()
        let (ann, annToken) = try server.named("ann")
        let (bob, bobToken) = try server.named("bob")
        #expect(try ann.request("JOIN night").isOK("JOIN night"))
        #expect(try bob.request("JOIN night").isOK("JOIN night"))
        _ = ann.readAvailable()
        let before = try #require(BoardView.last(in: try bob.request("STATE").lines))
        let set = try #require(before.sets.first)
        #expect(try bob.request(before.claim(try #require(before.nonSet))).error == .notSet)
        #expect(try ann.request(before.claim(set)).isOK("CHOOSE"))
        #expect(try bob.request(before.claim(set)).error == .stale)

        // A restart compacts the journal to snapshots: the claims so far live on in the room's.
        let restarted = try server.restarted(after: 3)
        let ann2 = try restarted.connect("ann")
        let bob2 = try restarted.connect("bob")
        #expect(try ann2.request("RESUME \(annToken)").isOK("RESUME"))
        #expect(try bob2.request("RESUME \(bobToken)").isOK("RESUME"))
        _ = ann2.readAvailable()
        try ann2.playToTheEnd(from: try ann2.request("STATE").lines, atMost: 40)
        let record = try record(of: "night", by: bob2)
        let bobs = record.events.filter { $0.name == "bob" }.compactMap(\.result)
        #expect(bobs == ["wrong", "stale"], "\(record.events)")
        #expect(record.sheet.first { $0.name == "bob" }.map { ($0.wrong, $0.stale) } ?? (0, 0) == (1, 1))
        try RecordReference.check(record)
    }

    @Test func aGameEveryoneLeftIsKeptAsAbandoned() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "late")
        let (bob, _) = try server.player("bob", room: "late")
        _ = ann.readAvailable()
        let board = try #require(BoardView.last(in: try bob.request("STATE").lines))
        server.advance(by: 2)
        #expect(try ann.request(board.claim(try #require(board.sets.first))).isOK("CHOOSE"))
        _ = bob.readAvailable()
        #expect(try bob.request("LEAVE").isOK("LEAVE"))
        #expect(try ann.request("LEAVE").isOK("LEAVE"))

        let record = try record(of: "late", by: ann)
        #expect(record.end == "abandoned")
        #expect(record.players.isEmpty)
        #expect(record.sheet.map(\.name) == ["ann", "bob"])
        #expect(record.sheet.first?.sets == 1)
        #expect(record.events.map(\.type) == ["deal", "join", "join", "claim", "leave", "leave", "over"])
        try RecordReference.check(record)
    }

    @Test func aMatchismoRecordHasItsDeckAndEveryCardTurned() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "cards", options: "matchismo")
        let (bob, _) = try server.player("bob", room: "cards")
        _ = ann.readAvailable()
        var turned: [(name: String, position: Int, card: String)] = []
        // Each player turns cards while it is their turn, until four choices are made.
        var position = 0
        while turned.count < 4 {
            for (name, client) in [("ann", ann), ("bob", bob)] {
                let reply = try client.request("CHOOSE \(SetGame.positionName(position))")
                guard reply.isOK("CHOOSE") else { continue }
                turned.append((name, position, String(reply.final.dropFirst("OK CHOOSE ".count))))
                position += 1
                break
            }
        }
        _ = ann.readAvailable()
        #expect(try bob.request("LEAVE").isOK("LEAVE"))
        #expect(try ann.request("LEAVE").isOK("LEAVE"))

        let record = try record(of: "cards", by: ann)
        #expect(record.kind == "matchismo" && record.deck.count == 30 && Set(record.deck).count == 30)
        let chosen = record.events.filter { $0.type == "choose" }
        #expect(chosen.map { $0.name ?? "" } == turned.map(\.name))
        #expect(chosen.map { $0.position ?? -1 } == turned.map(\.position))
        #expect(chosen.map { $0.card ?? "" } == turned.map(\.card))
        for event in chosen {
            #expect(record.deck[event.position ?? 0] == event.card, "position \(event) holds its deck card")
        }
    }
}
