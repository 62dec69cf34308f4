import SetTestSupport
import Testing

/// Issue 23: a private room is indistinguishable from no room to anyone without its password, and its
/// games are unrated, out of everyone's STATS and TOP.
@Suite struct PrivateRoomTests {
    @Test func aPrivateGameIsUnratedAndOutOfStatsAndTop() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.named("ann")
        let created = try ann.request("JOIN hush password=pw")
        try #require(created.isOK("JOIN"))
        let (bob, _) = try server.named("bob")
        #expect(try bob.request("JOIN hush password=pw").isOK("JOIN"))
        _ = ann.readAvailable()
        let (sets, last) = try ann.playToTheEnd(from: created.lines)
        #expect(sets > 0 && last.lines.contains { $0.hasPrefix("OVER") }, "the game ended")
        let (eve, _) = try server.named("eve")
        let stats = try eve.request("STATS ann")
        #expect(stats.lines.isEmpty && stats.final == "OK STATS 0", "\(stats)")
        #expect(try eve.request("TOP").final == "OK TOP 0")
        #expect(!server.journal.contains { $0.text.hasPrefix("rating ") }, "nothing rated, nothing journaled")
        // The players still read their own game.
        #expect(try ann.request("HISTORY").lines.contains { $0.hasPrefix("HISTORY GAME 1") })
        // And outsiders get what a name nobody uses gets.
        #expect(try eve.request("HISTORY hush").final == "ERR HISTORY NOSUCHROOM no room named hush")
        #expect(try eve.request("WATCH hush").final == "ERR WATCH NOSUCHROOM no room named hush")
        #expect(try eve.request("JOIN hush password=guess").final == "ERR JOIN NOSUCHROOM no room named hush")
        #expect(try eve.request("ROOMS").final == "OK ROOMS 0")
    }
}
