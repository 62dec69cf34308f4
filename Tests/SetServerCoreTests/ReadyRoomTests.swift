import SetTestSupport
import Testing

/// Rooms made with `start=ready`: they wait for `READY` (or the host's `START`), count down on the
/// virtual clock, then deal. Nobody sees or claims a card before the deal.
@Suite struct ReadyRoomTests {
    /// Ann creates a waiting room, Bob joins it; both are read up to date.
    private func waitingRoom(_ server: EmbeddedServer) throws -> (ann: EmbeddedClient, bob: EmbeddedClient) {
        let (ann, join) = try server.player("ann", room: "night", options: "start=ready")
        #expect(
            join.lines == [
                "ROOM night set 1 waiting", "OPTIONS mode=normal penalty=1 hints=on start=ready", "BOARD 1",
                "DECK 81", "PLAYER ann 0 online", "HOST ann",
            ], "the waiting snapshot: no cards dealt, the full deck, the host")
        #expect(join.final == "OK JOIN night 6")
        let (bob, bobJoin) = try server.player("bob", room: "night")
        #expect(bobJoin.lines.first == "ROOM night set 2 waiting", "a joiner sees the room waiting")
        #expect(bobJoin.lines.contains("BOARD 1") && bobJoin.lines.last == "HOST ann")
        #expect(ann.readAvailable() == ["JOINED bob", "PLAYER bob 0 online", "ROOM night set 2 waiting"])
        return (ann, bob)
    }

    /// The host starts the waiting room and the countdown runs out; returns the deal the host read.
    private func startAndDeal(_ server: EmbeddedServer, host: EmbeddedClient, _ other: EmbeddedClient) throws
        -> [String]
    {
        #expect(try host.request("START").final == "OK START")
        server.advance(by: 3)
        let dealt = host.readAvailable()
        // The other player also read the `COUNTDOWN 3` that the host had in its reply.
        #expect(other.readAvailable() == ["COUNTDOWN 3"] + dealt, "everyone sees the same deal")
        return dealt
    }

    @Test func nobodyClaimsBeforeTheCountdownAndEveryoneReadyDeals() throws {
        let server = EmbeddedServer()
        let (ann, bob) = try waitingRoom(server)
        for line in ["CHOOSE a b c", "CHOOSE a b c @1", "CHOOSE 1RES 2GFT 3PHC"] {
            let reply = try bob.request(line)
            #expect(reply.error == .notStarted, "\(line): \(reply)")
        }
        #expect(try ann.request("HINT").error == .notStarted)
        let annReady = try ann.request("READY")
        #expect(annReady.lines == ["READY ann 1 2"] && annReady.final == "OK READY 1 2")
        #expect(bob.readAvailable() == ["READY ann 1 2"])
        // Bob is ready too: the countdown starts at once.
        let bobReady = try bob.request("READY")
        #expect(bobReady.lines == ["READY bob 2 2", "COUNTDOWN 3"] && bobReady.final == "OK READY 2 2")
        #expect(ann.readAvailable() == ["READY bob 2 2", "COUNTDOWN 3"])
        #expect(try ann.request("CHOOSE a b c").error == .notStarted, "not during the countdown either")
        server.advance(by: 0.5)
        #expect(ann.readAvailable().isEmpty, "nothing half a second in")
        server.advance(by: 0.5)
        #expect(ann.readAvailable() == ["COUNTDOWN 2"])
        server.advance(by: 1)
        #expect(ann.readAvailable() == ["COUNTDOWN 1"])
        #expect(bob.readAvailable() == ["COUNTDOWN 2", "COUNTDOWN 1"])
        server.advance(by: 1)
        let dealt = ann.readAvailable()
        #expect(bob.readAvailable() == dealt)
        let board = try #require(BoardView.last(in: dealt))
        #expect(
            dealt == [
                "ROOM night set 2 playing", dealt[1], "DECK \(81 - board.cards.count)",
                "STARTED \(Int((server.now.wall * 1000).rounded()))",
            ], "the deal, and the moment it was: \(dealt)")
        // This seed's first twelve cards hold no set, so fifteen are dealt.
        #expect(board.revision == 2 && board.cards.count >= 12 && !board.sets.isEmpty)
        #expect(try ann.request("READY").error == .notWaiting)
        #expect(try ann.request("START").error == .notWaiting)
        // A claim aimed at the empty board is stale; one at the dealt board is a set.
        #expect(try bob.request("CHOOSE a b c @1").error == .stale)
        #expect(try ann.request(board.claim(try #require(board.sets.first))).isOK("CHOOSE"))
        #expect(server.logs.contains { $0.name == "deal" && $0.description.contains("room=night") })
    }

    @Test func onlyTheHostStartsAndStartDealsAfterTheCountdown() throws {
        let server = EmbeddedServer()
        let (ann, bob) = try waitingRoom(server)
        let refused = try bob.request("START")
        #expect(refused.error == .denied && refused.final.contains("ann"), "\(refused)")
        #expect(ann.readAvailable().isEmpty, "a refused START tells nobody anything")
        let started = try ann.request("START")
        #expect(started.lines == ["COUNTDOWN 3"] && started.final == "OK START")
        // A third player arriving during the countdown sees the waiting room, then the deal.
        let (carl, carlJoin) = try server.player("carl", room: "night")
        #expect(carlJoin.lines.first == "ROOM night set 3 waiting")
        server.advance(by: 3)
        let dealt = carl.readAvailable()
        #expect(dealt.suffix(4).first == "ROOM night set 3 playing", "\(dealt)")
        #expect(Array(dealt.prefix(2)) == ["COUNTDOWN 2", "COUNTDOWN 1"])
        #expect((BoardView.last(in: dealt)?.cards.count ?? 0) >= 12)
        _ = bob.readAvailable()
    }

    @Test func aClaimWithoutRevisionRightAfterTheDealIsReadAgainstTheDealtBoard() throws {
        let server = EmbeddedServer()
        let (ann, bob) = try waitingRoom(server)
        let dealt = try startAndDeal(server, host: ann, bob)
        let board = try #require(BoardView.last(in: dealt))
        // Within the reaction window of the deal, positions typed from nc without `@rev` can only have
        // been read on the dealt board: the empty board before it had no cards there.
        let claim = try bob.request(board.claim(try #require(board.sets.first), withRevision: false))
        #expect(claim.isOK("CHOOSE"), "\(claim)")
        #expect(claim.lines.contains("PLAYER bob 1 online"), "one set, one point: \(claim)")
    }

    @Test func aReadyPlayerLeftAloneStartsWhenTheOthersGo() throws {
        let server = EmbeddedServer()
        let (ann, bob) = try waitingRoom(server)
        _ = try ann.request("READY")
        // Bob is not ready and leaves: everyone left is ready, so the countdown starts at the next tick.
        #expect(try bob.request("LEAVE").isOK("LEAVE"))
        #expect(ann.readAvailable() == ["LEFT bob", "ROOM night set 1 waiting"])
        server.advance(by: 1)
        #expect(ann.readAvailable() == ["COUNTDOWN 3"])
        server.advance(by: 3)
        #expect(ann.readAvailable().contains("ROOM night set 1 playing"))
    }

    @Test func aNewGameAfterTheEndWaitsAgain() throws {
        let server = EmbeddedServer()
        let (ann, bob) = try waitingRoom(server)
        let dealt = try startAndDeal(server, host: ann, bob)
        let (_, last) = try ann.playToTheEnd(from: dealt)
        #expect(last.lines.contains { $0.hasPrefix("OVER ") })
        _ = bob.readAvailable()
        // Bob (not the host) may start the next game at once: the game is over.
        let new = try bob.request("NEW")
        #expect(new.final == "OK NEW started")
        #expect(new.lines.first == "NEWGAME bob")
        #expect(new.lines.contains("ROOM night set 2 waiting"), "\(new)")
        #expect(new.lines.contains { $0.hasPrefix("BOARD ") && words($0).count == 2 }, "no cards: \(new)")
        #expect(new.lines.contains("PLAYER ann 0 online") && new.lines.contains("HOST ann"))
        #expect(try ann.request("CHOOSE a b c").error == .notStarted)
        let ready = try ann.request("READY")
        #expect(ready.final == "OK READY 1 2", "nobody is ready in the new game until they say so: \(ready)")
    }

    @Test func theHostsOptionsApplyAtOnceWhileWaitingAndOthersVote() throws {
        let server = EmbeddedServer()
        let (ann, bob) = try waitingRoom(server)
        let vote = try bob.request("NEW mode=junior")
        #expect(vote.final == "OK NEW voted 1/2", "\(vote)")
        let applied = try ann.request("NEW mode=junior penalty=0")
        #expect(applied.final == "OK NEW started")
        #expect(applied.lines.contains("OPTIONS mode=junior penalty=0 hints=on start=ready"), "\(applied)")
        #expect(applied.lines.contains("DECK 27") && applied.lines.contains("ROOM night set 2 waiting"))
        // The host may also turn the wait off: the next game deals at once.
        let now = try ann.request("NEW start=now")
        #expect(now.lines.contains("ROOM night set 2 playing"))
        #expect((BoardView.last(in: now.lines)?.cards.count ?? 0) >= 12)
        _ = bob.readAvailable()
    }

    @Test func joiningWithStartNeverMismatchesAnExistingRoom() throws {
        let server = EmbeddedServer()
        _ = try server.player("ann", room: "plain")
        let (_, join) = try server.player("bob", room: "plain", options: "start=ready")
        #expect(join.lines.first == "ROOM plain set 2 playing", "the option is ignored: \(join)")
        let (carl, _) = try server.named("carl")
        #expect(try carl.request("JOIN other start=soon").error == .badOption)
    }

    @Test func aStartNowRoomIsAsBeforeWithAHostLine() throws {
        let server = EmbeddedServer()
        let (_, join) = try server.player("ann", room: "plain")
        #expect(join.lines.first == "ROOM plain set 1 playing")
        #expect(join.lines.contains("OPTIONS mode=normal penalty=1 hints=on"))
        #expect(join.lines.suffix(2).first == "HOST ann" && join.final == "OK JOIN plain 7")
        #expect(join.lines.last == "STARTED \(Int((server.now.wall * 1000).rounded()))", "dealt at once")
    }

    @Test func aMatchismoRoomWaitsToo() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "cards", options: "matchismo start=ready")
        #expect(join.lines.contains("ROOM cards matchismo 1 waiting"))
        #expect(
            join.lines.contains("BOARD 1") && join.lines.contains("DECK 52") && join.lines.contains("TURN -"))
        #expect(try ann.request("CHOOSE a").error == .notStarted)
        _ = try ann.request("READY")
        server.advance(by: 3)
        let dealt = ann.readAvailable()
        #expect(dealt.contains("ROOM cards matchismo 1 playing") && dealt.contains("TURN ann"), "\(dealt)")
        #expect(try ann.request("CHOOSE a").isOK("CHOOSE"))
    }
}
