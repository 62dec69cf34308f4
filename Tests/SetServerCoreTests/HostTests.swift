import SetTestSupport
import Testing

/// The room's host: its creator, passed on when they leave; the only one who may KICK, LOCK and
/// UNLOCK. Every game event reaches the log at info.
@Suite struct HostTests {
    @Test func theHostKicksAndTheKickedMayNotComeBack() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "den")
        let (bob, _) = try server.player("bob", room: "den")
        let (carl, _) = try server.player("carl", room: "den")
        _ = ann.readAvailable()
        _ = bob.readAvailable()
        #expect(try bob.request("KICK carl").error == .denied, "only the host kicks")
        #expect(try ann.request("KICK ann").error == .args)
        #expect(try ann.request("KICK nobody").error == .args)
        let kick = try ann.request("KICK carl")
        #expect(kick.final == "OK KICK carl")
        #expect(kick.lines == ["KICKED carl ann", "LEFT carl", "ROOM den set 2 playing"], "\(kick)")
        #expect(bob.readAvailable() == ["KICKED carl ann", "LEFT carl", "ROOM den set 2 playing"])
        #expect(carl.readAvailable() == ["KICKED carl ann"], "the kicked player hears it and nothing after")
        #expect(try carl.request("STATE").error == .noRoom, "carl is in no room")
        let again = try carl.request("JOIN den")
        #expect(again.error == .denied, "\(again)")
        #expect(try carl.request("JOIN elsewhere").isOK("JOIN"), "other rooms are open to carl")
        #expect(server.logs.contains { $0.name == "kick" && $0.description.contains("name=carl") })
        #expect(server.journal.contains { $0.text.hasPrefix("kick den carl ann") })
    }

    @Test func aLockedRoomTakesNoNewPlayersButKeepsItsOwnAndSpectators() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "den")
        let (bob, _) = try server.player("bob", room: "den")
        _ = ann.readAvailable()
        #expect(try bob.request("LOCK").error == .denied)
        let lock = try ann.request("LOCK")
        #expect(lock.lines == ["LOCKED ann"] && lock.final == "OK LOCK den")
        #expect(bob.readAvailable() == ["LOCKED ann"])
        let (carl, _) = try server.named("carl")
        let refused = try carl.request("JOIN den")
        #expect(refused.error == .locked, "\(refused)")
        #expect(try carl.request("WATCH den").isOK("WATCH"), "spectators still get in")
        #expect(try bob.request("JOIN den").isOK("JOIN"), "a seated player's JOIN still works")
        // An away player resumes their seat in a locked room.
        let (dan, danToken) = try server.named("dan")
        #expect(try ann.request("UNLOCK").isOK("UNLOCK"))
        #expect(try dan.request("JOIN den").isOK("JOIN"))
        _ = try ann.request("LOCK")
        dan.close()
        let back = try server.connect("dan again")
        #expect(try back.request("RESUME \(danToken)").isOK("RESUME"))
        let unlock = try ann.request("UNLOCK")
        #expect(unlock.lines.last == "UNLOCKED ann")
        #expect(try carl.request("JOIN den").isOK("JOIN"))
    }

    @Test func theHostIsPassedOnInJoinOrder() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "den")
        let (bob, _) = try server.player("bob", room: "den")
        let (carl, _) = try server.player("carl", room: "den")
        _ = bob.readAvailable()
        _ = carl.readAvailable()
        _ = try ann.request("QUIT")
        #expect(bob.readAvailable() == ["LEFT ann", "ROOM den set 2 playing", "HOST bob"])
        #expect(carl.readAvailable() == ["LEFT ann", "ROOM den set 2 playing", "HOST bob"])
        #expect(try carl.request("STATE").lines.contains("HOST bob"))
        #expect(try bob.request("LOCK").isOK("LOCK"), "the new host's commands work")
        #expect(try carl.request("KICK bob").error == .denied)
        // A host who drops stays host through the grace period, then it passes on.
        bob.close()
        _ = carl.readAvailable()
        server.advance(by: server.core.configuration.grace + 1)
        #expect(carl.readAvailable().contains("HOST carl"))
    }

    /// Issue 23: rights are the seat's. After the creator and host ann QUITs, a newcomer who says
    /// `HELLO ann` may not set a password, KICK or LOCK; bob, seated longest, holds both rights, and a
    /// restart agrees.
    @Test func rightsAreTheSeatsNotTheNames() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "den")
        let (bob, _) = try server.player("bob", room: "den")
        let (carl, _) = try server.player("carl", room: "den")
        _ = try ann.request("QUIT")
        #expect(carl.readAvailable().last == "HOST bob", "everyone is told who hosts now")
        let (impostor, _) = try server.player("ann", room: "den")
        _ = bob.readAvailable()
        let password = try impostor.request("NEW password=mine")
        #expect(password.error == .denied, "\(password)")
        #expect(password.final.contains("bob"), "the refusal names who may: \(password.final)")
        #expect(try impostor.request("KICK carl").error == .denied)
        #expect(try impostor.request("LOCK").error == .denied)
        #expect(try carl.request("JOIN den").isOK("JOIN"), "the regulars are not locked out")
        let restarted = try server.restarted(after: 1)
        #expect(restarted.core.snapshot(ofRoom: "den")?.creator == "bob")
        #expect(restarted.core.snapshot(ofRoom: "den")?.night.host == "bob")
        #expect(try bob.request("NEW password=ours").isOK("NEW"), "the new creator may set one")
    }

    @Test func gameEventsReachTheLogAtInfo() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "den")
        let (bob, _) = try server.player("bob", room: "den")
        let board = try #require(BoardView.last(in: join.lines))
        _ = try bob.request(board.claim(try #require(board.nonSet)))
        _ = ann.readAvailable()
        let (_, last) = try ann.playToTheEnd(from: join.lines)
        #expect(last.lines.contains { $0.hasPrefix("OVER ") })
        _ = try bob.request("NEW")
        _ = try bob.request("LEAVE")
        let info = server.logs.filter { $0.level == .info }.map(\.description)
        for event in ["join", "wrong", "set", "game-over", "new-game", "leave"] {
            #expect(info.contains { $0.hasPrefix("info \(event) room=den") }, "\(event): \(info)")
        }
        let over = try #require(info.first { $0.hasPrefix("info game-over") })
        #expect(over.contains("scores=\"ann:"), "\(over)")
        #expect(info.filter { $0.hasPrefix("info set room=den") }.count >= 20, "one line per set")
    }
}
