import SetTestSupport
import Testing

/// Watching a room and talking in it.
@Suite struct SpectatorTests {
    @Test func aSpectatorSeesTheGameButCannotPlay() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "show")
        let fan = try server.connect("fan")
        let watch = try fan.request("WATCH show")
        #expect(watch.final == "OK WATCH show")
        #expect(watch.lines.first == "ROOM show set 1 playing", "spectators are not players: \(watch)")
        #expect(watch.lines.filter { $0.hasPrefix("PLAYER ") } == ["PLAYER ann 0 online"])
        #expect(try ann.request("PING").lines.isEmpty, "watching is silent")

        let board = try #require(BoardView.last(in: join.lines))
        let set = board.sets[0]
        let claim = try ann.request(board.claim(set))
        #expect(claim.isOK("CHOOSE"))
        var seen: [String] = []
        for _ in claim.lines { seen.append(try fan.readLine()) }
        #expect(seen == claim.lines)
        #expect(seen.first == "SET ann " + board.codes(set).joined(separator: " "))

        #expect(try fan.request("CHOOSE a b c").final.hasPrefix("ERR CHOOSE NONAME "))
        #expect(try fan.request("CHAT hi").final.hasPrefix("ERR CHAT NONAME "))
        #expect(try fan.request("STATE").lines.first == "ROOM show set 1 playing")
        #expect(try fan.request("HISTORY").final == "OK HISTORY 1")

        // Spectators see people come and go.
        let (bob, _) = try server.player("bob", room: "show")
        #expect(try fan.readLine() == "JOINED bob")
        #expect(try fan.readLine() == "PLAYER bob 0 online")
        #expect(try fan.readLine() == "ROOM show set 2 playing")
        _ = try ann.expect(prefix: "ROOM show set 2")

        #expect(try fan.request("LEAVE").final == "OK LEAVE show")
        let after = try ann.request("CHAT after")
        #expect(after.lines == ["CHAT ann after"], "\(after)")
        #expect(try fan.request("PING").lines.isEmpty, "no more events after LEAVE")
        // Anyone may read a room's history by name.
        let history = try fan.request("HISTORY show")
        #expect(
            history.lines.first?.hasPrefix("HISTORY ") == true
                && history.lines.first?.hasSuffix(
                    "ann " + board.codes(set).joined(separator: " ")) == true,
            "\(history)")
        bob.close()
    }

    @Test func chatIsSanitisedForEveryone() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, _) = try server.player("ann", room: "talk")
        let (bob, _) = try server.player("bob", room: "talk")
        _ = try ann.expect(prefix: "ROOM talk set 2")
        let (fan, _) = try server.named("fan")
        #expect(try fan.request("WATCH talk").final == "OK WATCH talk")

        let nasty =
            "CHAT  hi \u{1B}[31mred\u{1B}[0m \u{1B}]0;title\u{07}there\u{08}\u{7F} \u{202E}x\u{1B}c  "
        let reply = try ann.request(nasty)
        let expected = "CHAT ann hi red there x"
        #expect(reply.lines == [expected], "\(reply)")
        #expect(reply.final == "OK CHAT")
        #expect(try bob.readLine() == expected)
        #expect(try fan.readLine() == expected)
        // A named spectator may talk too.
        #expect(try fan.request("CHAT hello from the stands").lines == ["CHAT fan hello from the stands"])
        #expect(try ann.readLine() == "CHAT fan hello from the stands")
        #expect(try bob.readLine() == "CHAT fan hello from the stands")
        // Unicode that is not a control character survives.
        let unicode = try bob.request("CHAT ♠ ♥ é 日本")
        #expect(unicode.lines == ["CHAT bob ♠ ♥ é 日本"], "\(unicode)")
    }

    @Test func watchingAnotherRoomGivesUpTheSeat() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, _) = try server.player("ann", room: "here")
        let (bob, _) = try server.player("bob", room: "here")
        _ = try ann.expect(prefix: "ROOM here set 2")
        let (_, _) = try server.player("carl", room: "there")
        #expect(try bob.request("WATCH there").final == "OK WATCH there")
        #expect(try ann.readLine() == "LEFT bob")
        #expect(try ann.readLine() == "ROOM here set 1 playing")
        #expect(try bob.request("CHOOSE a b c").final.hasPrefix("ERR CHOOSE NOROOM "))
        // JOIN stops watching.
        #expect(try bob.request("JOIN here").final == "OK JOIN here")
        #expect(try ann.readLine() == "JOINED bob")
    }
}
