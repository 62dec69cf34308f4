import SetServer
import SetServerCore
import SetTestSupport
import SetWeb
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The browser's way in over real loopback sockets: the page, the status codes, a WebSocket player
/// beside an `nc` player, the close handshake and close codes, and what `nc` clients see of the sniff
/// window.
@Suite struct WebTests {
    // MARK: HTTP

    @Test func thePageIsServedWithItsHeadersAndTheConnectionClosed() throws {
        let server = try TestServer()
        defer { server.stop() }
        for target in ["/", "/?room=fun&name=ann"] {
            let response = try HTTPTestResponse.get(port: server.port, target)
            #expect(response.statusLine == "HTTP/1.1 200 OK")
            #expect(response.value("Content-Type") == "text/html; charset=utf-8")
            #expect(response.value("Cache-Control") == "no-store")
            #expect(response.value("Content-Length") == "\(WebPage.html.utf8.count)")
            #expect(response.body == Array(WebPage.html.utf8))
            // An HTTP client never sees the line protocol's greeting.
            #expect(!String(decoding: response.body, as: UTF8.self).contains("SETD 1"))
        }
        // HTTP/1.0, as a very old client sends it.
        let old = try HTTPTestResponse.fetch(port: server.port, Array("GET / HTTP/1.0\r\n\r\n".utf8))
        #expect(old.status == 200)
    }

