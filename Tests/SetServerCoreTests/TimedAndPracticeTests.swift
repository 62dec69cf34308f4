import SetGame
import SetProtocol
import SetTestSupport
import Testing

/// Timed games (first to N sets, M minutes of play) and practice games (unrated, free hints, pauses),
/// as room options; every step is replayed from the journal and compared with live play, so the clock
/// records restore exactly.
@Suite struct TimedAndPracticeTests {
    /// The events that came since the last reply, read with a `PING`.
    private func events(of client: EmbeddedClient) throws -> [String] {
        try client.request("PING").lines
    }

    @Test func firstToNSetsEndsTheGameAtTheNthSet() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "r", options: "sets=2")
        #expect(join.lines.contains("OPTIONS mode=normal penalty=1 hints=on sets=2"), "\(join)")
        var board = try #require(BoardView.last(in: join.lines))
        let first = try ann.request(board.claim(board.sets[0]))
        #expect(!first.lines.contains { $0.hasPrefix("OVER ") })
        board = try #require(BoardView.last(in: first.lines))
        let second = try ann.request(board.claim(board.sets[0]))
        #expect(second.lines.contains("OVER ann:2"), "the second set wins: \(second)")
        let after = try ann.request(board.claim(board.sets.last!))
        #expect(after.error == .over || after.error == .stale, "\(after)")
        #expect(try ann.request("JOIN x sets=0").error == .badOption)
    }

    @Test func minutesOfPlayEndTheGameAtTheTick() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "r", options: "minutes=1")
        #expect(join.lines.contains("OPTIONS mode=normal penalty=1 hints=on minutes=1"), "\(join)")
        #expect(join.lines.contains("CLOCK 0 running"), "\(join)")
        let board = try #require(BoardView.last(in: join.lines))
        #expect(try ann.request(board.claim(board.sets[0])).isOK("CHOOSE"))
        server.advance(by: 58)
        #expect(try !events(of: ann).contains { $0.hasPrefix("OVER ") }, "a minute has not passed")
        server.advance(by: 3)
        let over = try events(of: ann)
        #expect(over.contains("OVER ann:1"), "time is called at the tick: \(over)")
        #expect(over.contains("ROOM r set 1 over"))
        let late = try ann.request("HINT")
        #expect(late.error == .over, "\(late)")
        // The journal keeps the call: a restarted server has the game over too.
        let restarted = try server.restarted(after: 1)
        defer { restarted.stop() }
        let eve = try restarted.connect("eve")
        #expect(try eve.request("WATCH r").lines.contains("ROOM r set 1 over"))
    }

    /// The room learns that its game is timed when a game is put in place, which happens three ways:
    /// a room's first game, a restore from the journal, and a new game voted in with other options.
    @Test func aTimedGameRestoredOrVotedInEndsAtTheTick() throws {
        let server = EmbeddedServer()
        _ = try server.player("ann", room: "r", options: "minutes=1")
        server.advance(by: 30)
        // Restored half-way through its minute: time is still called at the tick.
        let restarted = try server.restarted(after: 1)
        defer { restarted.stop() }
        let eve = try restarted.connect("eve")
        #expect(try eve.request("WATCH r").isOK("WATCH"))
        restarted.advance(by: 25)
        #expect(try !events(of: eve).contains { $0.hasPrefix("OVER ") }, "not a minute of play yet")
        restarted.advance(by: 10)
        #expect(try events(of: eve).contains { $0.hasPrefix("OVER ") }, "the restored game is timed")
        // An untimed room votes itself a timed game, then an untimed one again.
        let (bob, _) = try restarted.player("bob", room: "u")
        #expect(try bob.request("NEW minutes=1").final == "OK NEW started")
        restarted.advance(by: 61)
        #expect(try events(of: bob).contains { $0.hasPrefix("OVER ") }, "the voted-in game is timed")
        #expect(try bob.request("NEW minutes=off").final == "OK NEW started")
        restarted.advance(by: 120)
        #expect(try !events(of: bob).contains { $0.hasPrefix("OVER ") }, "the next game is not timed")
    }

    @Test func practicePausesAndItsClockStands() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "p", options: "practice=on minutes=1 hints=off")
        #expect(join.lines.contains("OPTIONS mode=normal penalty=1 hints=on practice=on minutes=1") == false)
        #expect(
            join.lines.contains("OPTIONS mode=normal penalty=1 hints=off practice=on minutes=1"), "\(join)")
        #expect(try ann.request("HINT").isOK("HINT"), "practice hints are free whatever hints= says")
        let board = try #require(BoardView.last(in: join.lines))
        server.advance(by: 10)
        let paused = try ann.request("PAUSE")
        #expect(paused.final == "OK PAUSE p", "\(paused)")
        #expect(paused.lines.contains("CLOCK 10000 paused"), "\(paused)")
        #expect(try ann.request("PAUSE").final == "OK PAUSE p", "saying it twice changes nothing")
        let claim = try ann.request(board.claim(board.sets[0]))
        #expect(claim.error == .stale, "nobody sees a paused board: \(claim)")
        let hint = try ann.request("HINT")
        #expect(
            hint.error == .noHints && !hint.lines.contains { $0.hasPrefix("HINT ") }, "nor a hint: \(hint)")
        #expect(try ann.request("STATE").lines.contains("PLAYER ann 0 online"), "a stale claim costs nothing")
        server.advance(by: 300)
        #expect(try !events(of: ann).contains { $0.hasPrefix("OVER ") }, "the clock stands while paused")
        #expect(try ann.request("STATE").lines.contains("CLOCK 10000 paused"))
        let resumed = try ann.request("UNPAUSE")
        #expect(resumed.lines.contains("CLOCK 300000 running"), "300 s paused so far: \(resumed)")
        #expect(try ann.request("HINT").isOK("HINT"), "hints come back with the board")
        #expect(try ann.request(board.claim(board.sets[0])).isOK("CHOOSE"))
        server.advance(by: 45)
        #expect(try !events(of: ann).contains { $0.hasPrefix("OVER ") }, "55 s of play")
        server.advance(by: 6)
        #expect(try events(of: ann).contains("OVER ann:1"), "61 s of play")
    }

    @Test func onlyAPracticeGameMayBePaused() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "r")
        #expect(!join.lines.contains { $0.hasPrefix("CLOCK ") }, "an untimed game has no clock")
        #expect(try ann.request("PAUSE").error == .denied)
        #expect(try ann.request("UNPAUSE").error == .denied)
        let (bob, _) = try server.player("bob", room: "m", options: "matchismo")
        #expect(try bob.request("PAUSE").error == .denied)
        let (cy, _) = try server.named("cy")
        #expect(try cy.request("PAUSE").error == .noRoom)
    }

    /// Two players, six sets taken in turns over two minutes: a real game, rated in a normal room and
    /// left as it was in a practice one.
    @Test(arguments: [false, true]) func aPracticeGameChangesNoRating(practice: Bool) throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let options = practice ? "practice=on sets=4" : "sets=4"
        let (ann, join) = try server.player("ann", room: "r", options: options)
        let (bob, _) = try server.player("bob", room: "r")
        var board = try #require(BoardView.last(in: join.lines))
        for (i, player) in [ann, ann, bob, ann, bob, ann].enumerated() {
            server.advance(by: 20)
            _ = try events(of: player)
            let reply = try player.request(board.claim(board.sets[0]))
            #expect(reply.isOK("CHOOSE"), "\(i): \(reply)")
            if let next = BoardView.last(in: reply.lines) { board = next }
        }
        let stats = try ann.request("STATS")
        let line = try #require(stats.lines.first { $0.hasPrefix("RATING ann normal ") }, "\(stats)")
        #expect(line.contains("games=1"), "the game counts either way: \(line)")
        #expect(line.contains("rating=1500 ") == practice, "\(line)")
    }
}
