import SetEngine
import SetProtocol
import SetServerCore
import SetTestSupport
import Testing

/// The holes a hostile pass found in the connection stack, each closed: every byte queued for a
/// connection counts against its cap, every kind of input pays the rate limit and none keeps a
/// connection past a line client's timeouts, per-address limits count a connection from accept (an IPv6
/// host by its /64), and only the server's own page may use its WebSocket.
@Suite struct TransportHoleTests {
    /// `GET /` with keep-alive, as a browser reloads.
    private static let pageRequest = Array(
        "GET / HTTP/1.1\r\nHost: \(EmbeddedServer.testHost)\r\nUser-Agent: test\r\n\r\n".utf8)

    // MARK: Every byte counts against the cap

    @Test func aWebSocketThatPingsAndDoesNotReadIsDroppedAtTheCap() throws {
        let server = EmbeddedServer { $0.maximumOutputBytes = 64 << 10 }
        let (ann, _) = try server.player("ann", room: "r")
        let ws = try server.webSocket("pinger")
        ws.raw.isReading = false
        // Pings within the rate limit, each answered by a pong of 125 bytes: the pongs pile up unread.
        let payload = [UInt8](repeating: 0x70, count: 125)
        var sent = 0
        while ws.raw.state == .open, sent < 2_000 {
            try ws.send(bytes: WebSocketClient<EmbeddedClient>.frame(9, payload))
            sent += 1
            if sent % 50 == 0 { server.advance(by: 0.5) }
        }
        #expect(ws.raw.state == .dropped, "the pinger holds \(ws.raw.unreadBytes) bytes after \(sent) pings")
        #expect(ws.raw.unreadBytes <= 64 << 10, "never more than the cap queued")
        #expect(server.logs.contains { $0.name == "drop" }, "the drop is logged")
        #expect(try ann.request("PING").final == "OK PING", "everyone else goes on")
    }

    @Test func pagesPipelinedAndNeverReadAreDroppedAtTheCap() throws {
        let server = EmbeddedServer {
            $0.maximumOutputBytes = 256 << 10
            $0.commandsPerSecond = 0  // the cap, not the rate limit, is what this test reaches
        }
        let client = server.open("puller")
        client.isReading = false
        for _ in 0..<100 where client.state == .open { try client.send(bytes: Self.pageRequest) }
        #expect(client.state == .dropped, "\(client.unreadBytes) bytes of pages held")
        #expect(client.unreadBytes <= 256 << 10)
    }

    // MARK: Every input pays the rate limit

