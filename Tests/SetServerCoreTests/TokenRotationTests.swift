import SetProtocol
import SetServerCore
import SetTestSupport
import Testing

/// A RESUME hands out a fresh token and retires the one presented: a copy of an old token (a shared
/// screen, scrollback) takes nothing, and the seat's holder is told someone tried.
@Suite struct TokenRotationTests {
    /// Seats `name` in `room`, drops the connection; returns its token.
    private func seatAndDrop(_ server: EmbeddedServer, _ name: String, _ room: String) throws -> String {
        let (client, token) = try server.named(name)
        #expect(try client.request("JOIN \(room)").isOK("JOIN \(room)"))
        client.close()
        server.advance(by: 1)
        return token
    }

    @Test func aResumeRetiresTheTokenItPresentsAndTheHolderIsTold() throws {
        let server = EmbeddedServer()
        let seen = try seatAndDrop(server, "ann", "den")
        let ann = try server.connect("ann")
        let resumed = try ann.request("RESUME \(seen)")
        #expect(resumed.isOK("RESUME ann den"), "\(resumed)")
        let fresh = try #require(resumed.newToken)
        #expect(fresh != seen)
        #expect(server.journal.contains(.token(room: "den", name: "ann", old: seen, new: fresh)))
        // Someone who saw the old token on ann's screen gets nothing, and ann hears of it.
        let thief = try server.connect("thief", host: "127.0.0.66")
        let refused = try thief.request("RESUME \(seen)")
        #expect(refused.error == .badToken && refused.final.contains("replaced"), "\(refused)")
        #expect(
            try ann.readLine()
                == "NOTICE someone at 127.0.0.66 tried an old token of your seat; it no longer works, and your seat is yours"
        )
        // Once a minute at most: a thief in a loop does not flood ann.
        #expect(try thief.request("RESUME \(seen)").error == .badToken)
        #expect(ann.readAvailable().isEmpty)
        server.advance(by: 61)
        // (The thief's connection said no HELLO in time and is gone; it comes back.)
        let thief2 = try server.connect("thief-again", host: "127.0.0.66")
        #expect(try thief2.request("RESUME \(seen)").error == .badToken)
        #expect(try ann.expect(prefix: "NOTICE ").line.hasPrefix("NOTICE someone at 127.0.0.66 "))
        #expect(try ann.request("STATE").isOK("STATE"), "ann keeps the seat")
        // The fresh token is the one that works, once.
        ann.close()
        let back = try server.connect("ann-back")
        let again = try back.request("RESUME \(fresh)")
        #expect(again.isOK("RESUME ann den") && again.newToken != fresh, "\(again)")
        #expect(try server.connect("late").request("RESUME \(fresh)").error == .badToken)
    }

    @Test func theRotationSurvivesARestartAndACompaction() throws {
        let server = EmbeddedServer()
        let seen = try seatAndDrop(server, "bob", "den")
        let bob = try server.connect("bob")
        let fresh = try #require(try bob.request("RESUME \(seen)").newToken)
        // The live journal, then its compaction: the retired token stays retired, the fresh one works.
        let restarted = try server.restarted(after: 5)
        #expect(restarted.journal.contains(.token(room: "den", name: "bob", old: seen, new: fresh)))
        let old = try restarted.connect("old").request("RESUME \(seen)")
        #expect(old.error == .badToken && old.final.contains("replaced"), "\(old)")
        let compacted = try restarted.restarted(after: 5)
        #expect(try compacted.connect("old").request("RESUME \(seen)").final.contains("replaced"))
        let back = try compacted.connect("bob")
        #expect(try back.request("RESUME \(fresh)").isOK("RESUME bob den"))
    }

    @Test func aThiefWithTheCurrentTokenIsLockedOutByTheOwnersNextResume() throws {
        let server = EmbeddedServer()
        let token = try seatAndDrop(server, "cat", "den")
        // The thief got there first with the token they saw: they hold the seat and a fresh token.
        let thief = try server.connect("thief", host: "127.0.0.66")
        let stolen = try thief.request("RESUME \(token)")
        #expect(stolen.isOK("RESUME cat den"))
        // The owner's copy is now retired: refused, and the one holding the seat is told.
        let owner = try server.connect("owner")
        #expect(try owner.request("RESUME \(token)").error == .badToken)
        #expect(try thief.readLine().hasPrefix("NOTICE "))
        // Only a token handed out by a RESUME works, and each only until the next.
        let next = try #require(stolen.newToken)
        thief.close()
        let again = try server.connect("thief-again", host: "127.0.0.66")
        #expect(try again.request("RESUME \(next)").isOK("RESUME cat den"))
        #expect(try server.connect("x").request("RESUME \(next)").error == .badToken)
    }

    @Test func onlyTheNewestFewTokensAreKept() throws {
        let server = EmbeddedServer()
        var tokens = [try seatAndDrop(server, "dan", "den")]
        for round in 0..<5 {
            let dan = try server.connect("dan\(round)")
            tokens.append(try #require(try dan.request("RESUME \(tokens.last!)").newToken))
            dan.close()
        }
        let probe = try server.connect("probe")
        for (index, old) in tokens.dropLast().enumerated() {
            let reply = try probe.request("RESUME \(old)")
            #expect(reply.error == .badToken)
            // The three newest retired ones are recognised; older ones are merely unknown.
            #expect(reply.final.contains("replaced") == (index >= 2), "token \(index): \(reply)")
        }
    }
}
