import SetTestSupport
import SetTestTraits
import Testing

/// Issue 23's attacks on hosts, kicks and private rooms, replayed over loopback TCP as a mischievous
/// player on the LAN would, each connection from a loopback address of its own (127.0.0.2 … stand for
/// other machines). Each fails.
@Suite(.ownThread) struct TrustLoopbackTests {
    /// Connects from `source`, says `HELLO <name>` and, given a room, joins it.
    private func player(_ server: TestServer, _ name: String, from source: String, room: String? = nil)
        throws -> TestClient
    {
        let client = try TestClient(port: server.port, label: name, source: source)
        #expect(try client.readLine().hasPrefix("SETD 1 "))
        #expect(try client.request("HELLO \(name)").isOK("HELLO"))
        if let room { #expect(try client.request("JOIN \(room)").isOK("JOIN")) }
        return client
    }

    @Test func aNewConnectionWithTheCreatorsNameGetsNoRights() throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try player(server, "alice", from: "127.0.0.2", room: "den")
        let bob = try player(server, "bob", from: "127.0.0.3", room: "den")
        #expect(try alice.request("QUIT").isOK("QUIT"))
        #expect(try bob.expect(prefix: "HOST ").line == "HOST bob", "everyone is told")
        let impostor = try player(server, "alice", from: "127.0.0.7", room: "den")
        #expect(try impostor.request("NEW password=mine").error == .denied)
        #expect(try impostor.request("KICK bob").error == .denied)
        #expect(try impostor.request("LOCK").error == .denied)
    }

    @Test func aKickedTrollCannotComeBackUnderANewNameFromTheSameAddress() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try player(server, "ann", from: "127.0.0.2", room: "den")
        let troll = try player(server, "troll", from: "127.0.0.9", room: "den")
        // The troll drops just before the kick: their address is held all the same.
        troll.close()
        _ = try ann.expect(prefix: "PLAYER troll ")
        #expect(try ann.request("KICK troll").isOK("KICK"))
        let troll2 = try player(server, "troll2", from: "127.0.0.9")
        let join = try troll2.request("JOIN den")
        #expect(join.error == .denied && join.final.contains("10 min"), "\(join)")
        #expect(try troll2.request("WATCH den").error == .denied)
        _ = try player(server, "carl", from: "127.0.0.3", room: "den")
        #expect(try ann.request("ALLOW troll").isOK("ALLOW"))
        #expect(try troll2.request("JOIN den").isOK("JOIN"), "the host let them back")
    }

    @Test func aPrivateRoomAnswersAsNoRoom() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try TestClient(port: server.port, label: "ann", source: "127.0.0.2")
        _ = try ann.readLine()
        _ = try ann.request("HELLO ann")
        #expect(try ann.request("JOIN hush password=pw").isOK("JOIN"))
        let eve = try player(server, "eve", from: "127.0.0.6")
        for verb in ["WATCH", "HISTORY"] {
            let real = try eve.request("\(verb) hush").final
            let none = try eve.request("\(verb) nowhere").final
            #expect(real == none.replacingOccurrences(of: "nowhere", with: "hush"), "\(real) vs \(none)")
        }
        #expect(try eve.request("JOIN hush password=guess").final == "ERR JOIN NOSUCHROOM no room named hush")
        #expect(try eve.request("ROOMS").final == "OK ROOMS 0")
    }

    @Test func aGameEndedByAVoteIsArchivedWithItsSheet() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try TestClient(port: server.port, label: "ann", source: "127.0.0.2")
        _ = try ann.readLine()
        _ = try ann.request("HELLO ann")
        let join = try ann.request("JOIN den")
        let bob = try player(server, "bob", from: "127.0.0.3", room: "den")
        let board = try #require(BoardView.last(in: join.lines))
        #expect(try ann.request(board.claim(try #require(board.sets.first))).isOK("CHOOSE"))
        #expect(try ann.request("NEW").final == "OK NEW voted 1/2")
        #expect(try bob.request("NEW").isOK("NEW"))
        let history = try bob.request("HISTORY")
        #expect(history.lines.contains { $0.hasPrefix("HISTORY GAME 1 STATS ann sets=1 ") }, "\(history)")
    }

    /// The farming attack: one name and eleven shills from other addresses play four quick games in which
    /// only the farmer takes sets. None of them is a real game (the shills take none, and each lasts
    /// seconds), so no rating moves and the farmer is not on top.
    @Test func farmedGamesMoveNoRating() throws {
        let server = try TestServer()
        defer { server.stop() }
        let shills = try (2..<13).map { try player(server, "shill\($0)", from: "127.0.0.\($0)") }
        let farmer = try player(server, "champ", from: "127.0.0.20")
        for game in 1...4 {
            for shill in shills { #expect(try shill.request("JOIN farm\(game)").isOK("JOIN")) }
            let join = try farmer.request("JOIN farm\(game)")
            #expect(try farmer.playToTheEnd(from: join.lines).last.isOK("CHOOSE"))
        }
        // The shills stay connected to the end: an optimised build ends a value's life at its last use,
        // and shills gone away would be announced to the farmer before the STATS reply.
        defer { withExtendedLifetime(shills) {} }
        let stats = try farmer.request("STATS")
        #expect(stats.lines.count == 1, "\(stats)")
        #expect(
            stats.lines.first?.hasPrefix("RATING champ normal rating=1500 games=4 wins=4 ") == true,
            "\(stats)")
        let top = try farmer.request("TOP")
        #expect(top.lines.allSatisfy { $0.split(separator: " ")[3] == "1500" }, "\(top)")
    }
}