    @Test func aPingFloodOverTheWebSocketIsRefusedThenClosed() throws {
        let server = EmbeddedServer()
        let ws = try server.webSocket("flooder")
        let ping = WebSocketClient<EmbeddedClient>.frame(9, Array("x".utf8))
        var pongs = 0
        var slowDowns = 0
        var closeCode: UInt16?
        for _ in 0..<1_300 {
            guard ws.raw.state == .open else { break }
            try ws.send(bytes: ping)
            while ws.raw.unreadBytes > 0 {
                let frame = try ws.readFrame()
                switch frame.opcode {
                case 10: pongs += 1
                case 1 where frame.text.hasPrefix("ERR - SLOWDOWN"): slowDowns += 1
                case 8: closeCode = frame.closeCode
                default: break
                }
            }
        }
        // The burst is 200 inputs, and the upgrade request was the first.
        #expect(pongs == 199, "the burst is answered, the rest is not: \(pongs)")
        #expect(
            slowDowns > 0 && closeCode == 1008,
            "refused, then closed as a flood: \(slowDowns) \(String(describing: closeCode))")
    }

    @Test func aBlankLineFloodIsRefusedThenDisconnectedLikeAPingFlood() throws {
        let server = EmbeddedServer()
        let (flooder, _) = try server.named("flooder")
        try flooder.send(bytes: [UInt8](repeating: 0x0A, count: 1_300))
        let lines = flooder.readAvailable()
        #expect(lines.contains { $0.hasPrefix("ERR - SLOWDOWN ") }, "\(lines.prefix(3))")
        #expect(lines.last == "BYE flood" && flooder.isAtEOF)
    }

    @Test func pageRequestsOverTheAddressesLimitAreRefusedWith429EvenAcrossReconnects() throws {
        let server = EmbeddedServer()
        var served = 0
        var refused = 0
        // Four pullers on one address, each reconnecting at once after its 429, for 3 seconds.
        for _ in 0..<30 {
            for _ in 0..<4 {
                let client = server.open("puller", host: "127.0.0.9")
                while client.state == .open {
                    try client.send(bytes: Self.pageRequest)
                    let status = try HTTPTestResponse.read(from: client, thenClosed: false).status
                    if status == 200 { served += 1 } else { refused += 1 }
                }
            }
            server.advance(by: 0.1)
        }
        // A burst of 40, then 20 a second: about 100 in 3 s however often they reconnect.
        #expect(served <= 40 + 20 * 3 + 2, "\(served) pages served, \(refused) refused")
        #expect(refused >= 100)
        #expect(try server.get("/", host: "127.0.0.10").status == 200, "another address gets the page")
    }

    // MARK: Nothing outlives a line client's timeouts

    @Test func blankLinesAndEmptyFramesDoNotKeepAConnectionFromItsIdleTimeout() throws {
        let server = EmbeddedServer { $0.idleTimeout = 5 }
        let (nc, _) = try server.named("nc")
        let ws = try server.webSocket("page")
        _ = try ws.hello("page")
        for _ in 0..<8 {
            if nc.state == .open { try nc.send("") }
            if ws.raw.state == .open { try ws.send("") }
            server.advance(by: 1)
        }
        let ncLines = nc.readAvailable()
        #expect(nc.isAtEOF && ncLines.contains("BYE idle for 5 s"), "a blank line is no activity: \(ncLines)")
        #expect(ws.raw.state == .closed, "an empty message is no activity")
    }

    @Test func aPageConnectionThatKeepsAskingIsClosedAtTwiceTheRegistrationTimeout() throws {
        let server = EmbeddedServer { $0.registrationTimeout = 2 }
        let client = server.open("page")
        var served = 0
        for _ in 0..<20 where client.state == .open {
            try client.send(bytes: Self.pageRequest)
            if client.unreadBytes > 0 {
                _ = try HTTPTestResponse.read(from: client, thenClosed: false)
                served += 1
            }
            server.advance(by: 1)
        }
        #expect(client.state == .closed, "closed after \(served) pages")
        #expect(served <= 5, "a request a second keeps it no longer than 2 × 2 s: \(served) pages")
    }

    // MARK: Per-address limits count from accept, IPv6 by /64

    @Test func halfHeadsFromOneAddressDoNotLockOutAnother() throws {
        let server = EmbeddedServer { $0.maxPerIP = 4 }
        var holders: [EmbeddedClient] = []
        for n in 0..<300 {
            let holder = server.open("holder\(n)", host: "127.0.0.5")
            try? holder.send(bytes: Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8))
            holders.append(holder)
        }
        let open = holders.filter { $0.state == .open && $0.unreadBytes == 0 }
        #expect(open.count == 4, "one address holds --max-per-ip heads, the rest are refused")
        #expect(holders.contains { $0.readAvailable().first?.hasPrefix("HTTP/1.1 503") == true })
        #expect(try server.get("/", host: "127.0.0.2").status == 200, "another address gets the page")
        let friend = try server.webSocket("friend", host: "127.0.0.3")
        #expect(try friend.request("PING").final == "OK PING")
    }

    @Test func anIPv6HostCountsByItsSlash64() throws {
        let server = EmbeddedServer {
            $0.maxPerIP = 2
            $0.isHTTPEnabled = false
        }
        _ = try server.connect("a", host: "2001:db8:0:5::1")
        _ = try server.connect("b", host: "2001:db8:0:5:ffff::2")
        let third = server.open("c", host: "2001:db8:0:5::abcd")
        #expect(try third.readLine().hasPrefix("ERR - FULL 2 connections from your address"))
        _ = try server.connect("neighbour", host: "2001:db8:0:6::1")
        _ = try server.connect("v4", host: "192.0.2.7")
        let mapped = server.open("mapped", host: "::ffff:192.0.2.7")
        #expect(try mapped.readLine().hasPrefix("SETD 1"), "an IPv4-mapped address is its IPv4 address")
    }

    @Test func roomsPerAddressCountAnIPv6HostByItsSlash64() throws {
        let server = EmbeddedServer { $0.maxRoomsPerIP = 3 }
        var refusals = 0
        for n in 0..<10 {
            let client = try server.connect("p\(n)", host: "2001:db8:7:7::\(n + 1)")
            _ = try client.hello("p\(n)")
            if try client.request("JOIN room\(n)").error == .tooManyRooms { refusals += 1 }
        }
        #expect(refusals == 7, "ten addresses of one /64 make three rooms")
    }

    // MARK: Only the server's own page

    @Test func aPageOfAnotherSiteMayNotOpenTheWebSocketOrThePage() throws {
        let server = EmbeddedServer()
        let foreign = try server.http(
            Array(
                ("GET /ws HTTP/1.1\r\nHost: \(EmbeddedServer.testHost)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                    + "Origin: http://evil.example\r\n\r\n").utf8))
        #expect(foreign.response.status == 403)
        let fetched = try server.http(
            Array(
                "GET / HTTP/1.1\r\nHost: \(EmbeddedServer.testHost)\r\nOrigin: https://evil.example\r\nConnection: close\r\n\r\n"
                    .utf8))
        #expect(fetched.response.status == 403)
        let nullOrigin = try? server.webSocket("sandboxed", origin: "null")
        #expect(nullOrigin == nil, "Origin: null is refused")
        // The server's own page, a client without Origin (a bot), and an origin the host allowed.
        #expect(try server.webSocket("own").request("PING").final == "OK PING")
        #expect(try server.webSocket("bot", origin: nil).request("PING").final == "OK PING")
        let proxied = EmbeddedServer { $0.allowedOrigins = ["https://set.example.org"] }
        #expect(
            try proxied.webSocket("proxied", origin: "https://set.example.org").request("PING").final
                == "OK PING")
        #expect((try? proxied.webSocket("other", origin: "https://example.org")) == nil)
    }

    // MARK: The journal gate

    @Test func aChangeTheJournalCouldNotTakeIsNeverAcknowledgedAndARestartForgetsIt() throws {
        let server = EmbeddedServer()
        let (ann, annToken) = try server.named("ann")
        _ = try ann.request("JOIN r")
        let (bob, _) = try server.player("bob", room: "r")
        _ = ann.readAvailable()
        server.journalWriteFailure = "Input/output error"
        try bob.send("JOIN elsewhere")
        #expect(bob.readAvailable().isEmpty && ann.readAvailable().isEmpty, "nothing of the change was sent")
        #expect(server.exitReason?.contains("Input/output error") == true, "the server stopped")
        #expect(bob.state == .dropped && ann.state == .dropped)
        // Started again on its journal, the change never happened: bob still sits in r.
        let restarted = try server.restarted(after: 1)
        let back = try restarted.connect("ann")
        let resumed = try back.request("RESUME \(annToken)")
        #expect(resumed.lines.contains("PLAYER bob 0 away"), "\(resumed)")
        #expect(try back.request("ROOMS").lines == ["ROOM r set 2 playing"])
    }
}
