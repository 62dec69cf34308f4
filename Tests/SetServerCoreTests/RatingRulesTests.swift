import SetTestSupport
import Testing

/// Issue 23: ratings cannot be farmed with scripted games, nor a game's result wiped by a NEW vote.
@Suite struct RatingRulesTests {
    /// Claims the first set of the board among `lines` `count` times; returns the last reply's lines.
    private func take(_ count: Int, by client: EmbeddedClient, from lines: [String]) throws -> [String] {
        var lines = lines
        for _ in 0..<count {
            let board = try #require(BoardView.last(in: lines))
            let reply = try client.request(board.claim(try #require(board.sets.first)))
            #expect(reply.isOK("CHOOSE"), "\(reply)")
            lines = reply.lines
        }
        return lines
    }

    @Test func aScriptedGameOfSecondsCountsButRatesNothing() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "farm")
        let (bob, _) = try server.player("bob", room: "farm")
        _ = ann.readAvailable()
        // Both take sets, but the whole game lasts a few (virtual) seconds: not a real game.
        let lines = try take(1, by: bob, from: join.lines)
        _ = ann.readAvailable()
        _ = try ann.playToTheEnd(from: lines)
        _ = bob.readAvailable()
        let stats = try bob.request("STATS ann")
        #expect(
            stats.lines.first?.hasPrefix("RATING ann normal rating=1500 games=1 wins=1 ") == true, "\(stats)")
    }

    @Test func aGameOneSidedAgainstAnIdlePartnerRatesNothing() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "farm")
        _ = try server.player("bob", room: "farm")
        _ = ann.readAvailable()
        server.advance(by: 61)
        _ = try ann.playToTheEnd(from: join.lines)
        #expect(
            try ann.request("STATS").lines.first?.hasPrefix("RATING ann normal rating=1500 games=1 ") == true)
    }

    @Test func aGameEndedByAVoteIsArchivedAndRatedAsItStood() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "den")
        let (bob, _) = try server.player("bob", room: "den")
        _ = ann.readAvailable()
        var lines = try take(1, by: bob, from: join.lines)
        _ = ann.readAvailable()
        server.advance(by: 61)
        lines = try take(6, by: ann, from: lines)
        _ = bob.readAvailable()
        #expect(try ann.request("NEW").final == "OK NEW voted 1/2")
        #expect(try bob.request("NEW").isOK("NEW"))
        let history = try server.connect("eve").request("HISTORY den")
        #expect(history.lines.contains { $0.hasPrefix("HISTORY GAME 1 STATS ann sets=6 ") }, "\(history)")
        #expect(history.lines.contains { $0.hasPrefix("HISTORY GAME 1 STATS bob sets=1 ") }, "\(history)")
        let annStats = try bob.request("STATS ann").lines
        #expect(annStats.count == 1 && annStats[0].contains("games=1 wins=1 sets=6"), "\(annStats)")
        #expect(!annStats[0].contains("rating=1500 "), "rated: \(annStats)")
        // A restart agrees: the figures and the archive are journaled.
        let restarted = try server.restarted(after: 1)
        #expect(try restarted.connect("fay").request("STATS ann").lines == annStats)
    }
}

