import SetTestSupport
import Testing

/// The per-connection rate limit on a virtual clock: bursts, refusals, floods and recovery.
@Suite struct RateLimitTests {
    @Test func aBurstOverTheRateIsSlowedDown() throws {
        let server = EmbeddedServer()
        let bystander = try server.connect("bystander")
        let flooder = try server.connect("flooder")
        try flooder.send(lines: Array(repeating: "PING", count: 1000))
        let finals = flooder.readAvailable()
        #expect(finals.count == 1000, "every command got one reply")
        #expect(finals.prefix(200).allSatisfy { $0 == "OK PING" }, "a burst of 200 passes")
        #expect(finals.dropFirst(200).allSatisfy { $0.hasPrefix("ERR PING SLOWDOWN ") }, "no time passed")
        #expect(try bystander.request("PING").final == "OK PING", "another client does not notice")
        // Tokens come back at 100 a second.
        server.advance(by: 0.5)
        try flooder.send(lines: Array(repeating: "PING", count: 60))
        let later = flooder.readAvailable()
        #expect(later.filter { $0 == "OK PING" }.count == 50, "\(later.suffix(3))")
    }

    @Test func aSustainedFloodIsDisconnectedAfterAThousandRefusals() throws {
        let server = EmbeddedServer()
        let flooder = try server.connect("flooder")
        // Ten times the sustained rate, paced: 50 commands every 50 ms. After the burst, nine in ten are
        // refused, so the thousandth refusal comes after about 1.3 s.
        var refused = 0
        var lines: [String] = []
        var elapsed = 0.0
        while !flooder.isAtEOF && elapsed < 4 {
            try flooder.send(lines: Array(repeating: "PING", count: 50))
            let arrived = flooder.lines(arrivingWithin: 0.05)
            refused += arrived.filter { $0.hasPrefix("ERR PING SLOWDOWN ") }.count
            lines += arrived
            elapsed += 0.05
        }
        #expect(lines.last == "BYE flood", "after \(refused) refusals in \(elapsed) s")
        #expect(refused == 1000)
        #expect(elapsed > 1 && elapsed < 2, "\(elapsed) s")
        #expect(server.logs.contains { $0.name == "flood" })
    }

    @Test func aPauseEndsAFlood() throws {
        let server = EmbeddedServer()
        let client = try server.connect("bursty")
        // 900 refusals, a pause of more than five seconds, then 900 more: never 1000 in one flood.
        for _ in 0..<2 {
            try client.send(lines: Array(repeating: "PING", count: 1100))
            _ = client.readAvailable()
            server.advance(by: 6)
        }
        #expect(!client.isAtEOF)
        #expect(try client.request("PING").final == "OK PING")
    }

    @Test func aConfiguredRateAndBurstAreEnforced() throws {
        let server = EmbeddedServer {
            $0.commandsPerSecond = 10; $0.commandBurst = 20
        }
        let client = try server.connect("paced")
        try client.send(lines: Array(repeating: "PING", count: 30))
        let finals = client.readAvailable()
        #expect(finals.prefix(20).allSatisfy { $0 == "OK PING" }, "a burst of 20 passes")
        #expect(
            finals.dropFirst(20).allSatisfy { $0.hasPrefix("ERR PING SLOWDOWN more than 10 ") },
            "\(finals.last ?? "")")
        server.advance(by: 1)
        try client.send(lines: Array(repeating: "PING", count: 15))
        #expect(client.readAvailable().filter { $0 == "OK PING" }.count == 10)
    }

    @Test func aRateOfZeroTurnsTheLimitOff() throws {
        let server = EmbeddedServer { $0.commandsPerSecond = 0 }
        let client = try server.connect("trusted")
        try client.send(lines: Array(repeating: "PING", count: 5000))
        let finals = client.readAvailable()
        #expect(finals.count == 5000)
        #expect(finals.allSatisfy { $0 == "OK PING" })
        #expect(!client.isAtEOF)
    }
}