    @Test func thePagesConnectionWaitsForTheNextRequestAndPipelinedOnesAreAnsweredInOrder() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port, label: "keep-alive")
        let page = "GET /?room=fun HTTP/1.1\r\nHost: h\r\n\r\n"
        try client.send(bytes: Array(page.utf8))
        let first = try HTTPTestResponse.read(from: client, thenClosed: false)
        #expect(first.status == 200)
        #expect(first.value("Connection") == "keep-alive")
        #expect(first.body == Array(WebPage.html.utf8))
        // A reload over the same connection, with a request sent behind it before any answer.
        try client.send(bytes: Array((page + "GET /nope HTTP/1.1\r\nHost: h\r\n\r\n").utf8))
        let second = try HTTPTestResponse.read(from: client, thenClosed: false)
        #expect(second.status == 200)
        #expect(second.body == Array(WebPage.html.utf8))
        // An error still closes: the 404 is the last thing on the connection.
        let third = try HTTPTestResponse.read(from: client)
        #expect(third.status == 404)
    }

    @Test func connectionCloseAndHTTP10GetThePageAndTheEndOfTheConnection() throws {
        let server = try TestServer()
        defer { server.stop() }
        for request in [
            "GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", "GET / HTTP/1.0\r\n\r\n",
        ] {
            let response = try HTTPTestResponse.fetch(port: server.port, Array(request.utf8))
            #expect(response.value("Connection") == "close")
            #expect(response.body == Array(WebPage.html.utf8))
        }
        // HTTP/1.0 keeps the connection only when it asks to.
        let client = try TestClient(port: server.port, label: "http/1.0 keep-alive")
        try client.send(bytes: Array("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n".utf8))
        let kept = try HTTPTestResponse.read(from: client, thenClosed: false)
        #expect(kept.value("Connection") == "keep-alive")
        try client.send(bytes: Array("GET /x HTTP/1.0\r\n\r\n".utf8))
        #expect(try HTTPTestResponse.read(from: client).status == 404)
    }

    @Test func anIdlePersistentConnectionIsClosedWithoutAWordAfterTwiceTheRegistrationTimeout() throws {
        let server = try TestServer { $0.registrationTimeout = 1 }
        defer { server.stop() }
        let client = try TestClient(port: server.port, label: "idle")
        try client.send(bytes: Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        _ = try HTTPTestResponse.read(from: client, thenClosed: false)
        let idleSince = monotonicNow()
        // Nothing at all is sent: no 408 for a request that was never begun, and no greeting.
        #expect(try client.expectEOF(timeout: 6) == [])
        #expect(realSeconds(since: idleSince) >= 2)
    }

    @Test func otherPathsGet404AndMalformedHeads400() throws {
        let server = try TestServer()
        defer { server.stop() }
        let missing = try HTTPTestResponse.get(port: server.port, "/favicon.ico")
        #expect(missing.statusLine == "HTTP/1.1 404 Not Found")
        #expect(String(decoding: missing.body, as: UTF8.self).contains("404"))
        let bad = try HTTPTestResponse.fetch(
            port: server.port, Array("GET / HTTP/1.1\r\nHost : x\r\n\r\n".utf8))
        #expect(bad.status == 400)
        let noUpgrade = try HTTPTestResponse.get(port: server.port, "/ws")
        #expect(noUpgrade.status == 426)
        let version = try HTTPTestResponse.fetch(
            port: server.port,
            Array(
                ("GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n").utf8)
        )
        #expect(version.status == 426)
        #expect(version.value("Sec-WebSocket-Version") == "13")
    }

    @Test func aHeadOverEightKiBGets431() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port, label: "big")
        try client.send(bytes: Array("GET / HTTP/1.1\r\nHost: h\r\n".utf8))
        // 9 KiB of fields and no blank line: the server answers without waiting for the end.
        for _ in 0..<9 {
            try client.send(bytes: Array(("X-Pad: " + String(repeating: "p", count: 1015) + "\r\n").utf8))
        }
        let response = try HTTPTestResponse.read(from: client)
        #expect(response.statusLine == "HTTP/1.1 431 Request Header Fields Too Large")
    }

    @Test func headsInProgressCountAgainstMaxClients() throws {
        let server = try TestServer { $0.maxClients = 2 }
        defer { server.stop() }
        let slow = [
            try TestClient(port: server.port, label: "slow1"),
            try TestClient(port: server.port, label: "slow2"),
        ]
        for client in slow { try client.send(bytes: Array("GET / HTTP/1.1\r\n".utf8)) }
        pause(0.1)
        let third = try HTTPTestResponse.get(port: server.port, "/")
        #expect(third.status == 503)
        // Once a slow one finishes, a page loads again.
        try slow[0].send(bytes: Array("Host: h\r\nConnection: close\r\n\r\n".utf8))
        #expect(try HTTPTestResponse.read(from: slow[0]).status == 200)
        pause(0.1)
        #expect(try HTTPTestResponse.get(port: server.port, "/").status == 200)
    }

    @Test func aSlowHeadIsCutAtTheRegistrationTimeoutWith408() throws {
        let server = try TestServer { $0.registrationTimeout = 1 }
        defer { server.stop() }
        let client = try TestClient(port: server.port, label: "slow")
        let started = monotonicNow()
        try client.send(bytes: Array("GET / HTTP/1.1\r\n".utf8))
        pause(0.5)
        try client.send(bytes: Array("Host: h\r\n".utf8))
        let response = try HTTPTestResponse.read(from: client)
        #expect(response.status == 408)
        // The timeout counts from the first byte, ticks come once a second.
        #expect(realSeconds(since: started) >= 1)
    }

    // MARK: WebSocket

    @Test func aWebSocketPlayerJoinsAndPlaysLikeAnyOther() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ws = try WebSocketTestClient(port: server.port, label: "ws")
        let hello = try ws.request("HELLO ann")
        #expect(hello.final.hasPrefix("OK HELLO ann "))
        let join = try ws.request("JOIN fun")
        #expect(join.isOK("JOIN fun"), "\(join)")
        #expect(join.lines.contains { $0.hasPrefix("BOARD ") })
        #expect(join.lines.contains("PLAYER ann 0 online"))
        #expect(try ws.request("PING").final == "OK PING")
        // A trailing line end is forgiven; a blank message is a blank line (no reply).
        try ws.send("")
        #expect(try ws.request("PING\r\n").final == "OK PING")
        // The protocol's own errors are text messages like any reply.
        #expect(try ws.request("FROB").error == .unknown)
    }

    @Test func anNcPlayerAndAWebSocketPlayerInOneRoomSeeEachOthersChat() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (bob, _) = try server.player("bob", room: "fun")
        let ws = try WebSocketTestClient(port: server.port, label: "ann")
        _ = try ws.request("HELLO ann")
        #expect(try ws.request("JOIN fun").lines.contains("PLAYER bob 0 online"))
        try bob.expect(prefix: "PLAYER ann ")
        #expect(try ws.request("CHAT hi from the browser").lines == ["CHAT ann hi from the browser"])
        #expect(try bob.expect(prefix: "CHAT ").line == "CHAT ann hi from the browser")
        #expect(try bob.request("CHAT hi from nc").lines == ["CHAT bob hi from nc"])
        #expect(try ws.expect(prefix: "CHAT ").line == "CHAT bob hi from nc")
        // bob's bytes are lines only: no frame byte ever reaches nc.
        #expect(try bob.request("PING").final == "OK PING")
        #expect(bob.bytesInLinesRead == bob.bytesReceived)
    }

    @Test func theRateLimitCountsWebSocketMessagesAsCommands() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ws = try WebSocketTestClient(port: server.port, label: "flood")
        // 300 messages in one write: past the burst of 200, the rest are refused as over TCP.
        try ws.send(bytes: (0..<300).flatMap { _ in WebSocketTestClient.frame(1, Array("PING".utf8)) })
        var finals: [String] = []
        for _ in 0..<300 { finals.append(try ws.readReply().final) }
        let refused = finals.filter { $0.hasPrefix("ERR PING SLOWDOWN") }.count
        #expect(finals.filter { $0 == "OK PING" }.count + refused == 300)
        #expect(refused >= 90, "\(refused) refused")
    }

    @Test func framesSentWithTheUpgradeRequestAreRead() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ws = try WebSocketTestClient(
            port: server.port, label: "eager",
            extraFrames: WebSocketTestClient.frame(1, Array("HELLO eve".utf8)))
        #expect(try ws.readReply().final.hasPrefix("OK HELLO eve "))
    }

    @Test func aPingIsAnsweredWithItsPayloadAndControlFramesPassBetweenFragments() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ws = try WebSocketTestClient(port: server.port, label: "pinger")
        try ws.send(bytes: WebSocketTestClient.frame(9, Array("are you there".utf8)))
        #expect(try ws.readFrame() == .init(opcode: 10, isFinal: true, payload: Array("are you there".utf8)))
        try ws.send(
            bytes: WebSocketTestClient.frame(1, Array("HEL".utf8), isFinal: false)
                + WebSocketTestClient.frame(9, [1, 2]) + WebSocketTestClient.frame(0, Array("LO frag".utf8)))
        #expect(try ws.readFrame() == .init(opcode: 10, isFinal: true, payload: [1, 2]))
        #expect(try ws.readReply().final.hasPrefix("OK HELLO frag "))
    }

    @Test func theCloseHandshakeIsEchoedAndThePlayerKeepsTheSeatForResume() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ws = try WebSocketTestClient(port: server.port, label: "closer")
        let token = try ws.request("HELLO ann").final.split(separator: " ").last.map(String.init) ?? ""
        _ = try ws.request("JOIN fun")
        try ws.send(bytes: WebSocketTestClient.frame(8, [0x03, 0xE9] + Array("tab closed".utf8)))
        let (close, _) = try ws.expectClose()
        #expect(close.closeCode == 1001)
        // Like an nc client that went away: the seat waits in grace, and RESUME (from nc) takes it back.
        let nc = try server.connect("nc")
        let resumed = try nc.request("RESUME \(token)")
        #expect(resumed.final.hasPrefix("OK RESUME ann"), "\(resumed)")
    }

    @Test func quitSaysOKThenAClose1000() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ws = try WebSocketTestClient(port: server.port, label: "quitter")
        _ = try ws.request("HELLO ann")
        try ws.send("QUIT")
        let (close, texts) = try ws.expectClose()
        #expect(texts.first == "OK QUIT", "\(texts)")
        #expect(close.closeCode == 1000)
    }

    @Test(arguments: [
        (WebSocketTestClient.frame(1, Array("HELLO ann".utf8), masked: false), UInt16(1002)),
        (WebSocketTestClient.frame(2, [1, 2, 3]), UInt16(1003)),
        (WebSocketTestClient.frame(1, [0x43, 0x48, 0xC3]), UInt16(1007)),
        (WebSocketTestClient.frame(1, Array("HELLO a\nJOIN b".utf8)), UInt16(1008)),
        (WebSocketTestClient.frame(1, [UInt8](repeating: 0x41, count: 1025)), UInt16(1009)),
        (WebSocketTestClient.frame(9, [UInt8](repeating: 0, count: 126)), UInt16(1002)),
    ])
    func brokenFramesGetTheirCloseCodeAndTheConnectionCloses(frame: [UInt8], code: UInt16) throws {
        let server = try TestServer()
        defer { server.stop() }
        let ws = try WebSocketTestClient(port: server.port, label: "broken \(code)")
        try ws.send(bytes: frame)
        let (close, texts) = try ws.expectClose()
        #expect(close.closeCode == code)
        #expect(texts.isEmpty)
        // The server stays fine for everyone else.
        _ = try server.named("after")
    }

    // MARK: The sniff window

    @Test func aSilentNcClientIsGreetedAfterTheWindowAndATalkingOneAtOnce() throws {
        let server = try TestServer { $0.sniffWindow = 0.15 }
        defer { server.stop() }
        let silentStart = monotonicNow()
        let silent = try TestClient(port: server.port, label: "silent")
        #expect(try silent.readLine().hasPrefix("SETD 1 "))
        let waited = realSeconds(since: silentStart)
        print("nc-style client greeted after \(Int(waited * 1000)) ms (window 150 ms)")
        #expect(waited >= 0.15)
        // A client that speaks first (a line, or telnet's IAC) is greeted as soon as its bytes arrive.
        let eager = try TestClient(port: server.port, label: "eager")
        try eager.send("HELLO eve")
        #expect(try eager.readLine().hasPrefix("SETD 1 "))
        #expect(try eager.readReply().final.hasPrefix("OK HELLO eve "))
    }

    @Test func nothingIsSentBeforeTheWindowEnds() throws {
        let server = try TestServer { $0.sniffWindow = 30 }
        defer { server.stop() }
        let silent = try TestClient(port: server.port, label: "silent")
        #expect(try silent.lines(arrivingWithin: 0.5).isEmpty)
        // Bytes that cannot begin GET end the wait.
        try silent.send(bytes: [0xFF, 0xFB, 0x1F])
        #expect(try silent.readLine().hasPrefix("SETD 1 "))
        #expect(try silent.readBytes(3) == [0xFF, 0xFE, 0x1F])
    }

    @Test func aPrefixOfGetHeldThroughTheWindowGoesToTheLineProtocolWhole() throws {
        let server = try TestServer { $0.sniffWindow = 0.1 }
        defer { server.stop() }
        let client = try TestClient(port: server.port, label: "ge")
        try client.send(bytes: Array("PI".utf8))  // not a prefix of GET: at once
        #expect(try client.readLine().hasPrefix("SETD 1 "))
        try client.send("NG")
        #expect(try client.readReply().final == "OK PING")
        let held = try TestClient(port: server.port, label: "held")
        try held.send(bytes: Array("GE".utf8))
        #expect(try held.readLine().hasPrefix("SETD 1 "))
        try held.send("T 1")
        // "GE" was not lost: the core got the line "GET 1".
        let reply = try held.readReply()
        #expect(reply.error == .unknown, "\(reply)")
        #expect(reply.final.contains("'GET'"), "\(reply)")
    }

    @Test func withoutHTTPGetIsALineProtocolCommandAndThereIsNoWindow() throws {
        let server = try TestServer {
            $0.isHTTPEnabled = false
            $0.sniffWindow = 30  // would hold every greeting if it applied
        }
        defer { server.stop() }
        let client = try TestClient(port: server.port, label: "curl")
        #expect(try client.readLine().hasPrefix("SETD 1 "))
        try client.send(bytes: Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(try client.readReply().error == .unknown)
    }
}