/// Issue 23: leaving a real game before its end, or letting the grace time run out, is a loss scored
/// at that moment; a kick is the host's doing and scores nothing.
@Suite struct ForfeitTests {
    /// A real game under way in `den`: bob took a set, a minute passed, ann took five; carl sat idle.
    private func realGame() throws -> (EmbeddedServer, [EmbeddedClient]) {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "den", host: "127.0.0.2")
        let (bob, _) = try server.player("bob", room: "den", host: "127.0.0.3")
        let (carl, _) = try server.player("carl", room: "den", host: "127.0.0.4")
        _ = ann.readAvailable()
        var board = try #require(BoardView.last(in: join.lines))
        var reply = try bob.request(board.claim(try #require(board.sets.first)))
        server.advance(by: 61)
        for _ in 0..<5 {
            board = try #require(BoardView.last(in: reply.lines + ann.readAvailable()))
            reply = try ann.request(board.claim(try #require(board.sets.first)))
            #expect(reply.isOK("CHOOSE"), "\(reply)")
        }
        for client in [ann, bob, carl] { _ = client.readAvailable() }
        return (server, [ann, bob, carl])
    }

    private func stats(_ name: String, on server: EmbeddedServer) throws -> String {
        try server.connect("reader").request("STATS \(name)").lines.first ?? "none"
    }

    @Test func leavingARealGameIsALossScoredAtOnce() throws {
        let (server, players) = try realGame()
        #expect(try stats("bob", on: server) == "none")
        #expect(try players[1].request("LEAVE").isOK("LEAVE"))
        let bob = try stats("bob", on: server)
        #expect(
            bob.hasPrefix("RATING bob normal rating=") && bob.contains(" games=1 wins=0 sets=1 "), "\(bob)")
        let rating = Int(bob.split(separator: " ")[3].dropFirst("rating=".count)) ?? 0
        #expect(rating < 1500, "a loss: \(bob)")
        #expect(try stats("ann", on: server) == "none", "the others are rated when the game ends")
        let restarted = try server.restarted(after: 1)
        #expect(try restarted.connect("r").request("STATS bob").lines.first == bob)
    }

    @Test func theGraceRunningOutIsALossToo() throws {
        let (server, players) = try realGame()
        players[2].close()
        server.advance(by: server.core.configuration.grace + 1)
        let carl = try stats("carl", on: server)
        #expect(carl.contains(" games=1 wins=0 sets=0 "), "\(carl)")
    }

    @Test func aKickedPlayerLosesNothing() throws {
        let (server, players) = try realGame()
        #expect(try players[0].request("KICK bob").isOK("KICK"))
        #expect(try stats("bob", on: server) == "none")
    }

    @Test func leavingBeforeTheGameIsRealCostsNothing() throws {
        let server = EmbeddedServer()
        _ = try server.player("ann", room: "den")
        let (bob, _) = try server.player("bob", room: "den", host: "127.0.0.3")
        #expect(try bob.request("LEAVE").isOK("LEAVE"))
        #expect(try stats("bob", on: server) == "none")
    }
}

/// Issue 23: a standing vote is counted again when players leave or drop.
@Suite struct VoteRecountTests {
    private func fourWithTwoVotes() throws -> (EmbeddedServer, [EmbeddedClient]) {
        let server = EmbeddedServer()
        var players: [EmbeddedClient] = []
        for name in ["ann", "bob", "carl", "dan"] { players.append(try server.player(name, room: "den").0) }
        #expect(try players[0].request("NEW mode=junior").final == "OK NEW voted 1/3")
        #expect(try players[1].request("NEW").final == "OK NEW voted 2/3")
        for player in players { _ = player.readAvailable() }
        return (server, players)
    }

    @Test func aVoteThatHasItsMajorityOnceSomeoneLeavesPasses() throws {
        let (server, players) = try fourWithTwoVotes()
        #expect(try players[3].request("LEAVE").isOK("LEAVE"))
        server.advance(by: 1)
        let seen = players[2].readAvailable()
        #expect(seen.contains("NEWGAME ann"), "\(seen)")
        #expect(seen.contains { $0.hasPrefix("OPTIONS ") && $0.contains("mode=junior") }, "\(seen)")
    }

    @Test func aVoteThatHasItsMajorityOnceSomeoneDropsPasses() throws {
        let (server, players) = try fourWithTwoVotes()
        players[3].close()
        server.advance(by: 1)
        #expect(players[2].readAvailable().contains("NEWGAME ann"))
    }

    @Test func aVoteStillShortOfItsMajorityWaits() throws {
        let (server, players) = try fourWithTwoVotes()
        #expect(try players[1].request("LEAVE").isOK("LEAVE"), "a voter leaves: 1 of 3 online")
        server.advance(by: 2)
        #expect(!players[2].readAvailable().contains { $0.hasPrefix("NEWGAME") })
    }
}

/// Issue 23: a name's rating gains per mode are bounded per hour, across restarts.
@Suite struct HourlyGainTests {
    /// A real game in `room`: `loser` takes one set, a minute passes, `winner` takes the rest.
    private func play(
        _ server: EmbeddedServer, _ winner: EmbeddedClient, _ loser: EmbeddedClient, from lines: [String]
    ) throws {
        let board = try #require(BoardView.last(in: lines))
        let first = try loser.request(board.claim(try #require(board.sets.first)))
        server.advance(by: 61)
        _ = winner.readAvailable()
        _ = try winner.playToTheEnd(from: first.lines)
        _ = loser.readAvailable()
    }

    private func rating(_ name: String, on server: EmbeddedServer) throws -> Int {
        let line = try server.connect("reader").request("STATS \(name)").lines.first ?? ""
        return Int(line.split(separator: " ").first { $0.hasPrefix("rating=") }?.dropFirst(7) ?? "") ?? 0
    }

    @Test func farmingWinsGainAtMost200AnHour() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "farm", host: "127.0.0.2")
        let (bob, _) = try server.player("bob", room: "farm", host: "127.0.0.3")
        _ = ann.readAvailable()
        var lines = join.lines
        for _ in 0..<4 {
            try play(server, ann, bob, from: lines)
            lines = try ann.request("NEW").lines
            _ = bob.readAvailable()
        }
        #expect(try rating("ann", on: server) == 1700, "four wins of ~100 each, cut to 200")
        #expect(try rating("bob", on: server) < 1300, "bob lost every game in full")
        // The bound survives a restart: the gains are journaled with their times.
        let restarted = try server.restarted(after: 1)
        #expect(try rating("ann", on: restarted) == 1700)
        // An hour after the first gains, ann may gain again.
        for _ in 0..<8 {
            server.advance(by: 500)
            for client in [ann, bob] { #expect(try client.request("PING").isOK("PING")) }
        }
        try play(server, ann, bob, from: lines)
        #expect(try rating("ann", on: server) > 1700)
    }
}
