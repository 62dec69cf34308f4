import SetServerCore
import SetTestSupport
import Testing

/// `REMATCH`: at game over everyone offers to play again, and the next game starts as soon as every
/// online player has, without a vote. Every step is checked against a replay of the journal.
@Suite struct RematchTests {
    /// ann and bob in `room`, with a game played to the end by ann; both have read everything.
    private func finishedGame(
        _ server: EmbeddedServer, room: String = "fun", options: String = ""
    ) throws -> (EmbeddedClient, EmbeddedClient, String, String) {
        let (ann, annToken) = try server.named("ann")
        let (bob, bobToken) = try server.named("bob")
        #expect(try ann.request(options.isEmpty ? "JOIN \(room)" : "JOIN \(room) \(options)").isOK("JOIN"))
        #expect(try bob.request("JOIN \(room)").isOK("JOIN"))
        if !options.isEmpty {
            _ = try ann.request("READY")
            _ = try bob.request("READY")
            server.advance(by: 4)
        }
        _ = ann.readAvailable()
        #expect(try bob.request("REMATCH").error == .notOver)
        try ann.playToTheEnd(from: try ann.request("STATE").lines, atMost: 40)
        _ = bob.readAvailable()
        return (ann, bob, annToken, bobToken)
    }

    @Test func theRematchStartsAtOnceWhenEveryoneHasOffered() throws {
        let server = EmbeddedServer()
        let (ann, bob, _, _) = try finishedGame(server)
        #expect(try ann.request("REMATCH").final == "OK REMATCH offered 1/2")
        #expect(bob.readAvailable() == ["REMATCH ann 1 2"])
        #expect(try ann.request("REMATCH").final == "OK REMATCH offered 1/2", "offering twice counts once")
        _ = bob.readAvailable()
        let started = try bob.request("REMATCH")
        #expect(started.final == "OK REMATCH started")
        #expect(started.lines.first == "NEWGAME bob")
        #expect(started.lines.contains("ROOM fun set 2 playing"))
        let seen = ann.readAvailable()
        #expect(seen.first == "NEWGAME bob" && seen.contains { $0.hasPrefix("BOARD ") && $0.count > 20 })
        // A fresh deal: the game can be played again, and it is game 2 in the room.
        try ann.playToTheEnd(from: seen, atMost: 40)
        #expect(try bob.request("HISTORY").lines.contains { $0.hasPrefix("HISTORY GAME 2 ") })
    }

    @Test func aRoomThatWaitsForReadyIsDealtAtOnce() throws {
        let server = EmbeddedServer()
        let (ann, bob, _, _) = try finishedGame(server, room: "ready", options: "start=ready")
        _ = try ann.request("REMATCH")
        let started = try bob.request("REMATCH")
        #expect(started.final == "OK REMATCH started")
        #expect(started.lines.contains("ROOM ready set 2 playing"), "\(started)")
        #expect(started.lines.contains { $0.hasPrefix("STARTED ") })
    }

    @Test func anOfferOutlivesARestartAndALeaverCompletesTheRematch() throws {
        let server = EmbeddedServer()
        let (ann, _, annToken, bobToken) = try finishedGame(server)
        let (carol, _) = try server.player("carol", room: "fun")
        _ = ann.readAvailable()
        #expect(try ann.request("REMATCH").final == "OK REMATCH offered 1/3")

        let restarted = try server.restarted(after: 2)
        let ann2 = try restarted.connect("ann")
        let bob2 = try restarted.connect("bob")
        #expect(try ann2.request("RESUME \(annToken)").isOK("RESUME"))
        #expect(try bob2.request("RESUME \(bobToken)").isOK("RESUME"))
        // carol never came back: she is away, so ann and bob are everyone online.
        _ = ann2.readAvailable()
        #expect(try bob2.request("REMATCH").final == "OK REMATCH started", "ann's offer survived the restart")
        _ = carol

        // Offers, then the one who had not offered leaves: the rematch starts at the next tick.
        try ann2.playToTheEnd(from: try ann2.request("STATE").lines, atMost: 40)
        _ = bob2.readAvailable()
        let (dave, _) = try restarted.player("dave", room: "fun")
        _ = ann2.readAvailable()
        _ = bob2.readAvailable()
        #expect(try bob2.request("REMATCH").final == "OK REMATCH offered 1/3")
        #expect(try ann2.request("REMATCH").final == "OK REMATCH offered 2/3")
        #expect(try dave.request("LEAVE").isOK("LEAVE"))
        _ = bob2.readAvailable()
        restarted.advance(by: 1)
        #expect(bob2.readAvailable().first == "NEWGAME bob", "the first to offer starts it")
    }
}
