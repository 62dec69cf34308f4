import SetGame
import SetTestSupport
import Testing

/// Every refusal a client can provoke, and what it costs (or does not).
@Suite struct ErrorTests {
    @Test(arguments: ["FROB", "frob x y", "HELLOO ann", "J0IN r", "\u{1B}[2Jboom"])
    func unknownVerb(line: String) throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let client = try server.connect("typo")
        let reply = try client.request(line)
        #expect(reply.lines.isEmpty)
        #expect(reply.final.hasPrefix("ERR - UNKNOWN "), "\(reply)")
        #expect(!reply.final.unicodeScalars.contains { $0.value < 0x20 }, "echoed text is sanitised")
    }

    @Test(arguments: [
        "HELLO", "HELLO ann bob", "RESUME", "RESUME a b", "ROOMS x", "JOIN", "LEAVE x", "STATE x", "CHOOSE",
        "CHOOSE a b c d e f g h i", "CHOOSE a b c @x", "CHOOSE a b c @-1", "HINT x", "HISTORY a b", "CHAT",
        "CHAT    ", "CHAT \u{1B}[31m\u{07}", "WATCH", "WATCH a b c", "PING x", "HELP x", "QUIT x",
    ])
    func wrongArityIsArgs(line: String) throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (client, _) = try server.player("ann", room: "args")
        let verb = line.split(separator: " ").first!.uppercased()
        let reply = try client.request(line)
        #expect(reply.final.hasPrefix("ERR \(verb) ARGS "), "\(line): \(reply)")
        // Still connected and in the room.
        #expect(try client.request("STATE").isOK("STATE"))
    }

    @Test func malformedClaimsAreArgs() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (client, join) = try server.player("ann", room: "claims")
        let board = try #require(BoardView.last(in: join.lines))
        let rev = "@\(board.revision)"
        let a = board.cards[0].code
        for line in [
            "CHOOSE a b \(rev)", "CHOOSE a b c d \(rev)", "CHOOSE a a b \(rev)", "CHOOSE a \(a) b \(rev)",
            "CHOOSE a b zzzz \(rev)", "CHOOSE a b 4RFS", "CHOOSE \(a) \(a) \(board.cards[1].code)",
        ] {
            let reply = try client.request(line)
            #expect(reply.final.hasPrefix("ERR CHOOSE ARGS "), "\(line): \(reply)")
            #expect(!reply.lines.contains { $0.hasPrefix("WRONG") }, "\(line) costs nothing")
        }
        #expect(try client.request("STATE").lines.contains("PLAYER ann 0 online"))
    }

    @Test func notASetCostsThePenaltyAndEveryoneSeesIt() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "wrong")
        let (bob, _) = try server.player("bob", room: "wrong")
        _ = try ann.expect(prefix: "ROOM wrong set 2")
        let board = try #require(BoardView.last(in: join.lines))
        let positions = try #require(board.nonSet)
        let cards = positions.map { board.cards[$0] }
        let why = try #require(SetRules.whyNotSet(cards[0], cards[1], cards[2]))

        let reply = try ann.request(board.claim(positions))
        #expect(reply.final == "ERR CHOOSE NOTSET \(why)")
        let wrong = "WRONG ann 1 " + cards.map(\.code).joined(separator: " ") + " : \(why)"
        #expect(reply.lines == [wrong, "PLAYER ann -1 online"])
        #expect(try bob.readLine() == wrong)
        #expect(try bob.readLine() == "PLAYER ann -1 online")

        // By code, the same; the board did not change.
        let byCode = try bob.request("CHOOSE " + cards.map(\.code).joined(separator: " "))
        #expect(byCode.final == "ERR CHOOSE NOTSET \(why)")
        #expect(try ann.readLine().hasPrefix("WRONG bob 1 "))
        let state = try ann.request("STATE")
        #expect(BoardView.last(in: state.lines) == board)
        #expect(state.lines.contains("PLAYER ann -1 online"))
        #expect(state.lines.contains("PLAYER bob -1 online"))
    }

    @Test func notASetIsFreeWithPenaltyZero() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "kind", options: "penalty=0")
        #expect(join.lines.contains("OPTIONS mode=normal penalty=0 hints=on"))
        let (bob, _) = try server.player("bob", room: "kind", options: "penalty=0")
        _ = try ann.expect(prefix: "ROOM kind set 2")
        let board = try #require(BoardView.last(in: join.lines))
        let positions = try #require(board.nonSet)
        let reply = try ann.request(board.claim(positions))
        #expect(reply.final.hasPrefix("ERR CHOOSE NOTSET "))
        let wrong = try bob.readLine()
        #expect(wrong.hasPrefix("WRONG ann 0 "), "\(wrong)")
        #expect(try ann.request("STATE").lines.contains("PLAYER ann 0 online"))
    }

    @Test func staleClaimsCostNothing() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "stale")
        let (bob, _) = try server.player("bob", room: "stale")
        _ = try ann.expect(prefix: "ROOM stale set 2")
        let board = try #require(BoardView.last(in: join.lines))

        // A card code that is not on the board.
        let missing = board.cardNotOnBoard.code
        let byCode = try bob.request("CHOOSE \(missing) \(board.cards[0].code) \(board.cards[1].code)")
        #expect(byCode.final.hasPrefix("ERR CHOOSE STALE "), "\(byCode)")
        // A position past the end of this board, where a bigger board had a card: stale.
        let pastEnd = try bob.request("CHOOSE a b p @\(board.revision)")
        #expect(pastEnd.final.hasPrefix("ERR CHOOSE STALE "), "\(pastEnd)")
        // A position no board ever has is the player's mistake, not a stale claim.
        let nowhere = try bob.request("CHOOSE a b z @\(board.revision)")
        #expect(nowhere.final.hasPrefix("ERR CHOOSE ARGS "), "\(nowhere)")

        // An old revision after the board changed.
        let set = board.sets[0]
        #expect(try ann.request(board.claim(set)).isOK("CHOOSE"))
        let events = try bob.expect(prefix: "PLAYER ann 1 online")
        let now = try #require(BoardView.last(in: events.skipped))
        let other = board.sets.first { Set($0).isDisjoint(with: set) } ?? [0, 1, 2]
        let old = try bob.request(board.claim(other))
        #expect(old.final.hasPrefix("ERR CHOOSE STALE "), "\(old)")
        // The cards of the taken set, by code, are gone.
        let gone = try bob.request("CHOOSE " + board.codes(set).joined(separator: " "))
        #expect(gone.final.hasPrefix("ERR CHOOSE STALE "), "\(gone)")

        // Nobody saw a WRONG, and bob's score is untouched.
        let ping = try ann.request("PING")
        #expect(ping.lines.isEmpty, "\(ping)")
        let state = try bob.request("STATE")
        #expect(state.lines.contains("PLAYER bob 0 online"), "\(state)")
        #expect(BoardView.last(in: state.lines) == now)
    }

    @Test func positionsWithoutRevisionRightAfterAChangeAreStale() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "window")
        var board = try #require(BoardView.last(in: join.lines))
        // An unchanged board: positions without @rev are read against it.
        let first = try ann.request(board.claim(board.sets[0], withRevision: false))
        #expect(first.isOK("CHOOSE"), "\(first)")
        board = try #require(BoardView.last(in: first.lines))

        // Within a second of the change, even a real set on the new board is refused without @rev.
        let set = try #require(board.sets.first)
        let quick = try ann.request(board.claim(set, withRevision: false))
        #expect(quick.final.hasPrefix("ERR CHOOSE STALE "), "\(quick)")
        // With @rev it goes through at once.
        let withRev = try ann.request(board.claim(set))
        #expect(withRev.isOK("CHOOSE"), "\(withRev)")
        board = try #require(BoardView.last(in: withRev.lines))

        // A second later the board is the one the player sees.
        server.advance(by: 1.2)
        let set2 = try #require(board.sets.first)
        let late = try ann.request(board.claim(set2, withRevision: false))
        #expect(late.isOK("CHOOSE"), "\(late)")
        #expect(late.lines.contains("PLAYER ann 3 online"), "a STALE claim cost nothing: \(late)")
    }

    @Test func commandsThatNeedARoomSayNoRoom() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (client, _) = try server.named("roomless")
        for line in ["LEAVE", "STATE", "CHOOSE a b c", "HINT", "NEW", "HISTORY", "CHAT hello"] {
            let verb = words(line)[0]
            let reply = try client.request(line)
            #expect(reply.final.hasPrefix("ERR \(verb) NOROOM "), "\(line): \(reply)")
        }
        // A named spectator is not seated, so cannot claim or ask for hints.
        let (_, _) = try server.player("host", room: "seen")
        #expect(try client.request("WATCH seen").isOK("WATCH seen"))
        for line in ["CHOOSE a b c", "HINT", "NEW"] {
            let reply = try client.request(line)
            #expect(reply.final.hasPrefix("ERR \(words(line)[0]) NOROOM "), "\(line): \(reply)")
        }
    }

    @Test func commandsThatNeedANameSayNoName() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let client = try server.connect("nameless")
        // protocol.md: HELLO is required before all of these (LEAVE and STATE only when not watching).
        for line in ["JOIN fun", "CHOOSE a b c", "CHAT hi", "NEW", "HINT", "LEAVE", "STATE"] {
            let verb = words(line)[0]
            let reply = try client.request(line)
            #expect(reply.final.hasPrefix("ERR \(verb) NONAME "), "\(line): \(reply)")
        }
        // A spectator needs no name to follow a room, or to stop.
        let (_, _) = try server.player("host", room: "seen")
        #expect(try client.request("WATCH seen").isOK("WATCH"))
        #expect(try client.request("STATE").isOK("STATE"))
        #expect(try client.request("LEAVE").final == "OK LEAVE seen")
    }

    @Test func unknownRoomsAreNoSuchRoom() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let client = try server.connect("lost")
        #expect(try client.request("WATCH nowhere").final.hasPrefix("ERR WATCH NOSUCHROOM "))
        #expect(try client.request("HISTORY nowhere").final.hasPrefix("ERR HISTORY NOSUCHROOM "))
        #expect(try client.request("ROOMS").final == "OK ROOMS 0", "asking did not create rooms")
    }

    @Test func joiningWithOtherGameOrOptionsIsMismatch() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (_, _) = try server.player("ann", room: "plain")
        let (_, _) = try server.player("carl", room: "cards", options: "matchismo n=2")
        let (bob, _) = try server.named("bob")
        for line in [
            "JOIN plain matchismo", "JOIN plain penalty=0", "JOIN plain mode=junior", "JOIN plain hints=off",
            "JOIN cards set", "JOIN cards n=3", "JOIN cards matchismo n=4",
        ] {
            let reply = try bob.request(line)
            #expect(reply.final.hasPrefix("ERR JOIN MISMATCH "), "\(line): \(reply)")
        }
        // Naming the room's own values is fine.
        #expect(try bob.request("JOIN plain set mode=normal penalty=1 hints=on").isOK("JOIN plain"))
        #expect(try bob.request("JOIN cards matchismo n=2").isOK("JOIN cards"))
    }

    @Test(arguments: [
        "JOIN x mode=fancy", "JOIN x bogus=1", "JOIN x chess", "JOIN x penalty=2", "JOIN x hints=maybe",
        "JOIN x matchismo n=1", "JOIN x matchismo n=31", "JOIN x matchismo n=two",
        "JOIN x matchismo mode=normal",
        "JOIN x set n=2", "JOIN x novalue", "JOIN x =3", "JOIN x mode=", "NEW x", "NEW mode=huge",
    ])
    func badOptions(line: String) throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (client, _) = try server.player("ann", room: "home")
        let verb = words(line)[0]
        let reply = try client.request(line)
        #expect(reply.final.hasPrefix("ERR \(verb) BADOPTION "), "\(line): \(reply)")
        let rooms = try client.request("ROOMS")
        #expect(rooms.lines == ["ROOM home set 1 playing"], "no room was made and ann stayed: \(rooms)")
    }

    @Test(arguments: ["bad!room", "seventeen-chars-x", "dot.room"])
    func badRoomNames(room: String) throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (client, _) = try server.named("ann")
        #expect(try client.request("JOIN \(room)").final.hasPrefix("ERR JOIN BADNAME "))
    }

    @Test func hintsOffAndMatchismoHaveNoHints() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "strict", options: "hints=off")
        #expect(join.lines.contains("OPTIONS mode=normal penalty=1 hints=off"))
        #expect(try ann.request("HINT").final.hasPrefix("ERR HINT NOHINTS "))
        let (bob, _) = try server.player("bob", room: "cards", options: "matchismo")
        #expect(try bob.request("HINT").final.hasPrefix("ERR HINT NOHINTS "))
    }

    @Test func roomLimitIsTooManyRooms() throws {
        let server = EmbeddedServer { $0.maxRooms = 2 }
        defer { server.stop() }
        let (_, _) = try server.player("ann", room: "one")
        let (bob, _) = try server.player("bob", room: "two")
        let (carl, _) = try server.named("carl")
        let reply = try carl.request("JOIN three")
        #expect(reply.final.hasPrefix("ERR JOIN TOOMANYROOMS "), "\(reply)")
        #expect(try carl.request("JOIN one").isOK("JOIN one"), "existing rooms still take players")
        // An emptied room frees its place.
        #expect(try bob.request("LEAVE").final == "OK LEAVE two")
        #expect(try bob.request("JOIN three").isOK("JOIN three"))
    }

    @Test func unknownTokenIsBadToken() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let client = try server.connect("guess")
        #expect(
            try client.request("RESUME 0123456789abcdef0123456789abcdef").final.hasPrefix(
                "ERR RESUME BADTOKEN "))
        #expect(try client.request("RESUME x").final.hasPrefix("ERR RESUME BADTOKEN "))
        #expect(try client.request("HELLO guess").isOK("HELLO guess"), "a failed RESUME leaves HELLO open")
    }
}
