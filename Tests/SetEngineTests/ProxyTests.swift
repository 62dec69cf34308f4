import SetEngine
import SetServerCore
import SetTestSupport
import Testing

/// Hosting behind a proxy, in memory (issue 29): from a `--trust-proxy` peer, a PROXY header (v1 or v2)
/// or an HTTP request's forwarding fields name the client, and every per-address limit, log line and the
/// core's address key are the client's; from any other peer a PROXY header closes the connection and
/// forwarding fields change nothing.
@Suite struct ProxyTests {
    /// The proxy's address, as the socket reports it.
    static let proxy = "127.0.0.1"

    static func server(_ configure: (inout ServerConfiguration) -> Void = { _ in }) -> EmbeddedServer {
        EmbeddedServer {
            $0.trustedProxies = [AddressRange("127.0.0.1/32")!]
            configure(&$0)
        }
    }

    static func v1(_ client: String, port: Int) -> [UInt8] {
        let family = client.contains(":") ? "TCP6" : "TCP4"
        let destination = client.contains(":") ? "2001:db8::1" : "192.0.2.1"
        return Array("PROXY \(family) \(client) \(destination) \(port) 7778\r\n".utf8)
    }

    static func v2(_ client: [UInt8], port: UInt16) -> [UInt8] {
        ProxyHeaderTests.v2(
            family: 0x11, client + [192, 0, 2, 1, UInt8(port >> 8), UInt8(port & 0xFF), 0x1E, 0x62])
    }

    /// A connection from the proxy that relays `header`'s client, greeted after the client's window.
    static func relayed(
        _ label: String, _ header: [UInt8], on server: EmbeddedServer, from host: String = proxy
    ) throws -> EmbeddedClient {
        let client = server.open(label, host: host)
        try client.send(bytes: header)
        #expect(client.unreadBytes == 0, "\(label): nothing before the client's own window ends")
        server.advance(by: server.engine.configuration.sniffWindow)
        let greeting = try client.readLine()
        guard greeting.hasPrefix("SETD 1 ") else {
            throw ClientError(description: "\(label): got '\(greeting)'")
        }
        return client
    }

    static func connectLines(_ server: EmbeddedServer) -> [String] {
        server.logs.filter { $0.name == "connect" }.map(\.description)
    }

    // MARK: The PROXY protocol

