import SetDigest
import SetWeb
import Testing

/// Routing and the opening handshake: the page, the upgrade (RFC 6455's own example), and every refusal.
@Suite struct WebRouterTests {
    let page = bytes("<!doctype html><p>hi</p>")

    func reply(_ request: [UInt8]) throws -> WebRouter.Reply {
        WebRouter.reply(to: try #require(parsedHead(request)), page: page)
    }

    @Test func rfc6455sExampleKeyGetsItsAcceptValue() {
        #expect(
            WebSocketHandshake.accept(forKey: bytes("dGhlIHNhbXBsZSBub25jZQ=="))
                == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func aResponseGoesOutAsItsStatusLineFieldsLengthAndBodyByteForByte() {
        let page = HTTPResponse(
            status: .ok, fields: [("Content-Type", "text/plain"), ("X-Note", "h\u{E9}llo")],
            body: bytes("hi\n"))
        #expect(
            page.bytes
                == bytes(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Note: h\u{E9}llo\r\nContent-Length: 3\r\n\r\nhi\n"
                ))
        // A 101 has no length: what follows it is the WebSocket's.
        let upgrade = HTTPResponse(status: .switchingProtocols, fields: [("Upgrade", "websocket")])
        #expect(upgrade.bytes == bytes("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"))
        #expect(HTTPResponse(status: .ok).bytes == bytes("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
    }

    @Test func theRootServesThePageWithItsHeadersAndAnyQuery() throws {
        for target in ["/", "/?room=fun", "/?room=fun&name=ann"] {
            let response = try reply(head("GET \(target) HTTP/1.1", "Host: h")).response
            #expect(response.status == .ok)
            #expect(response.value("Content-Type") == "text/html; charset=utf-8")
            #expect(response.value("Cache-Control") == "no-store")
            #expect(response.body == page)
            let text = String(decoding: response.bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.contains("\r\nContent-Length: \(page.count)\r\n\r\n<!doctype html>"))
        }
    }

    @Test func thePageKeepsTheConnectionUnlessTheClientClosesItAndErrorsCloseIt() throws {
        let cases: [([String], Bool)] = [
            (["GET / HTTP/1.1", "Host: h"], true),
            (["GET / HTTP/1.1", "Host: h", "Connection: close"], false),
            (["GET / HTTP/1.1", "Host: h", "Connection: keep-alive, Close"], false),
            (["GET / HTTP/1.0"], false),
            (["GET / HTTP/1.0", "Connection: Keep-Alive"], true),
            (["GET /nope HTTP/1.1", "Host: h"], false),
        ]
        for (lines, persists) in cases {
            let answer = try reply(bytes(lines.joined(separator: "\r\n") + "\r\n\r\n"))
            #expect(answer.keepsAlive == persists, "\(lines)")
            #expect(answer.response.value("Connection") == (persists ? "keep-alive" : "close"), "\(lines)")
        }
    }

    @Test func otherPathsGet404AndOtherMethods405() throws {
        for target in ["/index.html", "/favicon.ico", "/ws/", "/WS", "http://h/"] {
            #expect(
                try reply(head("GET \(target) HTTP/1.1", "Host: h")).response.status == .notFound, "\(target)"
            )
        }
        let post = try reply(head("POST / HTTP/1.1", "Host: h"))
        #expect(post.response.status == .methodNotAllowed)
        #expect(post.response.value("Allow") == "GET")
    }

    @Test func aValidUpgradeGets101WithTheAcceptValueAndNoBody() throws {
        let reply = try reply(upgradeRequest())
        #expect(reply.isUpgrade)
        let text = String(decoding: reply.response.bytes, as: UTF8.self)
        #expect(
            text
                == "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
        // Chrome's and Firefox's spellings of the list fields.
        let firefox = upgradeRequest().replacing(
            bytes("Connection: Upgrade"), with: bytes("Connection: keep-alive, Upgrade"))
        #expect(try self.reply(firefox).isUpgrade)
    }

