import SetTestSupport
import SetWeb
import Testing

/// The browser's way in over HTTP, in memory: the page and its headers, keep-alive and pipelining,
/// `Connection: close` and HTTP/1.0, the error statuses, heads against `--max-clients`, and the
/// deadlines of a head and of a page's connection.
@Suite struct PageTests {
    private static let page = Array(WebPage.html.utf8)

    @Test func thePageIsServedWithItsHeadersAndTheConnectionClosed() throws {
        let server = EmbeddedServer()
        for target in ["/", "/?room=fun&name=ann"] {
            let response = try server.get(target)
            #expect(response.statusLine == "HTTP/1.1 200 OK")
            #expect(response.value("Content-Type") == "text/html; charset=utf-8")
            #expect(response.value("Cache-Control") == "no-store")
            #expect(response.value("Content-Length") == "\(Self.page.count)")
            #expect(response.body == Self.page)
            // An HTTP client never sees the line protocol's greeting.
            #expect(!String(decoding: response.body, as: UTF8.self).contains("SETD 1"))
        }
        // HTTP/1.0, as a very old client sends it.
        let old = try server.http(Array("GET / HTTP/1.0\r\n\r\n".utf8)).response
        #expect(old.status == 200)
    }

    @Test func thePagesConnectionWaitsForTheNextRequestAndPipelinedOnesAreAnsweredInOrder() throws {
        let server = EmbeddedServer()
        let client = server.open("keep-alive")
        let page = "GET /?room=fun HTTP/1.1\r\nHost: h\r\n\r\n"
        try client.send(bytes: Array(page.utf8))
        let first = try HTTPTestResponse.read(from: client, thenClosed: false)
        #expect(first.status == 200)
        #expect(first.value("Connection") == "keep-alive")
        #expect(first.body == Self.page)
        #expect(client.state == .open && client.unreadBytes == 0, "the connection waits, silent")
        // A reload over the same connection, with a request sent behind it before any answer.
        try client.send(bytes: Array((page + "GET /nope HTTP/1.1\r\nHost: h\r\n\r\n").utf8))
        let second = try HTTPTestResponse.read(from: client, thenClosed: false)
        #expect(second.status == 200)
        #expect(second.body == Self.page)
        // An error still closes: the 404 is the last thing on the connection.
        let third = try HTTPTestResponse.read(from: client)
        #expect(third.status == 404)
    }

    @Test func connectionCloseAndHTTP10GetThePageAndTheEndOfTheConnection() throws {
        let server = EmbeddedServer()
        for request in [
            "GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", "GET / HTTP/1.0\r\n\r\n",
        ] {
            let response = try server.http(Array(request.utf8)).response
            #expect(response.value("Connection") == "close")
            #expect(response.body == Self.page)
        }
        // HTTP/1.0 keeps the connection only when it asks to.
        let (kept, client) = try server.http(
            Array("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n".utf8), thenClosed: false)
        #expect(kept.value("Connection") == "keep-alive")
        try client.send(bytes: Array("GET /x HTTP/1.0\r\n\r\n".utf8))
        #expect(try HTTPTestResponse.read(from: client).status == 404)
    }

    @Test func anIdlePersistentConnectionIsClosedWithoutAWordAfterTwiceTheRegistrationTimeout() throws {
        let server = EmbeddedServer { $0.registrationTimeout = 1 }
        let (_, client) = try server.http(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8), thenClosed: false)
        // Nothing at all is sent meanwhile: no 408 for a request that was never begun, and no greeting.
        // (By design the life of an HTTP connection counts from its accept, whatever it sends; a
        // connection that keeps asking is closed at the same age.)
        server.advance(by: 1.5)
        #expect(client.state == .open, "still open within 2 × 1 s")
        #expect(client.unreadBytes == 0)
        server.advance(by: 1.5)
        #expect(try client.expectEOF() == [], "closed, silently, once 2 × 1 s passed")
    }

    @Test func otherPathsGet404AndMalformedHeads400() throws {
        let server = EmbeddedServer()
        let missing = try server.get("/favicon.ico")
        #expect(missing.statusLine == "HTTP/1.1 404 Not Found")
        #expect(String(decoding: missing.body, as: UTF8.self).contains("404"))
        let bad = try server.http(Array("GET / HTTP/1.1\r\nHost : x\r\n\r\n".utf8)).response
        #expect(bad.status == 400)
        let noUpgrade = try server.get("/ws")
        #expect(noUpgrade.status == 426)
        let version = try server.http(
            Array(
                ("GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n").utf8)
        ).response
        #expect(version.status == 426)
        #expect(version.value("Sec-WebSocket-Version") == "13")
    }

    @Test func aHeadOverEightKiBGets431() throws {
        let server = EmbeddedServer()
        let client = server.open("big")
        try client.send(bytes: Array("GET / HTTP/1.1\r\nHost: h\r\n".utf8))
        // 9 KiB of fields and no blank line: the server answers without waiting for the end.
        var sent = 0
        while sent < 9, client.state == .open {
            try client.send(bytes: Array(("X-Pad: " + String(repeating: "p", count: 1015) + "\r\n").utf8))
            sent += 1
        }
        let response = try HTTPTestResponse.read(from: client)
        #expect(response.statusLine == "HTTP/1.1 431 Request Header Fields Too Large")
        #expect(sent <= 8, "answered once the head passed 8 KiB, after \(sent) KiB of fields")
    }

    @Test func headsInProgressCountAgainstMaxClients() throws {
        let server = EmbeddedServer { $0.maxClients = 2 }
        let slow = [server.open("slow1"), server.open("slow2")]
        for client in slow { try client.send(bytes: Array("GET / HTTP/1.1\r\n".utf8)) }
        let third = try server.get("/")
        #expect(third.status == 503)
        // By design a full server also refuses a WebSocket with 503, at its head, before any upgrade.
        let socket = try server.http(
            Array(
                ("GET /ws HTTP/1.1\r\nHost: \(EmbeddedServer.testHost)\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n").utf8)
        ).response
        #expect(socket.status == 503)
        // Once a slow one finishes, a page loads again.
        try slow[0].send(bytes: Array("Host: h\r\nConnection: close\r\n\r\n".utf8))
        #expect(try HTTPTestResponse.read(from: slow[0]).status == 200)
        #expect(try server.get("/").status == 200)
    }

    @Test func aSlowHeadIsCutAtTheRegistrationTimeoutWith408() throws {
        let server = EmbeddedServer { $0.registrationTimeout = 1 }
        let client = server.open("slow")
        try client.send(bytes: Array("GET / HTTP/1.1\r\n".utf8))
        server.advance(by: 0.5)
        try client.send(bytes: Array("Host: h\r\n".utf8))
        // The timeout counts from the head's first byte, not from its last.
        server.advance(by: 0.4)
        #expect(client.state == .open && client.unreadBytes == 0, "nothing within the timeout")
        server.advance(by: 0.2)
        let response = try HTTPTestResponse.read(from: client)
        #expect(response.status == 408)
    }
}
