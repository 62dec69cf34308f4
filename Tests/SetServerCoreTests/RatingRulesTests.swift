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