    @Test func aRandomKeyGetsTheAcceptComputedFromTheRFC() throws {
        let key = Base64.encode((0..<16).map { UInt8($0 * 7 + 3) })
        let reply = try reply(upgradeRequest(key: key))
        let expected = Base64.encode(SHA1.digest(bytes(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11")))
        #expect(reply.response.value("Sec-WebSocket-Accept") == expected)
    }

    @Test func aWrongVersionGets426WithTheVersionWeSpeak() throws {
        for version in ["8", "12", "14", ""] {
            let response = try reply(upgradeRequest(version: version)).response
            #expect(response.status == .upgradeRequired)
            #expect(response.value("Sec-WebSocket-Version") == "13")
        }
    }

    @Test func theWebSocketPathWithoutAnUpgradeGets426() throws {
        let response = try reply(head("GET /ws HTTP/1.1", "Host: h")).response
        #expect(response.status == .upgradeRequired)
        #expect(response.value("Upgrade") == "websocket")
        let noConnection = try reply(head("GET /ws HTTP/1.1", "Host: h", "Upgrade: websocket")).response
        #expect(noConnection.status == .upgradeRequired)
    }

    @Test(arguments: [
        "", "abc", "dGhlIHNhbXBsZSBub25jZQ", "dGhlIHNhbXBsZSBub25jZQ=", "dGhlIHNhbXBsZSBub25jZQ===",
        "dGhlIHNhbXBsZSBub25jZQ==AAAA", "dGhlIHNhbXBsZSBub25jZR==", "dGhl*HNhbXBsZSBub25jZQ==",
    ])
    func aKeyThatIsNotSixteenBytesInBase64Gets400(_ key: String) throws {
        #expect(try reply(upgradeRequest(key: key)).response.status == .badRequest, "\(key)")
    }

    @Test func anUpgradeOverHTTP10Gets400() throws {
        var request = upgradeRequest()
        request = request.replacing(bytes("HTTP/1.1"), with: bytes("HTTP/1.0"))
        #expect(try reply(request).response.status == .badRequest)
    }

    @Test func base64RoundTripsAndRefusesNonCanonicalText() {
        for count in 0..<40 {
            let data = (0..<count).map { UInt8(($0 * 37 + count) & 0xFF) }
            #expect(Base64.decode(bytes(Base64.encode(data))) == data)
        }
        #expect(Base64.encode(bytes("foobar")) == "Zm9vYmFy")
        #expect(Base64.encode(bytes("fo")) == "Zm8=")
        #expect(Base64.decode(bytes("Zm9=")) == nil)  // stray bits under the padding
        #expect(Base64.decode(bytes("Zm=8")) == nil)
    }

    @Test func firstBytesDecide() {
        #expect(FirstBytes.classify(bytes("")) == .undecided)
        #expect(FirstBytes.classify(bytes("G")) == .undecided)
        #expect(FirstBytes.classify(bytes("GET")) == .undecided)
        #expect(FirstBytes.classify(bytes("GET ")) == .http)
        #expect(FirstBytes.classify(bytes("GET /ws HTTP/1.1")) == .http)
        #expect(FirstBytes.classify(bytes("GETS")) == .lineProtocol)
        #expect(FirstBytes.classify(bytes("get ")) == .lineProtocol)
        #expect(FirstBytes.classify(bytes("HELLO ann")) == .lineProtocol)
        #expect(FirstBytes.classify(bytes("POST / HTTP/1.1")) == .lineProtocol)
        #expect(FirstBytes.classify([0xFF, 0xFB, 0x1F]) == .lineProtocol)
        // A slice that starts past index 0, as a read's bytes after a PROXY header are.
        #expect(FirstBytes.classify(bytes("xxGET /")[2...]) == .http)
        #expect(FirstBytes.classify(bytes("xxGE")[2...]) == .undecided)
        #expect(FirstBytes.classify(bytes("GETxGET ")[4...]) == .http)
    }
}
