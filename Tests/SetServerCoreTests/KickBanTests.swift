import SetProtocol
import SetTestSupport
import Testing

@testable import SetServerCore

/// Issue 23: a kick holds the kicked connection's address as well as its name, for ten minutes, for
/// seats and for watching, unless the host says `ALLOW`; a restart keeps it.
@Suite struct KickBanTests {
    /// A room hosted by ann (from 127.0.0.2) with troll seated from 127.0.0.9, kicked.
    private func kickedTroll() throws -> (EmbeddedServer, host: EmbeddedClient, troll: EmbeddedClient) {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "den", host: "127.0.0.2")
        let (troll, _) = try server.player("troll", room: "den", host: "127.0.0.9")
        #expect(try ann.request("KICK troll spam").isOK("KICK"))
        _ = troll.readAvailable()
        return (server, ann, troll)
    }

    @Test func aNewNameFromTheKickedAddressIsRefusedSeatAndWatchWithTheWait() throws {
        let (server, _, troll) = try kickedTroll()
        let again = try troll.request("JOIN den")
        #expect(again.error == .denied && again.final.contains("10 min"), "\(again)")
        let (troll2, _) = try server.named("troll2", host: "127.0.0.9")
        let join = try troll2.request("JOIN den")
        #expect(join.error == .denied, "\(join)")
        #expect(
            join.final.contains("10 min") && join.final.contains("ALLOW troll"), "names the wait: \(join)")
        let watch = try server.connect("lurker", host: "127.0.0.9").request("WATCH den")
        #expect(watch.error == .denied && watch.final.hasPrefix("ERR WATCH DENIED"), "\(watch)")
        #expect(try troll2.request("JOIN elsewhere").isOK("JOIN"), "other rooms stay open")
        // Another machine is not held, whatever the troll's friends are called.
        #expect(try server.player("bob", room: "den", host: "127.0.0.3").1.isOK("JOIN"))
        server.advance(by: 5 * 60)
        #expect(try troll.request("JOIN den").final.contains("5 min"), "the wait counts down")
    }

    @Test func aTrollWhoDropsJustBeforeTheKickIsHeldByAddressToo() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "den", host: "127.0.0.2")
        let (troll, _) = try server.player("troll", room: "den", host: "127.0.0.9")
        troll.close()
        #expect(try ann.request("KICK troll").isOK("KICK"))
        #expect(server.journal.contains { $0.text.hasPrefix("kick den troll ann 127.0.0.9 ") })
        let (troll2, _) = try server.named("troll2", host: "127.0.0.9")
        #expect(try troll2.request("JOIN den").error == .denied)
    }

    @Test func aTrollWhoResumedElsewhereAndDroppedIsHeldByTheAddressItLastUsed() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "den", host: "127.0.0.2")
        let (troll, token) = try server.named("troll", host: "127.0.0.9")
        #expect(try troll.request("JOIN den").isOK("JOIN"))
        troll.close()
        let back = try server.connect("troll again", host: "127.0.0.7")
        #expect(try back.request("RESUME \(token)").isOK("RESUME"))
        back.close()
        #expect(try ann.request("KICK troll").isOK("KICK"))
        #expect(server.journal.contains { $0.text.hasPrefix("kick den troll ann 127.0.0.7 ") })
        #expect(try server.named("troll2", host: "127.0.0.7").0.request("JOIN den").error == .denied)
        #expect(try server.named("troll3", host: "127.0.0.9").0.request("JOIN den").isOK("JOIN"))
    }

    @Test func theKickEndsAfterTenMinutes() throws {
        let (server, _, troll) = try kickedTroll()
        server.advance(by: Room.kickBanSeconds - 1)
        #expect(try troll.request("WATCH den").error == .denied)
        server.advance(by: 2)
        #expect(try troll.request("WATCH den").isOK("WATCH"))
        #expect(try troll.request("JOIN den").isOK("JOIN"))
    }

    @Test func theHostAllowsAKickedPlayerBack() throws {
        let (server, ann, troll) = try kickedTroll()
        let (bob, _) = try server.player("bob", room: "den", host: "127.0.0.3")
        #expect(try bob.request("ALLOW troll").error == .denied, "only the host allows")
        #expect(try ann.request("ALLOW nobody").error == .args)
        #expect(try ann.request("ALLOW").error == .args)
        #expect(try ann.request("ALLOW troll").final == "OK ALLOW troll")
        #expect(server.journal.contains { $0.text.hasPrefix("allow den troll ann") })
        #expect(try troll.request("JOIN den").isOK("JOIN"))
    }

    @Test func aRestartKeepsTheKick() throws {
        let (server, _, _) = try kickedTroll()
        let restarted = try server.restarted(after: 60)
        let (troll2, _) = try restarted.named("troll2", host: "127.0.0.9")
        let refused = try troll2.request("JOIN den")
        #expect(refused.error == .denied && refused.final.contains("9 min"), "\(refused)")
        #expect(try restarted.named("bob", host: "127.0.0.3").0.request("JOIN den").isOK("JOIN"))
        // And the compacted journal (a snapshot with the ban) keeps it through a second restart.
        let again = try restarted.restarted(after: 60)
        #expect(try again.named("troll3", host: "127.0.0.9").0.request("WATCH den").error == .denied)
    }

    @Test func anIPv6KickHoldsTheWhole64() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "den", host: "::1")
        _ = try server.player("troll", room: "den", host: "fd00:1:2:3::5")
        #expect(try ann.request("KICK troll").isOK("KICK"))
        let (other, _) = try server.named("troll2", host: "fd00:1:2:3::9")
        #expect(try other.request("JOIN den").error == .denied, "same /64")
        let (far, _) = try server.named("troll3", host: "fd00:1:2:4::9")
        #expect(try far.request("JOIN den").isOK("JOIN"), "another /64")
    }

    @Test func aKickFromBeforeBansStillHoldsTheName() throws {
        let records: [JournalRecord] = [
            .header(version: JournalRecord.formatVersion),
            .room(name: "den", seed: 1, options: [("game", "set")]),
            .game(room: "den", index: 0, time: 1, firstRevision: 1, options: [("game", "set")]),
            .seat(room: "den", name: "ann", token: "t1"),
            .kick(room: "den", name: "troll", by: "ann"),
        ]
        let line = JournalRecord.kick(room: "den", name: "troll", by: "ann").text
        #expect(line == "kick den troll ann", "the old record's shape is unchanged")
        let server = try EmbeddedServer().restarted(from: records, after: 3600)
        let (troll, _) = try server.named("troll", host: "127.0.0.9")
        #expect(try troll.request("JOIN den").error == .denied)
        #expect(try server.named("bob", host: "127.0.0.9").0.request("JOIN den").isOK("JOIN"))
    }

    @Test func kickAndAllowRecordsRoundTrip() throws {
        for record: JournalRecord in [
            .kick(room: "den", name: "troll", by: "ann", address: "127.0.0.9", until: 1_700_000_600),
            .kick(room: "den", name: "troll", by: "ann", address: "", until: 5),
            .kick(room: "den", name: "troll", by: "ann"),
            .allow(room: "den", name: "troll", by: "ann"),
            .gain(name: "ann", mode: "normal", time: 1_700_000_061.5, amount: (118.25).bitPattern),
        ] {
            let body = try #require(JournalCoding.verifiedBody(record.line.dropLast()[...]))
            #expect(try JournalRecord(body: body) == record, "\(record.text)")
        }
    }
}
