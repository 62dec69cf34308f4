import SetTestSupport
import Testing

/// A vote is for a proposal: only votes for the same options count, and only the room's creator may
/// set its password.
@Suite struct VoteTests {
    @Test func votesForDifferentOptionsDoNotAddUp() throws {
        let server = EmbeddedServer()
        let (alice, _) = try server.player("alice", room: "r")
        let (mallory, _) = try server.player("mallory", room: "r")
        let (carl, _) = try server.player("carl", room: "r")
        for client in [alice, mallory] { _ = client.readAvailable() }

        let first = try alice.request("NEW")
        #expect(first.final == "OK NEW voted 1/2", "\(first)")
        #expect(first.lines.contains("VOTE alice 1 2 mode=normal penalty=1 hints=on"), "\(first)")
        // Mallory cannot make the room private, nor piggy-back ultra onto alice's vote.
        let locked = try mallory.request("NEW password=mine")
        #expect(locked.error == .denied, "\(locked)")
        let ultra = try mallory.request("NEW mode=ultra")
        #expect(ultra.final == "OK NEW voted 1/2", "a competing proposal: \(ultra)")
        #expect(ultra.lines.contains("VOTE mallory 1 2 mode=ultra penalty=1 hints=on"), "\(ultra)")
        // Carl names alice's options: her proposal wins, as she proposed it. (A bare NEW would agree
        // with the standing proposal, mallory's: as many votes, and the later.)
        let agreed = try carl.request("NEW mode=normal")
        #expect(agreed.final == "OK NEW started", "\(agreed)")
        #expect(agreed.lines.contains("OPTIONS mode=normal penalty=1 hints=on"), "\(agreed)")
        #expect(try carl.request("ROOMS").lines.contains { $0.hasPrefix("ROOM r set 3") }, "still listed")
    }

    @Test func aVoteChangesWithTheVoter() throws {
        let server = EmbeddedServer()
        let (alice, _) = try server.player("alice", room: "r")
        let (bob, _) = try server.player("bob", room: "r")
        let (carl, _) = try server.player("carl", room: "r")
        _ = try alice.request("NEW mode=junior")
        _ = try bob.request("NEW mode=chain")
        // Bob changes his mind: his vote moves to junior, which then has two of three.
        let moved = try bob.request("NEW mode=junior")
        #expect(moved.final == "OK NEW started", "\(moved)")
        #expect(moved.lines.contains("OPTIONS mode=junior penalty=1 hints=on"), "\(moved)")
        _ = carl
    }

    @Test func onlyTheCreatorMaySetThePassword() throws {
        let server = EmbeddedServer()
        let (alice, _) = try server.player("alice", room: "r")
        let (bob, _) = try server.player("bob", room: "r")
        _ = bob.readAvailable()
        let proposed = try alice.request("NEW password=pw")
        #expect(proposed.final == "OK NEW voted 1/2", "\(proposed)")
        #expect(bob.readAvailable().contains("VOTE alice 1 2 mode=normal penalty=1 hints=on private=yes"))
        let agreed = try bob.request("NEW password=pw")
        #expect(
            agreed.error == .denied, "a vote cannot make the room private for the creator: \(agreed)")
    }
}
