import SetGame
import SetProtocol

/// A busy game night played against an ``EmbeddedServer``, for tests of the journal: every kind of room
/// and record — each SET mode, Matchismo with a vote and a mismatch, a waiting room with READY, a
/// countdown, a kick and a lock, a finished rated game, a claimed name, chat (with text Unicode glues to
/// its neighbours), drops, a resume, a move between rooms, a grace expiry and a vote still standing.
public enum BusyNight {
    /// Plays the night on `server` (which must have a seed); returns the server for chaining.
    @discardableResult
    public static func play(on server: EmbeddedServer) throws -> EmbeddedServer {
        // A rated game to the end, then a new one with a wrong claim and a set.
        let (ann, annJoin) = try server.player("ann", room: "fun")
        let (bob, _) = try server.player("bob", room: "fun")
        _ = try ann.request("CHAT hello \u{0600} e\u{301} 👩‍👩‍👧 ~ % done")
        try ann.playToTheEnd(from: annJoin.lines)
        let new = try bob.request("NEW")
        var board = try require(BoardView.last(in: new.lines), "no board after NEW")
        _ = try ann.request(board.claim(try require(board.nonSet, "no non-set")))
        let taken = try bob.request(board.claim(try require(board.sets.first, "no set")))
        board = try require(BoardView.last(in: taken.lines), "no board after a set")
        _ = try bob.request("CHAT nice")

        // A claimed name, and the other modes with a set or a wrong claim each.
        _ = try server.connect("gus").request("HELLO gus key=s3cret")
        for (name, mode) in [("jo", "junior"), ("chi", "chain"), ("uli", "ultra")] {
            let (client, join) = try server.player(name, room: mode, options: "mode=\(mode)")
            let view = try require(BoardView.last(in: join.lines), "no board in \(mode)")
            if let claim = SetMode(rawValue: mode)?.claims(on: view.cards, chain: nil).first {
                let positions = claim.compactMap { view.cards.firstIndex(of: $0) }
                _ = try client.request(view.claim(positions))
            }
            _ = try client.request(view.claim(try require(view.nonSet, "no non-set in \(mode)")))
            _ = try client.request("CHAT \(mode) here")
        }

        // Matchismo: a vote for a new game that passes, choices with a mismatch, a drop and a resume.
        let (carl, _) = try server.named("carl")
        _ = try carl.request("JOIN m matchismo")
        let (dan, danToken) = try server.named("dan")
        _ = try dan.request("JOIN m")
        _ = try carl.request("NEW n=3")
        _ = try dan.request("NEW n=3")
        var turn = (name: "carl", client: carl)
        for position in 0..<5 {
            let reply = try turn.client.request("CHOOSE \(BoardView.position(position))")
            if let line = reply.lines.last(where: { $0.hasPrefix("TURN ") }), line != "TURN \(turn.name)" {
                turn = turn.name == "carl" ? ("dan", dan) : ("carl", carl)
            }
        }
        dan.close()
        server.advance(by: 2)
        let danBack = try server.connect("dan-again")
        _ = try danBack.request("RESUME \(danToken)")

        // A waiting room: READY, the host's LOCK and KICK, START, the countdown and the deal.
        let (erin, _) = try server.player("erin", room: "night", options: "start=ready")
        let (finn, _) = try server.player("finn", room: "night")
        let (hal, _) = try server.player("hal", room: "night")
        _ = try finn.request("READY")
        _ = try erin.request("KICK hal")
        _ = try erin.request("LOCK")
        _ = hal
        _ = try erin.request("START")
        server.advance(by: 3)
        let dealt = try require(BoardView.last(in: finn.readAvailable()), "no deal in night")
        _ = try finn.request(dealt.claim(try require(dealt.sets.first, "no set in night")))

        // A move between rooms, a vote left standing, and a player whose grace runs out.
        _ = try bob.request("JOIN jo")
        let (ivy, _) = try server.player("ivy", room: "fun")
        let (kim, _) = try server.player("kim", room: "fun")
        _ = try ivy.request("NEW mode=junior")
        _ = kim
        let (lou, _) = try server.player("lou", room: "lone")
        lou.close()
        server.advance(by: server.core.configuration.grace + 2)
        _ = try ann.request("CHAT last one")
        return server
    }

    private static func require<T>(_ value: T?, _ what: String) throws -> T {
        guard let value else { throw ClientError(description: "busy night: \(what)") }
        return value
    }
}
