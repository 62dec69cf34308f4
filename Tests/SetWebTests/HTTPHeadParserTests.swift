import SetWeb
import Testing

/// The request-head parser on bytes: what a browser and curl send, heads in pieces, the 8 KiB cap and
/// the malformed heads that get 400.
@Suite struct HTTPHeadParserTests {
    @Test func aBrowsersRequestParsesWithItsFields() throws {
        let request = head(
            "GET /?room=fun&name=ann HTTP/1.1", "Host: 192.168.1.5:7777",
            "User-Agent: Mozilla/5.0 (X11; Linux x86_64)", "Accept: text/html,*/*;q=0.8",
            "Connection:keep-alive")
        let parsed = try #require(parsedHead(request))
        #expect(parsed.method == bytes("GET"))
        #expect(parsed.target == bytes("/?room=fun&name=ann"))
        #expect(parsed.path == bytes("/"))
        #expect(parsed.minorVersion == 1)
        #expect(parsed.value("host") == bytes("192.168.1.5:7777"))
        #expect(parsed.value("USER-AGENT") == bytes("Mozilla/5.0 (X11; Linux x86_64)"))
        // No whitespace after the colon, and the value keeps no whitespace around it.
        #expect(parsed.value("Connection") == bytes("keep-alive"))
    }

    @Test func bytesAfterTheHeadAreHandedBack() {
        let frame: [UInt8] = [0x81, 0x85, 1, 2, 3, 4, 5]
        guard case .complete(_, let rest) = parse(upgradeRequest() + frame) else {
            Issue.record("the head did not parse")
            return
        }
        #expect(rest == frame)
    }

    @Test func aHeadInOneBytePiecesParsesLikeAWholeOne() {
        let request = upgradeRequest()
        var parser = HTTPHeadParser()
        var results: [HTTPHeadParser.Progress] = []
        for byte in request { results.append(parser.append([byte])) }
        #expect(results.dropLast().allSatisfy { $0 == .incomplete })
        #expect(results.last == parse(request))
        #expect(parsedHead(request) != nil)
    }

    @Test func bareLineFeedsAndHTTP10AreAccepted() throws {
        let parsed = try #require(parsedHead(bytes("GET / HTTP/1.0\nAccept: */*\n\n")))
        #expect(parsed.minorVersion == 0)
        #expect(parsed.value("Accept") == bytes("*/*"))
        // HTTP/1.0 needs no Host.
        #expect(parsed.value("Host") == nil)
    }

    @Test func listFieldsAreCommaSeparatedTokensWithoutCaseOverSeveralLines() throws {
        let parsed = try #require(
            parsedHead(
                head(
                    "GET /ws HTTP/1.1", "Host: h", "Connection: keep-alive, Upgrade", "Upgrade: h2c",
                    "upgrade: WebSocket")))
        #expect(parsed.listContains("connection", "upgrade"))
        #expect(parsed.listContains("Upgrade", "websocket"))
        #expect(!parsed.listContains("Connection", "close"))
        let versioned = try #require(parsedHead(head("GET /ws HTTP/1.1", "Host: h", "Upgrade: websocket/13")))
        #expect(!versioned.listContains("Upgrade", "websocket"))
    }

    @Test func aHeadOverEightKiBGets431AsSoonAsItIsOver() {
        var parser = HTTPHeadParser()
        let first = parser.append(bytes("GET / HTTP/1.1\r\nHost: h\r\n"))
        #expect(first == .incomplete)
        let filler = bytes("X-Filler: " + String(repeating: "a", count: 100) + "\r\n")
        var progress = HTTPHeadParser.Progress.incomplete
        var sent = 0
        while progress == .incomplete, sent < 20_000 {
            progress = parser.append(filler)
            sent += filler.count
            #expect(parser.bufferedCount <= HTTPHeadParser.maximumHeadLength + filler.count)
        }
        #expect(failedStatus(progress) == .headTooLarge)
        #expect(sent < HTTPHeadParser.maximumHeadLength + filler.count)
        // Nothing more is held or decided after the failure.
        #expect(parser.bufferedCount == 0)
        #expect(failedStatus(parser.append(bytes("\r\n\r\n"))) == .headTooLarge)
    }

    @Test func aHeadOfExactlyEightKiBIsAcceptedAndOneByteMoreIsNot() {
        let start = "GET / HTTP/1.1\r\nHost: h\r\nX-Pad: "
        let end = "\r\n\r\n"
        let fill = HTTPHeadParser.maximumHeadLength - start.utf8.count - end.utf8.count
        let exact = bytes(start + String(repeating: "p", count: fill) + end)
        #expect(exact.count == HTTPHeadParser.maximumHeadLength)
        #expect(parsedHead(exact) != nil)
        let over = bytes(start + String(repeating: "p", count: fill + 1) + end)
        #expect(failedStatus(parse(over)) == .headTooLarge)
    }

    @Test(arguments: [
        "GET  / HTTP/1.1",  // two spaces
        "GET / HTTP/1.1 ",  // a trailing space
        "GET /",  // no version
        "GET / HTTP/1.1 extra",
        "GET / HTTP/1.x",
        "GET / http/1.1",
        "GET / HTTP/11",
        "G(T / HTTP/1.1",  // a method that is not a token
        "GET /a\u{7F}b HTTP/1.1",  // a control byte in the target
    ])
    func malformedRequestLinesGet400(_ line: String) {
        #expect(failedStatus(parse(head(line, "Host: h"))) == .badRequest, "\(line)")
    }

    @Test func otherHTTPVersionsGet505() {
        #expect(failedStatus(parse(head("GET / HTTP/2.0", "Host: h"))) == .versionNotSupported)
        #expect(failedStatus(parse(head("GET / HTTP/1.2", "Host: h"))) == .versionNotSupported)
    }

    @Test(arguments: [
        "Host : h",  // whitespace before the colon
        " folded",  // obsolete line folding
        "NoColon",
        ": empty name",
        "Bad\u{01}Name: x",
        "X-Value: a\u{01}b",  // a control byte in a value
        "X-Value: a\rb",  // a bare CR inside a line
    ])
    func malformedFieldLinesGet400(_ line: String) {
        #expect(failedStatus(parse(head("GET / HTTP/1.1", "Host: h", line))) == .badRequest, "\(line)")
    }

    @Test func http11NeedsExactlyOneHost() {
        #expect(failedStatus(parse(head("GET / HTTP/1.1"))) == .badRequest)
        #expect(failedStatus(parse(head("GET / HTTP/1.1", "Host: a", "Host: b"))) == .badRequest)
    }

    @Test func aGetWithABodyGets400() {
        #expect(failedStatus(parse(head("GET / HTTP/1.1", "Host: h", "Content-Length: 5"))) == .badRequest)
        #expect(
            failedStatus(parse(head("GET / HTTP/1.1", "Host: h", "Transfer-Encoding: chunked")))
                == .badRequest)
        #expect(parsedHead(head("GET / HTTP/1.1", "Host: h", "Content-Length: 0")) != nil)
    }

    @Test func theHeadEndsAtTheFirstBlankLineEvenWithCRLFAndLFMixed() throws {
        guard case .complete(let parsed, let rest) = parse(bytes("GET / HTTP/1.1\r\nHost: h\n\r\nleft"))
        else {
            Issue.record("no head")
            return
        }
        #expect(parsed.fields.count == 1)
        #expect(rest == bytes("left"))
    }
}
