import SetServerCore
import SetTestSupport
import Testing

/// The night's standings: a room adds up its games (3/2/1 points by place) until the host resets them;
/// shown after every game, by `STANDINGS`, as CSV over the line protocol and HTTP, and kept by the
/// journal. Every step is checked against a replay of the journal.
@Suite struct StandingsTests {
    @Test func twoGamesAddUpAndTiesShareAPlace() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "night")
        let (bob, _) = try server.player("bob", room: "night")
        _ = ann.readAvailable()
        #expect(try bob.request("STANDINGS").lines == ["STANDINGS 0"])

        let (sets, end) = try ann.playToTheEnd(from: try ann.request("STATE").lines, atMost: 40)
        let afterOver = Array(end.lines.drop { !$0.hasPrefix("DURATION ") }.dropFirst())
        #expect(afterOver.first == "STANDINGS 1")
        let annLine = try #require(afterOver.dropFirst().first)
        #expect(annLine.hasPrefix("STANDING 1 ann points=3 wins=1 games=1 sets=\(sets) best="))
        #expect(afterOver.dropFirst(2).first == "STANDING 2 bob points=2 wins=0 games=1 sets=0 best=-")
        #expect(bob.readAvailable().contains("STANDING 2 bob points=2 wins=0 games=1 sets=0 best=-"))

        // Game 2, bob takes every set: five points each, a win each, so they share first place.
        let newGame = try bob.request("NEW")
        _ = ann.readAvailable()
        let (bobSets, _) = try bob.playToTheEnd(from: newGame.lines, atMost: 40)
        _ = ann.readAvailable()
        let reply = try ann.request("STANDINGS")
        #expect(reply.final == "OK STANDINGS 3")
        #expect(reply.lines.first == "STANDINGS 2")
        let places = reply.lines.dropFirst().map { $0.split(separator: " ").prefix(5).joined(separator: " ") }
        #expect(
            Set(places) == ["STANDING 1 ann points=5 wins=1", "STANDING 1 bob points=5 wins=1"],
            "equal points and wins share first")
        // Among them, more sets first.
        if sets != bobSets { #expect(places.first?.contains(sets > bobSets ? " ann " : " bob ") == true) }

        let csv = try bob.request("STANDINGS csv")
        #expect(csv.final == "OK STANDINGS 3")
        #expect(csv.lines.first == "CSV place,name,points,wins,games,sets,best_ms")
        #expect(csv.lines.dropFirst().allSatisfy { $0.hasPrefix("CSV 1,") && $0.contains(",5,1,2,") })
        let http = try server.get("/standings.csv?room=night")
        #expect(http.status == 200)
        #expect(
            String(decoding: http.body, as: UTF8.self)
                == csv.lines.map { $0.dropFirst("CSV ".count) + "\r\n" }.joined())
        #expect(try server.get("/standings.csv?room=nosuch").status == 404)
        #expect(try server.get("/standings.csv").status == 400)

        // A restart keeps them.
        let restarted = try server.restarted(after: 1)
        let (watcher, _) = try restarted.named("eve")
        #expect(try watcher.request("WATCH night").isOK("WATCH"))
        #expect(try watcher.request("STANDINGS").lines == reply.lines)
    }

    @Test func onlyTheHostResetsThemAndEveryoneIsTold() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "night")
        let (bob, _) = try server.player("bob", room: "night")
        _ = ann.readAvailable()
        try ann.playToTheEnd(from: try ann.request("STATE").lines, atMost: 40)
        _ = bob.readAvailable()
        #expect(try bob.request("STANDINGS reset").error == .denied)
        #expect(try bob.request("STANDINGS sideways").error == .args)
        #expect(try ann.request("STANDINGS reset").final == "OK STANDINGS 0")
        #expect(bob.readAvailable() == ["STANDINGS 0"])
        #expect(try bob.request("STANDINGS").lines == ["STANDINGS 0"])
        #expect(try bob.request("STANDINGS csv").lines == ["CSV place,name,points,wins,games,sets,best_ms"])
    }

    @Test func aPrivateRoomsStandingsAreNotServedOverHTTP() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "secret", options: "password=hush")
        #expect(try ann.request("STANDINGS csv").isOK("STANDINGS"))
        #expect(try server.get("/standings.csv?room=secret").status == 404)
    }
}
