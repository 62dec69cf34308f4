import SetTestSupport
import Testing

/// A restart gives every room back as it was, whatever was played: the scenarios that once stopped setd
/// from starting on its own journal (Matchismo's new games read who was online), votes and a countdown
/// under way. Every test here also runs the replay check of ``EmbeddedServer`` after each step.
@Suite struct RestartTests {
    /// Plays Matchismo choices at the positions given, each by whoever holds the turn.
    private func choose(_ positions: [Int], in clients: [String: EmbeddedClient], turn: inout String) throws {
        for position in positions {
            let reply = try clients[turn]!.request("CHOOSE \(BoardView.position(position))")
            try #require(reply.isOK("CHOOSE"), "\(turn) at \(position): \(reply)")
            if let line = reply.lines.last(where: { $0.hasPrefix("TURN ") }) {
                turn = String(line.dropFirst(5))
            }
        }
    }

    /// RESUMEs `token` on the restarted server; returns the client and the snapshot lines.
    private func resume(_ server: EmbeddedServer, _ token: String) throws -> (EmbeddedClient, [String]) {
        let client = try server.connect("back")
        let reply = try client.request("RESUME \(token)")
        try #require(reply.isOK("RESUME"), "\(reply)")
        try #require(reply.newToken != nil, "a RESUME hands out a fresh token: \(reply)")
        return (client, reply.shownLines)
    }

    /// Says `HELLO` and joins `room`; returns the client and its token.
    private func seat(_ server: EmbeddedServer, _ name: String, _ room: String, _ options: String = "") throws
        -> (EmbeddedClient, String)
    {
        let (client, token) = try server.named(name)
        let reply = try client.request("JOIN \(room) \(options)")
        try #require(reply.isOK("JOIN \(room)"), "\(reply)")
        return (client, token)
    }

    @Test func aLonePlayersNewMatchismoGameAndItsChoicesComeBack() throws {
        let server = EmbeddedServer()
        let (ann, token) = try seat(server, "ann", "m", "matchismo")
        #expect(try ann.request("NEW").final == "OK NEW started")
        var turn = "ann"
        try choose([0, 1, 2], in: ["ann": ann], turn: &turn)
        let before = try ann.request("STATE").lines

        let restarted = try server.restarted(after: 5)
        let (back, snapshot) = try resume(restarted, token)
        #expect(snapshot == before, "the room as it was, the lone player online again")
        #expect(snapshot.contains("TURN ann"), "the lone player keeps the turn: \(snapshot)")
        // Play goes on where it stopped.
        try choose([3, 4], in: ["ann": back], turn: &turn)
    }

    @Test func twoVotersAMismatchAndTheOthersChoiceComeBack() throws {
        let server = EmbeddedServer()
        let (ann, annToken) = try seat(server, "ann", "m", "matchismo")
        let (bob, _) = try seat(server, "bob", "m")
        #expect(try ann.request("NEW").final.hasPrefix("OK NEW voted 1/2"))
        #expect(try bob.request("NEW").final == "OK NEW started")
        var turn = "ann"
        // Choose until a mismatch passes the turn to bob, then bob chooses once.
        var position = 0
        while turn == "ann" {
            try choose([position], in: ["ann": ann, "bob": bob], turn: &turn)
            position += 1
        }
        try choose([position], in: ["ann": ann, "bob": bob], turn: &turn)
        let before = try ann.request("STATE").lines

        let restarted = try server.restarted(after: 5)
        let (_, back) = try resume(restarted, annToken)
        #expect(back.last { $0.hasPrefix("BOARD ") } == before.last { $0.hasPrefix("BOARD ") })
        #expect(back.contains("PLAYER bob \(score(before, "bob")) away"), "\(back)")
        #expect(back.contains("PLAYER ann \(score(before, "ann")) online"), "\(back)")
    }

    @Test func aMatchismoRoomDealtAfterReadyComesBackAndPlaysOn() throws {
        let server = EmbeddedServer()
        let (ann, _) = try seat(server, "ann", "m", "matchismo start=ready")
        let (bob, bobToken) = try seat(server, "bob", "m")
        _ = try ann.request("READY")
        _ = try bob.request("READY")
        server.advance(by: 3)
        var turn = "ann"
        try choose([0, 1, 2, 3], in: ["ann": ann, "bob": bob], turn: &turn)
        let before = try bob.request("STATE").lines

        let restarted = try server.restarted(after: 5)
        let (bobBack, back) = try resume(restarted, bobToken)
        #expect(back.last { $0.hasPrefix("BOARD ") } == before.last { $0.hasPrefix("BOARD ") })
        #expect(back.contains("ROOM m matchismo 2 playing"), "\(back)")
        // Bob alone is online: the turn is his, and he plays on.
        var bobTurn = "bob"
        #expect(back.contains("TURN bob"), "\(back)")
        try choose([10], in: ["bob": bobBack], turn: &bobTurn)
    }

    @Test func aStandingVoteComesBack() throws {
        let server = EmbeddedServer()
        let (ann, annToken) = try seat(server, "ann", "v")
        let (_, bobToken) = try seat(server, "bob", "v")
        _ = try seat(server, "carl", "v")
        #expect(try ann.request("NEW mode=junior").final == "OK NEW voted 1/2")

        let restarted = try server.restarted(after: 1)
        _ = try resume(restarted, annToken)
        let (bobBack, _) = try resume(restarted, bobToken)
        // Ann's vote was kept: Bob's vote for the same options is the majority of two online.
        #expect(try bobBack.request("NEW mode=junior").final == "OK NEW started")
    }

    @Test func aCountdownUnderWayCountsDownAgainAfterARestartAndDeals() throws {
        let server = EmbeddedServer()
        let (ann, token) = try seat(server, "ann", "night", "start=ready")
        #expect(try ann.request("START").final == "OK START")
        server.advance(by: 1)

        let restarted = try server.restarted(after: 2)
        restarted.advance(by: 1)  // the first tick starts the countdown again
        let (back, waiting) = try resume(restarted, token)
        #expect(waiting.first == "ROOM night set 1 waiting", "\(waiting)")
        let dealt = back.lines(arrivingWithin: 3)
        #expect(dealt.contains("ROOM night set 1 playing"), "\(dealt)")
        #expect(dealt.contains { $0.hasPrefix("BOARD ") && $0.count > 20 }, "\(dealt)")
    }

    /// The score of `name` in snapshot lines.
    private func score(_ lines: [String], _ name: String) -> Int {
        lines.first { $0.hasPrefix("PLAYER \(name) ") }.flatMap { Int(words($0)[2]) } ?? 0
    }
}
