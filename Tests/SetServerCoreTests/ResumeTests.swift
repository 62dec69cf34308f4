import SetTestSupport
import Testing

/// Dropping and coming back: seats, scores and presence survive a drop for the grace period.
@Suite struct ResumeTests {
    @Test func aDroppedPlayerResumesWithSeatAndScore() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, token) = try server.named("ann")
        let join = try ann.request("JOIN den")
        let (bob, _) = try server.player("bob", room: "den")
        _ = try ann.expect(prefix: "ROOM den set 2")
        let board = try #require(BoardView.last(in: join.lines))
        #expect(try ann.request(board.claim(board.sets[0])).isOK("CHOOSE"))
        _ = try bob.expect(prefix: "PLAYER ann 1 online")

        ann.close()
        #expect(try bob.readLine() == "PLAYER ann 1 away")
        // The name is held while ann is away.
        let impostor = try server.connect("impostor")
        #expect(try impostor.request("HELLO ann").final.hasPrefix("ERR HELLO TAKEN "))

        let back = try server.connect("ann again")
        let reply = try back.request("RESUME \(token)")
        #expect(reply.isOK("RESUME ann den"), "\(reply)")
        // A fresh token first (the one presented is retired), then the snapshot.
        let fresh = try #require(reply.newToken)
        #expect(reply.lines.first == "TOKEN \(fresh)" && fresh != token && fresh.count == 32, "\(reply)")
        #expect(reply.shownLines.first == "ROOM den set 2 playing")
        #expect(reply.lines.contains("PLAYER ann 1 online"), "\(reply)")
        #expect(reply.lines.contains("PLAYER bob 0 online"), "\(reply)")
        #expect(reply.lines.contains { $0.hasPrefix("BOARD ") })
        #expect(try bob.readLine() == "PLAYER ann 1 online")

        // Back in the game: events reach the resumed connection, and it can claim.
        let now = try #require(BoardView.last(in: reply.lines))
        #expect(try bob.request(now.claim(now.sets[0])).isOK("CHOOSE"))
        let seen = try back.expect(prefix: "PLAYER bob 1 online")
        #expect(seen.skipped.first?.hasPrefix("SET bob ") == true)
        #expect(try back.request("STATE").lines.contains("PLAYER ann 1 online"))
    }

    @Test func aNameWithoutASeatIsFreeOnceItsConnectionDrops() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (first, token) = try server.named("drifter")
        first.close()
        let back = try server.connect("back")
        #expect(try back.request("RESUME \(token)").error == .badToken, "nothing to come back to")
        #expect(try back.request("HELLO drifter").isOK("HELLO drifter"), "the name is free again")
    }

    @Test func resumingElsewhereClosesTheOlderConnection() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (old, token) = try server.named("ann")
        #expect(try old.request("JOIN twice").isOK("JOIN"))
        let fresh = try server.connect("new")
        let reply = try fresh.request("RESUME \(token)")
        #expect(reply.isOK("RESUME ann twice"), "\(reply)")
        let lines = try old.expectEOF()
        #expect(lines == ["BYE resumed elsewhere"])
        // The old connection's close is not a drop: ann stays online on the new one.
        server.advance(by: 0.1)
        let state = try fresh.request("STATE")
        #expect(state.lines.contains("PLAYER ann 0 online"), "\(state)")
    }

    @Test func graceRunsOutAndTheSeatIsReleased() throws {
        let server = EmbeddedServer { $0.grace = 1 }
        defer { server.stop() }
        let (ann, token) = try server.named("ann")
        #expect(try ann.request("JOIN short").isOK("JOIN"))
        let (bob, _) = try server.player("bob", room: "short")
        _ = try ann.expect(prefix: "ROOM short set 2")
        ann.close()
        #expect(try bob.readLine() == "PLAYER ann 0 away")
        // The seat is kept for the whole grace period, and released at the first tick after it.
        server.advance(by: 1)
        #expect(bob.readAvailable().isEmpty, "still within the grace")
        server.advance(by: 1)
        #expect(try bob.readLine() == "LEFT ann")
        #expect(try bob.readLine() == "ROOM short set 1 playing")

        let late = try server.connect("late")
        #expect(try late.request("RESUME \(token)").final.hasPrefix("ERR RESUME BADTOKEN "))
        // The name is free again.
        #expect(try late.request("HELLO ann").isOK("HELLO ann"))
    }

    @Test func quitReleasesAtOnce() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, token) = try server.named("ann")
        #expect(try ann.request("JOIN exit").isOK("JOIN"))
        let (bob, _) = try server.player("bob", room: "exit")
        _ = try ann.expect(prefix: "ROOM exit set 2")
        let quit = try ann.request("QUIT")
        #expect(quit.final == "OK QUIT")
        #expect(try ann.expectEOF().isEmpty)
        #expect(try bob.readLine() == "LEFT ann")
        #expect(try bob.readLine() == "ROOM exit set 1 playing")
        // Nothing after QUIT is run, even when pipelined.
        let (carl, _) = try server.named("carl")
        try carl.send(lines: ["QUIT", "PING", "HELP"])
        #expect(try carl.expectEOF() == ["OK QUIT"])
        let again = try server.connect("again")
        #expect(try again.request("RESUME \(token)").final.hasPrefix("ERR RESUME BADTOKEN "))
        #expect(try again.request("HELLO ann").isOK("HELLO ann"), "the name is free")
    }
}
