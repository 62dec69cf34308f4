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
        #expect(watch.isOK("WATCH show"))
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
        #expect(try fan.request("WATCH talk").isOK("WATCH talk"))

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
        #expect(try bob.request("WATCH there").isOK("WATCH there"))
        #expect(try ann.readLine() == "LEFT bob")
        #expect(try ann.readLine() == "ROOM here set 1 playing")
        #expect(try bob.request("CHOOSE a b c").final.hasPrefix("ERR CHOOSE NOROOM "))
        // JOIN stops watching.
        #expect(try bob.request("JOIN here").isOK("JOIN here"))
        #expect(try ann.readLine() == "JOINED bob")
    }

    @Test func aPrivateRoomNeedsItsPasswordAndNeverShowsIt() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        var everything: [String] = []
        let (ann, _) = try server.named("ann")
        let created = try ann.request("JOIN r password=pw")
        #expect(created.isOK("JOIN r"), "\(created)")
        everything += created.lines
        let (pub, _) = try server.player("pat", room: "open")

        let (bob, _) = try server.named("bob")
        let rooms = try bob.request("ROOMS")
        #expect(rooms.lines == ["ROOM open set 1 playing"] && rooms.final == "OK ROOMS 1", "\(rooms)")
        // Issue 23: without its password a private room is no room, word for word (not DENIED, not MISMATCH).
        for line in ["JOIN r", "JOIN r password=nope", "JOIN r password=PW", "JOIN r matchismo"] {
            let refused = try bob.request(line)
            #expect(refused.final == "ERR JOIN NOSUCHROOM no room named r", "\(line): \(refused)")
        }
        let outside = try bob.request("HISTORY r")
        let nowhere = try bob.request("HISTORY q")
        #expect(outside.final == "ERR HISTORY NOSUCHROOM no room named r", "\(outside)")
        #expect(nowhere.final == "ERR HISTORY NOSUCHROOM no room named q", "\(nowhere)")
        #expect(outside.lines.isEmpty)

        let watcher = try server.connect("watcher")
        #expect(try watcher.request("WATCH q").final == "ERR WATCH NOSUCHROOM no room named q")
        for line in ["WATCH r", "WATCH r password=nope"] {
            let refused = try watcher.request(line)
            #expect(refused.final == "ERR WATCH NOSUCHROOM no room named r", "\(line): \(refused)")
        }
        let watching = try watcher.request("WATCH r password=pw")
        #expect(watching.isOK("WATCH r"), "\(watching)")
        everything += watching.lines

        let joined = try bob.request("JOIN r password=pw")
        #expect(joined.isOK("JOIN r"), "\(joined)")
        #expect(joined.lines.first == "ROOM r set 2 playing", "\(joined)")
        everything += joined.lines
        everything += try ann.expect(prefix: "ROOM r set 2").skipped
        // Insiders read its history; the spectator too.
        #expect(try bob.request("HISTORY r").final == "OK HISTORY 0")
        #expect(try watcher.request("HISTORY r").final == "OK HISTORY 0")
        #expect(try pub.request("HISTORY r").final == "ERR HISTORY NOSUCHROOM no room named r")
        // A public room ignores a password.
        let (carl, _) = try server.named("carl")
        #expect(try carl.request("JOIN open password=whatever").isOK("JOIN open"))
        _ = try pub.expect(prefix: "ROOM open set 2")
        // Still unlisted with players in it.
        #expect(try pub.request("ROOMS").lines == ["ROOM open set 2 playing"])

        for client in [ann, bob] { everything += try client.request("STATE").lines }
        everything += try watcher.request("STATE").lines
        let options = everything.filter { $0.hasPrefix("OPTIONS ") }
        #expect(options.count >= 5 && options.allSatisfy { $0 == "OPTIONS mode=normal penalty=1 hints=on" })
        #expect(!everything.contains { $0.contains("pw") || $0.contains("password") }, "\(everything)")
    }
}

/// Moving between rooms leaves no room behind that nobody is in, and never watches a room that closed.
@Suite struct RoomMovesTests {
    @Test func watchingElsewhereClosesTheEmptyRoomLeftBehind() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "a")
        let screen = try server.connect("screen")
        #expect(try screen.request("WATCH a").isOK("WATCH"))
        #expect(try ann.request("JOIN b").isOK("JOIN"))
        // Room a has only the spectator now; when it watches b, a is empty and must close.
        #expect(try screen.request("WATCH b").isOK("WATCH"))
        #expect(try ann.request("ROOMS").lines == ["ROOM b set 1 playing"])
        #expect(server.core.roomCount == 1)
    }

    @Test func theOnlyPlayerWhoWatchesTheirRoomWatchesTheLiveRoom() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "solo")
        #expect(try ann.request("WATCH solo").isOK("WATCH"))
        #expect(server.core.roomCount == 1, "the room stays open for its spectator")
        _ = try server.player("bob", room: "solo")
        #expect(ann.readAvailable().contains("JOINED bob"), "the spectator sees the room it watches")
    }
}
