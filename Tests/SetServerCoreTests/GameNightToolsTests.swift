import SetTestSupport
import Testing

/// What a host and the players need for a whole night from any client (issue 24): a kick says why,
/// `UNREADY` takes a `READY` back and stops the countdown, a bare `NEW` agrees with the standing
/// proposal that everyone can see, the game's start is in the snapshot, and refused rooms are logged.
/// `EmbeddedServer` replays the journal after every input, so each of these also replays as it was.
@Suite struct GameNightToolsTests {
    /// Ann hosts room `room`; bob, and carl if asked, sit down; everyone is read up to date.
    private func room(
        _ server: EmbeddedServer, _ name: String = "night", options: String = "", carl: Bool = false
    ) throws -> [EmbeddedClient] {
        let (ann, _) = try server.player("ann", room: name, options: options)
        var players = [ann, try server.player("bob", room: name).0]
        if carl { players.append(try server.player("carl", room: name).0) }
        for player in players { _ = player.readAvailable() }
        return players
    }

    @Test func aKickSaysWhyToTheRoomAndToTheKickedPlayer() throws {
        let server = EmbeddedServer()
        let players = try room(server, carl: true)
        let (ann, bob, carl) = (players[0], players[1], players[2])
        let kick = try ann.request("KICK bob  spamming the chat, sorry")
        #expect(kick.final == "OK KICK bob")
        #expect(kick.lines.first == "KICKED bob ann spamming the chat, sorry", "\(kick)")
        #expect(bob.readAvailable().first == "KICKED bob ann spamming the chat, sorry")
        #expect(carl.readAvailable().prefix(2) == ["KICKED bob ann spamming the chat, sorry", "LEFT bob"])
        #expect(
            server.logs.contains {
                $0.name == "kick" && $0.description.contains("reason=\"spamming the chat, sorry\"")
            })
        // Without a reason the line is as it always was.
        let plain = try ann.request("KICK carl")
        #expect(plain.lines.first == "KICKED carl ann" && plain.final == "OK KICK carl")
        // Control characters in a reason never reach anyone's terminal.
        let (dan, _) = try server.player("dan", room: "night", host: "127.0.0.4")
        _ = ann.readAvailable()
        #expect(try ann.request("KICK dan \u{1B}[2Jbye").lines.first == "KICKED dan ann bye")
        _ = dan.readAvailable()
    }

    @Test func unreadyTakesBackReadyAndStopsTheCountdownForEveryone() throws {
        let server = EmbeddedServer()
        let players = try room(server, options: "start=ready")
        let (ann, bob) = (players[0], players[1])
        _ = try ann.request("READY")
        let withdrawn = try ann.request("UNREADY")
        #expect(withdrawn.lines == ["UNREADY ann 0 2"] && withdrawn.final == "OK UNREADY 0 2", "\(withdrawn)")
        #expect(bob.readAvailable() == ["READY ann 1 2", "UNREADY ann 0 2"])
        // Everyone ready: the countdown starts; bob takes his READY back in the middle of it.
        _ = try ann.request("READY")
        #expect(try bob.request("READY").lines.last == "COUNTDOWN 3")
        server.advance(by: 1)
        #expect(ann.readAvailable().last == "COUNTDOWN 2")
        let stop = try bob.request("UNREADY")
        #expect(stop.lines == ["COUNTDOWN 2", "UNREADY bob 1 2", "COUNTDOWN -"], "\(stop)")
        #expect(ann.readAvailable() == ["UNREADY bob 1 2", "COUNTDOWN -"])
        server.advance(by: 5)
        #expect(ann.readAvailable().isEmpty, "no deal: the room waits again")
        #expect(try ann.request("STATE").lines.first == "ROOM night set 2 waiting")
        #expect(try ann.request("CHOOSE a b c").error == .notStarted)
        // Ready again: a fresh countdown from 3, then the deal.
        #expect(try bob.request("READY").lines == ["READY bob 2 2", "COUNTDOWN 3"])
        server.advance(by: 3)
        #expect(ann.readAvailable().contains("ROOM night set 2 playing"))
        #expect(try bob.request("UNREADY").error == .notWaiting)
        _ = bob.readAvailable()
    }

    @Test func unreadyStopsTheHostsStartAndARestartDoesNotResumeIt() throws {
        let server = EmbeddedServer { $0.grace = 600 }
        let players = try room(server, options: "start=ready")
        let (ann, bob) = (players[0], players[1])
        #expect(try ann.request("START").lines == ["COUNTDOWN 3"])
        // Bob never said READY, and says he is not: the host's countdown stops too.
        #expect(try bob.request("UNREADY").lines == ["COUNTDOWN 3", "UNREADY bob 0 2", "COUNTDOWN -"])
        _ = ann.readAvailable()
        // A restart from the journal finds the room waiting, with no countdown to resume.
        let restarted = try server.restarted(after: 1)
        let (carl, join) = try restarted.player("carl", room: "night")
        #expect(join.lines.first == "ROOM night set 3 waiting")
        restarted.advance(by: 5)
        #expect(carl.readAvailable().allSatisfy { !$0.hasPrefix("COUNTDOWN") && !$0.hasPrefix("BOARD") })
    }

    @Test func startAfterTheGameIsOverSaysItIsOverNotStarted() throws {
        let server = EmbeddedServer()
        let players = try room(server, options: "start=ready mode=junior")
        let (ann, bob) = (players[0], players[1])
        #expect(try ann.request("START").isOK("START"))
        server.advance(by: 3)
        _ = bob.readAvailable()
        try ann.playToTheEnd(from: ann.readAvailable())
        let late = try ann.request("START")
        #expect(late.error == .notWaiting)
        #expect(late.final.hasSuffix("the game in night is over; NEW starts another"), "\(late)")
        #expect(try bob.request("READY").final.hasSuffix("is over; NEW starts another"))
    }

    @Test func aBareNewAgreesWithTheStandingProposalAndEveryoneSeesIt() throws {
        let server = EmbeddedServer()
        let players = try room(server, carl: true)
        let (ann, bob, carl) = (players[0], players[1], players[2])
        let junior = "mode=junior penalty=1 hints=on"
        // Bob asks for junior mid-game: everyone sees what is voted on and who is for it.
        let proposed = try bob.request("NEW mode=junior")
        #expect(proposed.final == "OK NEW voted 1/2")
        #expect(proposed.lines == ["VOTE bob 1 2 \(junior)", "PROPOSAL 1 2 bob \(junior)"])
        #expect(ann.readAvailable() == ["VOTE bob 1 2 \(junior)", "PROPOSAL 1 2 bob \(junior)"])
        // Somebody joining mid-vote finds it in the snapshot (and needs one vote more).
        let (dan, danJoin) = try server.player("dan", room: "night")
        #expect(danJoin.lines.last == "PROPOSAL 1 3 bob \(junior)", "\(danJoin)")
        #expect(
            danJoin.lines.filter { $0.hasPrefix("PROPOSAL") }.count == 1, "once, in the snapshot: \(danJoin)")
        #expect(ann.readAvailable().last == "PROPOSAL 1 3 bob \(junior)")
        // Carl's bare NEW (set-cli's "/new to agree") is a vote for junior, not a rival proposal.
        let agreed = try carl.request("NEW")
        #expect(agreed.final == "OK NEW voted 2/3", "\(agreed)")
        #expect(agreed.lines.suffix(2) == ["VOTE carl 2 3 \(junior)", "PROPOSAL 2 3 bob,carl \(junior)"])
        // Dan leaves: two of three online are enough, and nobody said anything new.
        dan.close()
        #expect(ann.readAvailable().last == "PROPOSAL 2 2 bob,carl \(junior)")
        let started = try ann.request("NEW")
        #expect(started.final == "OK NEW started", "\(started)")
        #expect(started.lines.contains("OPTIONS \(junior)"))
        #expect(!started.lines.contains { $0.hasPrefix("PROPOSAL") }, "no proposal stands in the new game")
    }

    @Test func aVoterWhoDropsTakesTheProposalWithThemAndTheRoomIsTold() throws {
        let server = EmbeddedServer()
        let players = try room(server, carl: true)
        let (ann, bob) = (players[0], players[1])
        _ = try bob.request("NEW mode=chain")
        _ = ann.readAvailable()
        bob.close()
        #expect(ann.readAvailable() == ["PLAYER bob 0 away", "PROPOSAL -"])
        // With no proposal standing, a bare NEW proposes the room's own options again, as before.
        #expect(try ann.request("NEW").lines.last == "PROPOSAL 1 2 ann mode=normal penalty=1 hints=on")
    }

    @Test func theStartOfTheGameIsTheSameForEveryClientAndAfterARestart() throws {
        let server = EmbeddedServer { $0.grace = 600 }
        let players = try room(server, "clock")
        let (ann, bob) = (players[0], players[1])
        let started = try #require(try ann.request("STATE").lines.last)
        #expect(started.hasPrefix("STARTED "))
        server.advance(by: 42)
        #expect(try bob.request("STATE").lines.last == started, "the moment of the deal, not of the question")
        let restarted = try server.restarted(after: 30)
        let snapshot = try restarted.connect("eve").request("WATCH clock")
        #expect(snapshot.lines.last == started, "a restart keeps the game's start")
    }

    @Test func roomsRefusedForALimitAreLoggedOnceASecondWithTheCount() throws {
        let server = EmbeddedServer { $0.maxRoomsPerIP = 1 }
        let (ann, _) = try server.player("ann", room: "first")
        for _ in 0..<5 { #expect(try ann.request("JOIN another").error == .tooManyRooms) }
        let refusals = server.logs.filter { $0.name == "refuse-room" }
        #expect(refusals.count == 1, "\(refusals)")
        #expect(refusals.first?.level == .warn)
        #expect(refusals.first?.description.contains("refused=1") == true, "\(refusals)")
        server.advance(by: 1)
        #expect(try ann.request("JOIN another").error == .tooManyRooms)
        let later = server.logs.filter { $0.name == "refuse-room" }
        #expect(later.count == 2 && later.last?.description.contains("refused=5") == true, "\(later)")
    }
}