    @Test func fourFriendsBehindOneProxyEachGetTheirRoomTheirLimitAndTheirLogLines() throws {
        let server = Self.server { $0.maxRoomsPerIP = 1 }
        var friends: [EmbeddedClient] = []
        for index in 1...4 {
            // Two speak version 1 (nginx), two version 2 (HAProxy).
            let header =
                index <= 2
                ? Self.v1("203.0.113.\(index)", port: 50_000 + index)
                : Self.v2([203, 0, 113, UInt8(index)], port: UInt16(50_000 + index))
            let friend = try Self.relayed("friend \(index)", header, on: server)
            _ = try friend.hello("friend\(index)")
            #expect(try friend.request("JOIN room\(index)").isOK("JOIN room\(index)"), "friend \(index)")
            friends.append(friend)
        }
        #expect(
            Self.connectLines(server)
                == (1...4).map { "info connect id=\($0) peer=203.0.113.\($0):\(50_000 + $0)" })
        // Each friend's own limit: a second room from the same address is refused, from any connection.
        let again = try Self.relayed("friend 1 again", Self.v1("203.0.113.1", port: 50_100), on: server)
        _ = try again.hello("friend1b")
        #expect(try again.request("JOIN another").final.hasPrefix("ERR JOIN TOOMANYROOMS "))
        #expect(try friends[3].request("PING").final == "OK PING")
    }

    @Test func perAddressConnectionsCountTheClientOnceItIsKnownAndNeverTheProxy() throws {
        let server = Self.server { $0.maxPerIP = 1 }
        // Three connections from the proxy at once, none counted under the proxy while their headers come.
        let waiting = (1...3).map { server.open("relay \($0)", host: Self.proxy) }
        for (index, client) in waiting.enumerated() {
            try client.send(bytes: Self.v1("198.51.100.\(index + 1)", port: 40_000))
        }
        server.advance(by: server.engine.configuration.sniffWindow)
        for client in waiting { #expect(try client.readLine().hasPrefix("SETD 1 "), "\(client.label)") }
        // The limit is each client's: a second connection of 198.51.100.1 is refused, in the protocol it speaks.
        let second = server.open("second", host: Self.proxy)
        try second.send(bytes: Self.v1("198.51.100.1", port: 40_001) + Array("HELLO ann\n".utf8))
        #expect(try second.expectEOF().first?.hasPrefix("ERR - FULL 1 connections from your address") == true)
        let silent = server.open("silent second", host: Self.proxy)
        try silent.send(bytes: Self.v1("198.51.100.2", port: 40_001))
        #expect(
            silent.lines(arrivingWithin: server.engine.configuration.sniffWindow).first?.hasPrefix(
                "ERR - FULL ") == true)
        #expect(
            server.logs.filter { $0.name == "refuse" }.first?.description
                == "warn refuse peer=198.51.100.1:40001 reason=max-per-ip refused=1")
        // Closing gives the place back to that client, not to the proxy.
        waiting[0].close()
        _ = try Self.relayed("back", Self.v1("198.51.100.1", port: 40_002), on: server)
        // An operator's nc on the proxy's host says nothing first: the proxy's own, counted as such.
        let operatorNC = try server.connect("operator", host: Self.proxy)
        #expect(try operatorNC.request("PING").final == "OK PING")
        let secondNC = server.open("operator again", host: Self.proxy)
        #expect(
            secondNC.lines(arrivingWithin: server.engine.configuration.sniffWindow).first?.hasPrefix(
                "ERR - FULL ") == true)
        #expect(
            Self.connectLines(server).contains("info connect id=7 peer=127.0.0.1:40007"),
            "\(Self.connectLines(server))")
    }

    @Test func aHeaderInPiecesAndBytesRightBehindItWork() throws {
        let server = Self.server()
        let client = server.open("pieces", host: Self.proxy)
        let bytes = Self.v2([203, 0, 113, 77], port: 4711) + Array("HELLO ann\n".utf8)
        for byte in bytes { try client.send(bytes: [byte]) }
        // The client spoke first: greeted at once, then answered.
        #expect(try client.readLine().hasPrefix("SETD 1 "))
        #expect(try client.readLine().hasPrefix("OK HELLO ann"))
        #expect(Self.connectLines(server) == ["info connect id=1 peer=203.0.113.77:4711"])
        // A health check (v2 LOCAL, v1 UNKNOWN) is the proxy's own connection.
        for header in [ProxyHeaderTests.v2(command: 0, family: 0, []), Array("PROXY UNKNOWN\r\n".utf8)] {
            _ = try Self.relayed("check", header, on: server)
        }
        #expect(
            Self.connectLines(server).suffix(2) == [
                "info connect id=2 peer=127.0.0.1:40002", "info connect id=3 peer=127.0.0.1:40003",
            ])
    }

    @Test func aPROXYHeaderFromAPeerNotTrustedClosesTheConnectionWithoutAWord() throws {
        for configure: (inout ServerConfiguration) -> Void in [{ _ in }, { $0.isHTTPEnabled = false }] {
            let server = Self.server(configure)
            let isHTTPEnabled = server.engine.configuration.isHTTPEnabled
            for (index, header) in [Self.v1("203.0.113.1", port: 1), Self.v2([203, 0, 113, 1], port: 1)]
                .enumerated()
            {
                let spoofer = server.open("spoofer \(index)", host: "198.51.100.66")
                try spoofer.send(bytes: header + Array("HELLO mallory\n".utf8))
                // With the page off the greeting went out at accept; nothing else does.
                let said = try spoofer.expectEOF()
                #expect(
                    said.count == (isHTTPEnabled ? 0 : 1) && said.allSatisfy { $0.hasPrefix("SETD 1 ") },
                    "\(said)")
            }
            #expect(
                server.logs.contains {
                    $0.name == "proxy-header-refused" && $0.description.contains("peer=198.51.100.66:")
                })
            #expect(
                !server.logs.contains { $0.description.contains("203.0.113.1") },
                "the spoofed address is never used")
            #expect(server.connectionCount == 0)
        }
        // Behind the proxy, a client's own header after the proxy's is refused as well.
        let server = Self.server()
        let client = server.open("nested", host: Self.proxy)
        try client.send(bytes: Self.v1("198.51.100.9", port: 2) + Self.v1("203.0.113.1", port: 1))
        #expect(try client.expectEOF().isEmpty)
        #expect(
            server.logs.contains {
                $0.name == "proxy-header-refused" && $0.description.contains("peer=198.51.100.9:2")
            })
        // A header after a silent window (a greeted connection's first bytes) too.
        let late = try server.connect("late", host: "198.51.100.10")
        try late.send(bytes: Self.v1("203.0.113.1", port: 1))
        #expect(try late.expectEOF().isEmpty)
        // A line that merely starts like one is a command as before.
        let typist = try server.connect("typist", host: "198.51.100.11")
        #expect(try typist.request("PROXIES").final.hasPrefix("ERR - UNKNOWN "))
    }

    @Test func aBrokenHeaderFromTheTrustedProxyClosesTheConnection() throws {
        let server = Self.server()
        for (index, bad) in [
            "PROXY TCP4 203.0.113.09 192.0.2.1 1 2\r\n", "PROXY TCP4 203.0.113.9 192.0.2.1 1 2\n",
        ].enumerated() {
            let client = server.open("broken \(index)", host: Self.proxy)
            try client.send(bytes: Array(bad.utf8))
            #expect(try client.expectEOF().isEmpty)
        }
        let tooLong = server.open("too long", host: Self.proxy)
        try tooLong.send(bytes: Array(("PROXY UNKNOWN " + String(repeating: "x", count: 200)).utf8))
        #expect(try tooLong.expectEOF().isEmpty)
        // A header still unfinished when the window ends (a proxy sends it whole, at once).
        for (index, start) in [
            Array("PROXY TCP4 203.0.113.9".utf8), Array(Self.v2([1, 2, 3, 4], port: 1).prefix(20)),
        ]
        .enumerated() {
            let stalled = server.open("stalled \(index)", host: Self.proxy)
            try stalled.send(bytes: start)
            #expect(stalled.lines(arrivingWithin: server.engine.configuration.sniffWindow).isEmpty)
            #expect(stalled.isAtEOF, "stalled \(index) is closed at the window's end")
        }
        #expect(server.logs.filter { $0.name == "proxy-header-invalid" }.count == 5)
        #expect(server.connectionCount == 0)
    }

    @Test func withThePageOffTheProxysClientIsGreetedOnceItsHeaderIsRead() throws {
        let server = Self.server { $0.isHTTPEnabled = false }
        let client = server.open("relayed", host: Self.proxy)
        #expect(client.unreadBytes == 0, "nothing before the header says who the client is")
        try client.send(bytes: Self.v1("203.0.113.5", port: 5555))
        #expect(try client.readLine().hasPrefix("SETD 1 "), "greeted at once after the header")
        #expect(
            try client.request("GET x").final.hasPrefix("ERR - UNKNOWN "),
            "GET is a command with the page off")
        #expect(Self.connectLines(server) == ["info connect id=1 peer=203.0.113.5:5555"])
        // A silent connection from the proxy's host is greeted at the end of its window.
        let local = server.open("operator", host: Self.proxy)
        #expect(local.unreadBytes == 0)
        server.advance(by: server.engine.configuration.sniffWindow)
        #expect(try local.readLine().hasPrefix("SETD 1 "))
        #expect(try local.request("PING").final == "OK PING")
    }

    // MARK: HTTP and WebSocket

    static let forwarded = "X-Forwarded-For"

    @Test func aTrustedProxysForwardingFieldsNameTheClientOfEachRequest() throws {
        let server = Self.server()
        let request =
            "GET / HTTP/1.1\r\nHost: set.example.org\r\nX-Forwarded-For: 198.51.100.1, 203.0.113.9\r\n"
            + "Connection: close\r\n\r\n"
        #expect(try server.http(Array(request.utf8), host: Self.proxy).response.status == 200)
        #expect(try server.http(Array(request.utf8), host: "198.51.100.7").response.status == 200)
        let forwarded =
            "GET / HTTP/1.1\r\nHost: h\r\nForwarded: for=\"[2001:db8::9]:4711\"\r\nConnection: close\r\n\r\n"
        #expect(try server.http(Array(forwarded.utf8), host: Self.proxy).response.status == 200)
        let peers = server.logs.filter { $0.name == "http" }.map { $0.description }
        #expect(
            peers == [
                "info http id=1 peer=203.0.113.9 path=/ status=200",
                "info http id=2 peer=198.51.100.7:40002 path=/ status=200",
                "info http id=3 peer=[2001:db8::9]:4711 path=/ status=200",
            ], "the right-most untrusted hop; a field from a peer not trusted changes nothing")
    }

    /// The page's per-address request rate (a burst of 40) is each client's behind the proxy: one
    /// client pulling the page gets 429, another at the same instant is served.
    @Test func thePagesRequestRateIsEachClientsBehindTheProxy() throws {
        let server = Self.server()
        func get(_ client: String) throws -> Int {
            let request =
                "GET / HTTP/1.1\r\nHost: h\r\n\(Self.forwarded): \(client)\r\nConnection: close\r\n\r\n"
            return try server.http(Array(request.utf8), host: Self.proxy).response.status
        }
        let statuses = try (0..<41).map { _ in try get("203.0.113.1") }
        #expect(statuses.prefix(40).allSatisfy { $0 == 200 } && statuses.last == 429, "\(statuses)")
        #expect(try get("203.0.113.2") == 200, "another client behind the same proxy")
    }

    @Test func fourWebSocketFriendsBehindOneProxyEachGetTheirRoomAndTheirConnectionLimit() throws {
        let server = Self.server {
            $0.maxRoomsPerIP = 1
            $0.maxPerIP = 1
        }
        var friends: [WebSocketClient<EmbeddedClient>] = []
        for index in 1...4 {
            let friend = try server.webSocket(
                "friend \(index)", host: Self.proxy, fields: ["\(Self.forwarded): 203.0.113.\(index)"])
            _ = try friend.hello("friend\(index)")
            #expect(try friend.request("JOIN room\(index)").isOK("JOIN room\(index)"))
            friends.append(friend)
        }
        #expect(Self.connectLines(server) == (1...4).map { "info connect id=\($0) peer=203.0.113.\($0)" })
        // The limit of one connection is friend 1's own: a second WebSocket of theirs gets 503.
        let second = server.open("friend 1 again", host: Self.proxy)
        try second.send(
            bytes: Array(
                ("GET /ws HTTP/1.1\r\nHost: \(EmbeddedServer.testHost)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                    + "\(Self.forwarded): 203.0.113.1\r\n\r\n").utf8))
        #expect(try HTTPTestResponse.read(from: second).status == 503)
        // A spoofed field from a peer not trusted is ignored: counted as itself.
        let spoofer = try server.webSocket(
            "spoofer", host: "198.51.100.66", fields: ["\(Self.forwarded): 203.0.113.2"])
        _ = try spoofer.hello("mallory")
        #expect(Self.connectLines(server).last == "info connect id=6 peer=198.51.100.66:40006")
        #expect(try friends[1].request("PING").final == "OK PING")
    }

    @Test func thePublicURLsPagesMayUseTheWebSocket() throws {
        let server = Self.server { $0.publicURL = "https://set.example.org" }
        let friend = try server.webSocket("friend", host: Self.proxy, origin: "https://set.example.org")
        #expect(try friend.request("PING").final == "OK PING")
        let other = server.open("other site", host: Self.proxy)
        try other.send(
            bytes: Array(
                ("GET / HTTP/1.1\r\nHost: 127.0.0.1:7777\r\nOrigin: https://evil.example\r\nConnection: close\r\n\r\n")
                    .utf8))
        #expect(try HTTPTestResponse.read(from: other).status == 403)
    }
}
