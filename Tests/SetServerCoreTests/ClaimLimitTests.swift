import SetProtocol
import SetServerCore
import SetTestSupport
import Testing

/// Claiming names is bounded: per address (a rate and a cap), in all, and in time; and a name with a
/// rating is claimed only by whoever plays as it.
@Suite struct ClaimLimitTests {
    @Test func threeThousandClaimsFromOneAddressMakeThreeAndASmallJournal() throws {
        let server = EmbeddedServer()
        server.checksReplay = false  // 3,000 connections: the replay is checked once at the end instead
        var answers: [String: Int] = [:]
        for index in 0..<3_000 {
            let squatter = try server.connect("s\(index)", host: "10.0.0.7")
            let reply = try squatter.request("HELLO name\(index) key=k")
            answers[reply.error?.rawValue ?? "OK", default: 0] += 1
            squatter.close()
        }
        #expect(answers == ["OK": 3, "BACKOFF": 2_997], "\(answers)")
        let claims = server.journal.filter { if case .nameKey = $0 { true } else { false } }
        #expect(claims.count == 3)
        let bytes = server.journal.map(\.line.count).reduce(0, +)
        #expect(bytes < 2_000, "the journal stays small: \(bytes) bytes")
        let refused = try server.connect("later", host: "10.0.0.7").request("HELLO name9 key=k")
        // (Each connection's sniff window moved the clock on: the first claim is 450 s old by now.)
        #expect(refused.final.contains("in the last hour; try again in 3150 s"), "\(refused)")
        #expect(
            try server.connect("other", host: "10.0.0.8").request("HELLO other key=k").isOK("HELLO other"))
        let replayed = ServerCore(configuration: server.core.configuration)
        try replayed.replay(try ReplayCheck.reread(server.journal), isFirst: true)
        #expect(replayed.snapshotRecords().map(\.text) == server.core.snapshotRecords().map(\.text))
    }

    @Test func anAddressHoldsFiveNamesAndTheServerItsCap() throws {
        var server = EmbeddedServer { $0.maxClaimedNames = 7 }
        func claim(_ name: String, from host: String) throws -> Reply {
            let client = try server.connect(name, host: host)
            defer { client.close() }
            return try client.request("HELLO \(name) key=k")
        }
        for name in ["a1", "a2", "a3"] { #expect(try claim(name, from: "10.0.0.1").isOK("HELLO \(name)")) }
        #expect(try claim("a4", from: "10.0.0.1").error == .backoff, "three an hour")
        // An hour later (the daemon restarted meanwhile: the times are the journal's), two more.
        server = try server.restarted(after: 3_601)
        for name in ["a4", "a5"] { #expect(try claim(name, from: "10.0.0.1").isOK("HELLO \(name)")) }
        let capped = try claim("a6", from: "10.0.0.1")
        #expect(capped.error == .tooManyNames && capped.final.contains("holds 5 claimed names"), "\(capped)")
        // IPv6 addresses count by their /64: these two are one household.
        #expect(try claim("b1", from: "2001:db8::1").isOK("HELLO b1"))
        #expect(try claim("b2", from: "2001:db8::2:3").isOK("HELLO b2"))
        let full = try claim("c1", from: "10.0.0.3")
        #expect(full.error == .tooManyNames && full.final.contains("keeps 7 claimed names"), "\(full)")
        #expect(server.logs.contains { $0.name == "claims-full" })
    }

    @Test func aClaimUnusedForTheExpiryIsFreedAndAUsedOneKept() throws {
        var server = EmbeddedServer()
        for (name, key) in [("kept", "k1"), ("gone", "k2")] {
            let owner = try server.connect(name)
            #expect(try owner.request("HELLO \(name) key=\(key)").isOK("HELLO \(name)"))
            _ = try owner.request("QUIT")
        }
        let day = 86_400.0
        server = try server.restarted(after: 60 * day)
        let back = try server.connect("kept")
        #expect(try back.request("HELLO kept key=k1").isOK("HELLO kept"))
        _ = try back.request("QUIT")
        #expect(server.journal.contains { $0.text.hasPrefix("name-used kept ") })
        // 91 days after the claims: the unused one is freed at the first tick, the used one is not.
        server = try server.restarted(after: 31 * day)
        server.advance(by: 1)
        #expect(server.journal.contains { $0.text.hasPrefix("name-free gone") })
        #expect(try server.connect("x").request("HELLO gone").isOK("HELLO gone"), "anyone may play as it")
        #expect(try server.connect("y").request("HELLO kept").error == .denied)
        // 90 days after its last use, the other goes too, when someone asks for it.
        server = try server.restarted(after: 60 * day)
        #expect(try server.connect("z").request("HELLO kept key=mine").isOK("HELLO kept"), "claimed anew")
        #expect(server.journal.contains { $0.text.hasPrefix("name-free kept") })
    }

    @Test func theExpiryIsAFlagAndZeroKeepsClaimsForEver() throws {
        var server = EmbeddedServer { $0.nameExpiryDays = 0 }
        let owner = try server.connect("old")
        #expect(try owner.request("HELLO old key=k").isOK("HELLO old"))
        _ = try owner.request("QUIT")
        server = try server.restarted(after: 3_650 * 86_400)
        server.advance(by: 1)
        #expect(try server.connect("x").request("HELLO old").error == .denied)
    }

    @Test func aRatedNameIsClaimedOnlyByWhoeverPlaysAsIt() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "rated")
        _ = try server.player("bob", room: "rated")
        _ = try ann.playToTheEnd(from: join.lines)
        #expect(try ann.request("STATS").lines.count == 1, "ann has a rating")
        _ = try ann.request("QUIT")
        let stranger = try server.connect("stranger", host: "10.0.0.66")
        let refused = try stranger.request("HELLO ann key=mine")
        #expect(refused.error == .denied && refused.final.contains("has a rating"), "\(refused)")
        #expect(!server.journal.contains { $0.text.hasPrefix("name-key ann ") })
        // The player playing as ann claims it, keeping their token.
        let (again, token) = try server.named("ann")
        let claimed = try again.request("HELLO ann key=s3cret")
        #expect(claimed.final == "OK HELLO ann \(token)", "\(claimed)")
        #expect(try again.request("HELLO ann key=s3cret").error == .already, "claimed already")
        #expect(try again.request("HELLO bob key=x").error == .already, "another name is not theirs")
        _ = try again.request("QUIT")
        #expect(try stranger.request("HELLO ann").error == .denied, "claimed now")
        #expect(try stranger.request("HELLO ann key=s3cret").isOK("HELLO ann"))
    }
}