/// `--no-http` on the command line, and the banner's links.
@Suite struct WebDaemonTests {
    @Test func noHTTPTurnsThePageOffAndHTTPIsOnByDefault() throws {
        guard case .run(let defaults, _) = try DaemonCommand.parse([]),
            case .run(let off, _) = try DaemonCommand.parse(["--no-http", "--port", "0"])
        else {
            Issue.record("setd did not parse to a run")
            return
        }
        #expect(defaults.isHTTPEnabled && !off.isHTTPEnabled)
        #expect(off.port == 0)
    }

    @Test func theBannerPrintsThePageLinkBesideTheNcLineAndNotWithNoHTTP() throws {
        let daemon = try Daemon()
        let banner = daemon.child.output(within: 5) { $0.contains("http://") }
        #expect(banner.contains("nc 127.0.0.1 \(daemon.port)\n"), "\(banner)")
        #expect(banner.contains("http://127.0.0.1:\(daemon.port)/\n"), "\(banner)")
        // The real daemon serves the page and still greets nc.
        #expect(try HTTPTestResponse.get(port: daemon.port, "/").status == 200)
        let nc = try daemon.connect("nc")
        #expect(try nc.request("PING").final == "OK PING")
        _ = daemon.terminate()

        let plain = try Daemon(["--no-http"])
        let plainBanner = plain.child.output(within: 1) { $0.contains("nc 127.0.0.1") }
        #expect(!plainBanner.contains("http://"), "\(plainBanner)")
        _ = plain.terminate()
    }
}
