import SetTestSupport
import Testing

/// The connection limits that protect the server and everyone on it, in memory; each test hits one:
/// `--max-clients`, the rate limit's flood, the idle timeout, `--max-per-ip`.
@Suite struct LimitTests {
    @Test func aFullServerRefusesTheNextConnection() throws {
        let server = EmbeddedServer { $0.maxClients = 2 }
        let first = try server.connect("first")
        let second = try server.connect("second")
        // A silent client is told at the end of its sniff window, in the line protocol.
        let third = server.open("third")
        #expect(third.unreadBytes == 0, "nothing before the window ends")
        let refusal = third.lines(arrivingWithin: server.engine.configuration.sniffWindow)
        #expect(refusal.count == 1 && refusal[0].hasPrefix("ERR - FULL "), "\(refusal)")
        #expect(try third.expectEOF().isEmpty, "nothing after FULL but end of file")
        // One that speaks first is told at once.
        let eager = server.open("eager")
        try eager.send("HELLO eve")
        #expect(try eager.expectEOF().first?.hasPrefix("ERR - FULL ") == true)
        #expect(try second.request("PING").final == "OK PING", "the others are unaffected")

        // A freed place takes the next connection.
        #expect(try first.request("QUIT").final == "OK QUIT")
        try first.expectEOF()
        #expect(server.connectionCount == 1)
        let fourth = try server.connect("fourth")
        #expect(try fourth.request("PING").final == "OK PING")
    }

    @Test func aFloodInOneWriteIsDisconnected() throws {
        let server = EmbeddedServer()
        let bystander = try server.connect("bystander")
        let flooder = try server.connect("flooder")
        try flooder.send(lines: Array(repeating: "PING", count: 5000))
        // Everything the server said before it hung up.
        let lines = try flooder.expectEOF()
        let finals = lines.filter(isFinalLine)
        let refused = lines.filter { $0.hasPrefix("ERR PING SLOWDOWN ") }.count
        #expect(
            lines.last == "BYE flood", "\(refused) refusals, \(finals.count) replies, then \(lines.suffix(2))"
        )
        // No time passes within one write: the burst is answered, then a thousand refusals end it.
        #expect(finals.prefix(200).allSatisfy { $0 == "OK PING" })
        #expect(refused == 1000, "\(refused) refusals before BYE")
        #expect(finals.count < 5000, "the server stopped reading the flood")
        #expect(try bystander.request("PING").final == "OK PING")
    }

    @Test func twentyLinesInARowThatAreNoCommandCloseTheConnection() throws {
        let server = EmbeddedServer()
        let bystander = try server.connect("bystander")
        // A person who mistypes is answered every time and stays, however often, while a command
        // comes between the mistakes.
        let typist = try server.connect("typist")
        for _ in 0..<3 {
            try typist.send(lines: Array(repeating: "PIGN", count: 19))
            let answers = typist.readAvailable()
            #expect(
                answers.count == 19 && answers.allSatisfy { $0.hasPrefix("ERR - UNKNOWN ") }, "\(answers)")
            #expect(try typist.request("PING").final == "OK PING")
        }
        // A program sending something else (here binary junk, a line over the cap, text) is answered
        // until the twentieth such line in a row, then told and closed; what it sent after is not read.
        let junk = try server.connect("junk")
        var lines: [[UInt8]] = Array(repeating: [0xFF, 0xFE, 0x00, 0x80], count: 10)
        lines.append(Array(repeating: 0x41, count: 5_000))
        lines += Array(repeating: Array("GET /no HTTP/1.1".utf8), count: 9)
        lines += Array(repeating: Array("PING".utf8), count: 50)
        try junk.send(bytes: lines.flatMap { $0 + [0x0A] })
        let said = try junk.expectEOF()
        #expect(said.count == 21, "\(said.count) lines: \(said.suffix(3))")
        #expect(said.prefix(20).allSatisfy { $0.hasPrefix("ERR - ") }, "\(said)")
        #expect(said.last == "BYE junk")
        #expect(!said.contains("OK PING"), "nothing after the twentieth is read")
        #expect(try bystander.request("PING").final == "OK PING")
    }

    @Test func idleConnectionsAreClosed() throws {
        let server = EmbeddedServer { $0.idleTimeout = 10 }
        let idle = try server.connect("idle")
        let busy = try server.connect("busy")
        let blank = try server.connect("blank")
        // The busy client pings every 3 s for 24 s and is never closed. By design a blank line is no
        // activity (it pays the rate limit, but does not reset the idle timer): the client that only
        // presses Enter is as idle as the silent one.
        var busyFinals: [String] = []
        for second in stride(from: 3, through: 24, by: 3) {
            busyFinals.append(try busy.request("PING").final)
            if blank.state == .open { try blank.send("") }
            server.advance(by: 3)
            if second == 9 {
                #expect(idle.state == .open && blank.state == .open, "open within the 10 s")
            }
        }
        #expect(busyFinals.allSatisfy { $0 == "OK PING" })
        #expect(busy.state == .open)
        #expect(try idle.expectEOF() == ["BYE idle for 10 s"])
        #expect(try blank.expectEOF() == ["BYE idle for 10 s"])
    }

    @Test func oneAddressGetsAtMostMaxPerIPConnections() throws {
        let server = EmbeddedServer { $0.maxPerIP = 2 }
        let first = try server.connect("first")
        let second = try server.connect("second")
        for attempt in 0..<2 {
            let third = server.open("third \(attempt)")
            let refusal = third.lines(arrivingWithin: server.engine.configuration.sniffWindow)
            #expect(refusal.count == 1 && refusal[0].hasPrefix("ERR - FULL "), "\(refusal)")
            #expect(try third.expectEOF().isEmpty, "nothing after FULL but end of file")
            // A refused connection does not count against the address.
            #expect(server.connectionCount == 2)
        }
        #expect(try second.request("PING").final == "OK PING", "the others are unaffected")
        // Another address is not limited by this one.
        let neighbour = try server.connect("neighbour", host: "127.0.0.2")
        #expect(try neighbour.request("PING").final == "OK PING")

        // Closing one frees a place for the address.
        first.close()
        #expect(server.connectionCount == 2)
        let fourth = try server.connect("fourth")
        #expect(try fourth.request("PING").final == "OK PING")
        #expect(try second.request("PING").final == "OK PING")
    }
}
