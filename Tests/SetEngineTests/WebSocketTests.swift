import SetTestSupport
import Testing

/// The browser's WebSocket, in memory: a WebSocket player beside an `nc` player, the rate limit over
/// messages, frames sent with the upgrade, pings and control frames between fragments, the close
/// handshake and its codes.
@Suite struct WebSocketTests {
    private typealias Frame = EmbeddedWebSocketClient.Frame

    @Test func aWebSocketPlayerJoinsAndPlaysLikeAnyOther() throws {
        let server = EmbeddedServer()
        let ws = try server.webSocket("ws")
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
        // And a player can play a game to its end.
        let (sets, last) = try playToTheEnd(ws, from: join.lines)
        #expect(sets > 0 && last.lines.contains { $0.hasPrefix("OVER ") }, "\(last)")
    }

    @Test func anNcPlayerAndAWebSocketPlayerInOneRoomSeeEachOthersChat() throws {
        let server = EmbeddedServer()
        let (bob, _) = try server.player("bob", room: "fun")
        let ws = try server.webSocket("ann")
        _ = try ws.request("HELLO ann")
        #expect(try ws.request("JOIN fun").lines.contains("PLAYER bob 0 online"))
        var bobLines = try bob.expect(prefix: "PLAYER ann ").skipped
        #expect(try ws.request("CHAT hi from the browser").lines == ["CHAT ann hi from the browser"])
        let chat = try bob.expect(prefix: "CHAT ")
        #expect(chat.line == "CHAT ann hi from the browser")
        #expect(try bob.request("CHAT hi from nc").lines == ["CHAT bob hi from nc"])
        #expect(try ws.expect(prefix: "CHAT ").line == "CHAT bob hi from nc")
        // bob's bytes are lines only: no frame byte ever reaches nc.
        #expect(try bob.request("PING").final == "OK PING")
        bobLines += chat.skipped + bob.readAvailable()
        #expect(bob.unreadBytes == 0, "every byte bob got was in a line")
        #expect(
            bobLines.allSatisfy { line in
                !line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" }
            }, "\(bobLines)")
    }

    @Test func theRateLimitCountsWebSocketMessagesAsCommands() throws {
        let server = EmbeddedServer()
        let ws = try server.webSocket("flood")
        // 300 messages in one write: past the burst of 200, the rest are refused as over TCP.
        try ws.send(bytes: (0..<300).flatMap { _ in EmbeddedWebSocketClient.frame(1, Array("PING".utf8)) })
        var finals: [String] = []
        for _ in 0..<300 { finals.append(try ws.readReply().final) }
        let refused = finals.filter { $0.hasPrefix("ERR PING SLOWDOWN") }.count
        let answered = finals.filter { $0 == "OK PING" }.count
        #expect(answered + refused == 300)
        // No time passes in one write: the upgrade request took one token of the burst, the messages the
        // other 199.
        #expect(answered == 199 && refused == 101, "\(answered) answered, \(refused) refused")
        // Tokens come back with time, as for a line client.
        server.advance(by: 1)
        #expect(try ws.request("PING").final == "OK PING")
    }

    @Test func framesSentWithTheUpgradeRequestAreRead() throws {
        let server = EmbeddedServer()
        let ws = try EmbeddedWebSocketClient(
            over: server.open("eager"), host: EmbeddedServer.testHost,
            origin: "http://\(EmbeddedServer.testHost)",
            extraFrames: EmbeddedWebSocketClient.frame(1, Array("HELLO eve".utf8)))
        #expect(try ws.readReply().final.hasPrefix("OK HELLO eve "))
    }

    @Test func aPingIsAnsweredWithItsPayloadAndControlFramesPassBetweenFragments() throws {
        let server = EmbeddedServer()
        let ws = try server.webSocket("pinger")
        try ws.send(bytes: EmbeddedWebSocketClient.frame(9, Array("are you there".utf8)))
        #expect(try ws.readFrame() == Frame(opcode: 10, isFinal: true, payload: Array("are you there".utf8)))
        try ws.send(
            bytes: EmbeddedWebSocketClient.frame(1, Array("HEL".utf8), isFinal: false)
                + EmbeddedWebSocketClient.frame(9, [1, 2])
                + EmbeddedWebSocketClient.frame(0, Array("LO frag".utf8)))
        #expect(try ws.readFrame() == Frame(opcode: 10, isFinal: true, payload: [1, 2]))
        #expect(try ws.readReply().final.hasPrefix("OK HELLO frag "))
    }

    @Test func theCloseHandshakeIsEchoedAndThePlayerKeepsTheSeatForResume() throws {
        let server = EmbeddedServer()
        let ws = try server.webSocket("closer")
        let token = try ws.hello("ann")
        _ = try ws.request("JOIN fun")
        try ws.send(bytes: EmbeddedWebSocketClient.frame(8, [0x03, 0xE9] + Array("tab closed".utf8)))
        let (close, _) = try ws.expectClose()
        #expect(close.closeCode == 1001)
        // Like an nc client that went away: the seat waits in grace, and RESUME (from nc) takes it back.
        let nc = try server.connect("nc")
        let resumed = try nc.request("RESUME \(token)")
        #expect(resumed.final.hasPrefix("OK RESUME ann"), "\(resumed)")
        #expect(try nc.request("STATE").lines.contains("PLAYER ann 0 online"))
    }

    @Test func quitSaysOKThenAClose1000() throws {
        let server = EmbeddedServer()
        let ws = try server.webSocket("quitter")
        _ = try ws.request("HELLO ann")
        try ws.send("QUIT")
        let (close, texts) = try ws.expectClose()
        #expect(texts.first == "OK QUIT", "\(texts)")
        #expect(close.closeCode == 1000)
    }

    @Test(arguments: [
        (EmbeddedWebSocketClient.frame(1, Array("HELLO ann".utf8), masked: false), UInt16(1002)),
        (EmbeddedWebSocketClient.frame(2, [1, 2, 3]), UInt16(1003)),
        (EmbeddedWebSocketClient.frame(1, [0x43, 0x48, 0xC3]), UInt16(1007)),
        (EmbeddedWebSocketClient.frame(1, Array("HELLO a\nJOIN b".utf8)), UInt16(1008)),
        (EmbeddedWebSocketClient.frame(1, [UInt8](repeating: 0x41, count: 1025)), UInt16(1009)),
        (EmbeddedWebSocketClient.frame(9, [UInt8](repeating: 0, count: 126)), UInt16(1002)),
    ])
    func brokenFramesGetTheirCloseCodeAndTheConnectionCloses(frame: [UInt8], code: UInt16) throws {
        let server = EmbeddedServer()
        let ws = try server.webSocket("broken \(code)")
        try ws.send(bytes: frame)
        let (close, texts) = try ws.expectClose()
        #expect(close.closeCode == code)
        #expect(texts.isEmpty)
        // The server stays fine for everyone else.
        #expect(try server.named("after").0.request("PING").final == "OK PING")
    }

    /// A 101 that takes the connection over its cap drops it, once: it is never made a WebSocket nor
    /// greeted as a player (it once was, then dropped a second time).
    @Test func anUpgradeThatOverflowsTheCapIsDroppedOnceAndNeverGreeted() throws {
        let server = EmbeddedServer()
        let client = server.open("stalled")
        client.isReading = false
        try client.send(bytes: Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        // The page is held unread; the cap leaves no room for the 101.
        server.maximumOutputBytes = client.unreadBytes + 50
        try client.send(
            bytes: Array(
                ("GET /ws HTTP/1.1\r\nHost: \(EmbeddedServer.testHost)\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n").utf8))
        #expect(client.state == .dropped)
        let names = server.logs.map(\.name)
        #expect(names.filter { $0 == "drop" }.count == 1, "dropped once: \(names)")
        #expect(!names.contains("connect"), "a dropped connection is no player: \(names)")
    }

    /// Claims the first set of every board over `ws` until the game is over.
    private func playToTheEnd(_ ws: EmbeddedWebSocketClient, from lines: [String]) throws -> (Int, Reply) {
        var board = try #require(BoardView.last(in: lines))
        for taken in 1...40 {
            let set = try #require(board.sets.first, "a board without a set before the end")
            let reply = try ws.request(board.claim(set))
            try #require(reply.isOK("CHOOSE"), "\(reply)")
            if reply.lines.contains(where: { $0.hasPrefix("OVER ") }) { return (taken, reply) }
            board = try #require(BoardView.last(in: reply.lines))
        }
        throw ClientError(description: "the game did not end in 40 sets")
    }
}
