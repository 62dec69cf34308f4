import SetTestSupport
import Testing

/// `ROOMS` is kept between changes and costs more of the rate limit than a `PING`.
@Suite struct RoomListingTests {
    @Test func theListingFollowsEveryChange() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "b")
        let (watcher, _) = try server.named("watcher")
        #expect(try watcher.request("ROOMS").lines == ["ROOM b set 1 playing"])
        let (bob, _) = try server.player("bob", room: "b")
        _ = try server.player("carl", room: "a", options: "matchismo")
        #expect(try watcher.request("ROOMS").lines == ["ROOM a matchismo 1 playing", "ROOM b set 2 playing"])
        #expect(try bob.request("LEAVE").isOK("LEAVE"))
        #expect(try watcher.request("ROOMS").lines == ["ROOM a matchismo 1 playing", "ROOM b set 1 playing"])
        // A game that ends changes its line; a new game changes it back.
        _ = ann.readAvailable()
        try ann.playToTheEnd(from: join.lines)
        #expect(try watcher.request("ROOMS").lines.last == "ROOM b set 1 over")
        #expect(try ann.request("NEW").isOK("NEW"))
        #expect(try watcher.request("ROOMS").lines.last == "ROOM b set 1 playing")
        // A private room never shows, and a closed one goes.
        _ = try server.named("dora").0.request("JOIN secret password=pw")
        #expect(try ann.request("LEAVE").isOK("LEAVE"))
        #expect(try watcher.request("ROOMS").lines == ["ROOM a matchismo 1 playing"])
    }

    @Test func roomsCostsTenCommandsOfTheRateLimit() throws {
        let server = EmbeddedServer()
        let (client, _) = try server.named("lister")
        server.advance(by: 3)  // A full bucket: 200 commands.
        try client.send(lines: Array(repeating: "ROOMS", count: 25))
        let finals = client.readAvailable().filter(isFinalLine)
        #expect(finals.filter { $0.hasPrefix("OK ROOMS") }.count == 20, "\(finals)")
        #expect(finals.dropFirst(20).allSatisfy { $0.hasPrefix("ERR ROOMS SLOWDOWN ") }, "\(finals)")
        server.advance(by: 0.1)  // Ten commands' worth: one more listing, or ten pings.
        #expect(try client.request("ROOMS").isOK("ROOMS"))
        #expect(try client.request("PING").error == .slowDown)
    }
}
