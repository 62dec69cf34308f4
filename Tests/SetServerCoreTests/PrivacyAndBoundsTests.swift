import SetTestSupport
import Testing

/// Private history stays private per game, one connection has one role, and the room table and the
/// archive stay bounded whatever a script does.
@Suite struct PrivacyAndBoundsTests {
    @Test func aPrivateGamesHistoryIsNotReadUnderARecreatedPublicRoom() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.named("ann")
        let created = try ann.request("JOIN club password=pw")
        try #require(created.isOK("JOIN"), "\(created)")
        _ = join
        try ann.playToTheEnd(from: created.lines)
        #expect(try ann.request("HISTORY").final != "OK HISTORY 0", "the players read their game")
        #expect(try ann.request("LEAVE").isOK("LEAVE"))  // The room closes; its archive stays.

        // A stranger re-creates the name as a public room: the private game is not theirs to read.
        let (mallory, publicJoin) = try server.player("mallory", room: "club")
        #expect(try mallory.request("HISTORY").final == "OK HISTORY 0")
        let (outsider, _) = try server.named("outsider")
        #expect(try outsider.request("HISTORY club").final == "OK HISTORY 0")

        // Once a public game finishes under the name, outsiders read that one, and only that one.
        let sets = try mallory.playToTheEnd(from: publicJoin.lines).sets
        let history = try outsider.request("HISTORY club")
        // The header, its record id, one line per set, then the score sheet: mallory's STATS line and
        // DURATION.
        #expect(history.final == "OK HISTORY \(sets + 4)", "\(history)")
        #expect(history.lines.first?.contains("mallory:") == true, "\(history)")
        #expect(!history.lines.contains { $0.contains("ann") }, "\(history)")
        #expect(try mallory.request("LEAVE").isOK("LEAVE"))

        // Back under the same password, the private game is readable again by those inside.
        let again = try ann.request("JOIN club password=pw")
        try #require(again.isOK("JOIN"))
        let insiders = try ann.request("HISTORY")
        #expect(insiders.lines.contains { $0.contains("ann:") }, "\(insiders)")
        #expect(insiders.lines.contains { $0.contains("mallory:") }, "the public game too: \(insiders)")
        // Under another password, it is not.
        #expect(try ann.request("LEAVE").isOK("LEAVE"))
        let other = try ann.request("JOIN club password=other")
        try #require(other.isOK("JOIN"))
        #expect(!(try ann.request("HISTORY")).lines.contains { $0.contains("ann:") })
    }

    @Test func resumingOnAWatchingConnectionEndsTheWatching() throws {
        let server = EmbeddedServer()
        let (ann, token) = try server.named("ann")
        #expect(try ann.request("JOIN seat").isOK("JOIN"))
        ann.close()
        let (bob, _) = try server.player("bob", room: "seat")
        let (carl, _) = try server.player("carl", room: "elsewhere")
        let screen = try server.connect("screen")
        #expect(try screen.request("WATCH elsewhere").isOK("WATCH"))
        let resumed = try screen.request("RESUME \(token)")
        #expect(resumed.final.hasPrefix("OK RESUME ann seat "), "\(resumed)")
        // Events of the seat's room arrive once; the watched room's no more.
        _ = screen.readAvailable()
        #expect(try bob.request("CHAT hello ann").isOK("CHAT"))
        #expect(screen.readAvailable() == ["CHAT bob hello ann"])
        #expect(try carl.request("CHAT anyone?").isOK("CHAT"))
        #expect(screen.readAvailable().isEmpty)
        #expect(try screen.request("STATE").lines.first == "ROOM seat set 2 playing")
    }

    @Test func helloEndsWatchingToo() throws {
        let server = EmbeddedServer()
        let (_, _) = try server.player("bob", room: "r")
        let screen = try server.connect("screen")
        #expect(try screen.request("WATCH r").isOK("WATCH"))
        #expect(try screen.request("HELLO ann").isOK("HELLO"))
        #expect(try screen.request("STATE").error == .noRoom)
    }

    @Test func oneAddressCannotFillTheRoomTable() throws {
        let server = EmbeddedServer { $0.maxRoomsPerIP = 3 }
        // Connect, name, make a room, vanish: the rooms wait out their players' grace.
        for n in 0..<3 {
            let client = try server.connect("script\(n)", host: "10.0.0.66")
            #expect(try client.request("HELLO s\(n)").isOK("HELLO"))
            #expect(try client.request("JOIN junk\(n)").isOK("JOIN"))
            client.close()
        }
        let script = try server.connect("script", host: "10.0.0.66")
        #expect(try script.request("HELLO s9").isOK("HELLO"))
        let refused = try script.request("JOIN junk9")
        #expect(refused.error == .tooManyRooms && refused.final.contains("your address"), "\(refused)")
        #expect(try script.request("JOIN junk0").isOK("JOIN"), "joining an existing room is fine")
        // Everyone else is unaffected.
        let friend = try server.connect("friend", host: "10.0.0.7")
        #expect(try friend.request("HELLO ann").isOK("HELLO"))
        #expect(try friend.request("JOIN fun").isOK("JOIN"))
        // When the abandoned rooms close, the address may make rooms again.
        script.close()
        server.advance(by: 125)
        let back = try server.connect("back", host: "10.0.0.66")
        #expect(try back.request("HELLO s10").isOK("HELLO"))
        #expect(try back.request("JOIN fresh").isOK("JOIN"))
    }

    @Test func aFullTableMakesRoomForANewcomerByClosingAnAbandonedRoom() throws {
        let server = EmbeddedServer { $0.maxRooms = 2 }
        var tokens: [String] = []
        for n in 0..<2 {
            let (client, token) = try server.named("gone\(n)")
            #expect(try client.request("JOIN left\(n)").isOK("JOIN"))
            tokens.append(token)
            client.close()
            server.advance(by: 1)
        }
        let (ann, _) = try server.named("ann")
        let join = try ann.request("JOIN fun")
        #expect(join.isOK("JOIN"), "\(join)")
        // The room left first went; the other waits for its player.
        let rooms = try ann.request("ROOMS")
        #expect(rooms.lines == ["ROOM fun set 1 playing", "ROOM left1 set 1 playing"], "\(rooms)")
        let back = try server.connect("back")
        #expect(try back.request("RESUME \(tokens[0])").error == .badToken)
        #expect(try back.request("RESUME \(tokens[1])").isOK("RESUME"))
        // A table full of rooms someone is in stays full.
        let (bob, _) = try server.named("bob")
        #expect(try bob.request("JOIN more").error == .tooManyRooms)
    }

    @Test func theArchiveKeepsTheNewestGamesOverAllRooms() throws {
        let server = EmbeddedServer { $0.maxArchivedGames = 3 }
        let (ann, _) = try server.named("ann")
        for name in ["a", "b", "c", "d"] {
            let join = try ann.request("JOIN \(name)")
            try #require(join.isOK("JOIN"))
            try ann.playToTheEnd(from: join.lines)
        }
        // Room a closed when ann moved on, and its game was the oldest: both are gone.
        #expect(try ann.request("HISTORY a").error == .noSuchRoom)
        for name in ["b", "c", "d"] {
            #expect(try ann.request("HISTORY \(name)").final != "OK HISTORY 0", "\(name) is kept")
        }
        let archived = server.journal.filter { if case .archive = $0 { true } else { false } }.count
        #expect(archived == 4, "every finished game was journaled as it ended")
        #expect(
            server.core.snapshotRecords().filter { if case .archive = $0 { true } else { false } }.count == 3)
    }
}
