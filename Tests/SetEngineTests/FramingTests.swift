import SetTestSupport
import Testing

/// Lines on the wire, in memory: pipelining, line endings, case, blank lines, over-long and malformed
/// input.
@Suite struct FramingTests {
    /// What one reply of the pipeline should be: its data lines and its final line.
    private struct Expected {
        var data: (([String]) -> Bool)
        var final: (String) -> Bool
        var text: String
    }

    @Test func pipelinedRepliesComeInOrderAndWhole() throws {
        let server = EmbeddedServer()
        let (bob, _) = try server.player("bob", room: "pipe")
        let client = try server.connect("pipeliner")
        func isSnapshot(_ lines: [String]) -> Bool {
            lines.count == 8 && lines[0] == "ROOM pipe set 2 playing" && lines[1].hasPrefix("OPTIONS ")
                && lines[2].hasPrefix("BOARD ") && lines[3].hasPrefix("DECK ")
                && lines[4] == "PLAYER bob 0 online" && lines[5] == "PLAYER pip 0 online"
                && lines[6] == "HOST bob" && lines[7].hasPrefix("STARTED ")
        }
        let none: ([String]) -> Bool = { $0.isEmpty }
        let script: [(String, Expected)] = [
            ("HELLO pip", Expected(data: none, final: { $0.hasPrefix("OK HELLO pip ") }, text: "OK HELLO")),
            (
                "JOIN pipe",
                Expected(data: isSnapshot, final: { $0.hasPrefix("OK JOIN pipe ") }, text: "OK JOIN")
            ),
            ("STATE", Expected(data: isSnapshot, final: { $0 == "OK STATE 8" }, text: "OK STATE")),
            ("PING", Expected(data: none, final: { $0 == "OK PING" }, text: "OK PING")),
            ("PING", Expected(data: none, final: { $0 == "OK PING" }, text: "OK PING")),
            ("PING", Expected(data: none, final: { $0 == "OK PING" }, text: "OK PING")),
            (
                "HINT",
                Expected(
                    data: { $0.count == 1 && $0[0].hasPrefix("HINT ") }, final: { $0 == "OK HINT 1" },
                    text: "OK HINT")
            ),
            ("HISTORY", Expected(data: none, final: { $0 == "OK HISTORY 0" }, text: "OK HISTORY 0")),
            (
                "ROOMS",
                Expected(
                    data: { $0 == ["ROOM pipe set 2 playing"] }, final: { $0 == "OK ROOMS 1" },
                    text: "OK ROOMS")
            ),
            (
                "HELP",
                Expected(
                    data: { $0.count == 29 && $0.allSatisfy { $0.hasPrefix("HELP ") } },
                    final: { $0.hasPrefix("OK HELP ") }, text: "OK HELP")
            ),
            (
                "CHAT hi all",
                Expected(data: { $0 == ["CHAT pip hi all"] }, final: { $0 == "OK CHAT" }, text: "OK CHAT")
            ),
            ("FROB", Expected(data: none, final: { $0.hasPrefix("ERR - UNKNOWN ") }, text: "ERR - UNKNOWN")),
            (
                "HELLO pip",
                Expected(data: none, final: { $0.hasPrefix("ERR HELLO ALREADY ") }, text: "ALREADY")
            ),
            ("PING", Expected(data: none, final: { $0 == "OK PING" }, text: "OK PING")),
            ("CHOOSE a b", Expected(data: none, final: { $0.hasPrefix("ERR CHOOSE ARGS ") }, text: "ARGS")),
            ("STATE", Expected(data: isSnapshot, final: { $0 == "OK STATE 8" }, text: "OK STATE")),
            (
                "WATCH nope",
                Expected(data: none, final: { $0.hasPrefix("ERR WATCH NOSUCHROOM") }, text: "NOSUCH")
            ),
            ("PING", Expected(data: none, final: { $0 == "OK PING" }, text: "OK PING")),
            (
                "HINT",
                Expected(
                    data: { $0.count == 1 && $0[0].hasPrefix("HINT ") }, final: { $0 == "OK HINT 1" },
                    text: "OK HINT")
            ),
            ("PING", Expected(data: none, final: { $0 == "OK PING" }, text: "OK PING")),
        ]
        #expect(script.count == 20)
        // The whole pipeline leaves before any reply is read; bob chats between its lines, so his events
        // fall between replies, and must never land inside one.
        for (index, (command, _)) in script.enumerated() {
            try client.send(command)
            try bob.send(lines: (0..<2).map { "CHAT line \(2 * index + $0)" })
        }
        var events = 0
        for (index, (command, expected)) in script.enumerated() {
            let reply = try client.readReply()
            // Events from bob come first; the reply's data lines follow, all together.
            let chats = reply.lines.prefix { $0.hasPrefix("CHAT bob ") }
            let data = Array(reply.lines.dropFirst(chats.count))
            events += chats.count
            #expect(
                expected.final(reply.final),
                "reply \(index) to \(command): want \(expected.text), got \(reply)")
            #expect(expected.data(data), "reply \(index) to \(command) has its data lines together: \(reply)")
        }
        #expect(try client.request("PING").lines.count == 2, "bob's last chats, then the reply")
        #expect(events == 36, "bob's chats from the moment pip joined came between the replies: \(events)")
    }

    @Test func crlfCaseAndBlankLines() throws {
        let server = EmbeddedServer()
        let client = try server.connect("windows")
        try client.send(bytes: Array("HELLO crlf\r\n".utf8))
        let hello = try client.readReply()
        let parts = hello.final.split(separator: " ")
        #expect(parts.count == 4 && parts[2] == "crlf", "\(hello)")
        #expect(!hello.final.contains("\r"))
        let token = parts.last ?? ""
        #expect(token.allSatisfy { $0.isHexDigit }, "token \(token) has no CR")

        try client.send(bytes: Array("jOiN \t  Room1\r\n".utf8))
        let join = try client.readReply()
        #expect(join.isOK("JOIN Room1"), "\(join)")
        let board = try #require(BoardView.last(in: join.lines))

        // Blank lines of every kind are ignored: the next line is PING's reply.
        try client.send(bytes: Array("\n\r\n   \n\t \r\n\n".utf8))
        #expect(try client.request("ping").final == "OK PING")
        #expect(try client.request("sTaTe").isOK("STATE"))

        // Card codes and positions are case-insensitive; the server answers in upper case.
        let set = board.sets[0]
        let lower = board.codes(set).map { $0.lowercased() }
        let reply = try client.request("Choose\t" + lower.joined(separator: "\t"))
        #expect(reply.final == "OK CHOOSE " + board.codes(set).joined(separator: " "), "\(reply)")
        let next = try #require(BoardView.last(in: reply.lines))
        let second = next.sets[0].map { BoardView.position($0).uppercased() }.joined(separator: " ")
        let upper = try client.request("CHOOSE \(second) @\(next.revision)\r")
        #expect(upper.isOK("CHOOSE"), "\(upper)")
    }

    @Test func overLongLinesAreRefusedAndTheConnectionStays() throws {
        let server = EmbeddedServer()
        let client = try server.connect("verbose")
        // 1024 bytes is allowed, with or without CR.
        let longest = "PING" + String(repeating: " ", count: 1020)
        #expect(longest.utf8.count == 1024)
        #expect(try client.request(longest).final == "OK PING")
        #expect(try client.request(longest + "\r").final == "OK PING")
        // 1025 is not.
        let reply = try client.request(longest + " ")
        #expect(reply.lines.isEmpty)
        #expect(reply.final.hasPrefix("ERR - TOOLONG "), "\(reply)")
        #expect(try client.request("PING").final == "OK PING")

        // An over-long line sent in pieces, time apart, is one refusal: as soon as it passes the cap,
        // and nothing for the rest of it.
        try client.send(bytes: Array(String(repeating: "y", count: 3000).utf8))
        #expect(try client.readReply().final.hasPrefix("ERR - TOOLONG "))
        server.advance(by: 0.05)
        try client.send(bytes: Array(String(repeating: "y", count: 3000).utf8))
        server.advance(by: 0.05)
        try client.send("yyy")
        #expect(client.unreadBytes == 0, "the rest of the line was discarded, not refused again")
        #expect(try client.request("PING").final == "OK PING")
    }

    @Test func aMultiMegabyteLineIsOneRefusal() throws {
        let server = EmbeddedServer()
        let client = try server.connect("huge")
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 5 << 20)
        bytes += Array("\nPING\n".utf8)
        try client.send(bytes: bytes)
        let first = try client.readReply()
        #expect(first.final.hasPrefix("ERR - TOOLONG "), "\(first)")
        #expect(first.lines.isEmpty)
        let second = try client.readReply()
        #expect(second.final == "OK PING", "exactly one TOOLONG for the whole line: \(second)")
    }

    // 0xFF is telnet's IAC: before the LF (no command) it stays data, and FF FF is a 0xFF sent by telnet.
    @Test(
        arguments: [
            [0xFE, 0xFF], [0xFF, 0xFF, 0xFE], [0x48, 0x45, 0x4C, 0x4C, 0x4F, 0x20, 0xC3, 0x28], [0xC0, 0xAF],
            [0xED, 0xA0, 0x80],
            [0x50, 0x49, 0x4E, 0x47, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],
        ] as [[UInt8]])
    func invalidUTF8IsBadUTF8(bytes: [UInt8]) throws {
        let server = EmbeddedServer()
        let client = try server.connect("mojibake")
        try client.send(bytes: bytes + [0x0A])
        let reply = try client.readReply()
        #expect(reply.final.hasPrefix("ERR - BADUTF8 "), "\(bytes): \(reply)")
        #expect(try client.request("PING").final == "OK PING")
    }

    @Test func binaryJunkGetsErrorsNotACrash() throws {
        let server = EmbeddedServer()
        let client = try server.connect("junk")
        // Deterministic junk, NULs and all, with a newline now and then.
        var state: UInt64 = 0x1234_5678
        var junk: [UInt8] = []
        for _ in 0..<8192 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let byte = UInt8(truncatingIfNeeded: state >> 56)
            junk.append(byte % 97 == 0 ? 0x0A : byte % 13 == 0 ? 0 : byte)
        }
        try client.send(bytes: junk)
        // Every line of it is refused (sanitised), until the twentieth in a row closes the connection.
        let said = try client.expectEOF()
        #expect(said.count == 21 && said.last == "BYE junk", "\(said.count): \(said.suffix(2))")
        for line in said.dropLast() {
            #expect(line.hasPrefix("ERR "), "junk gets only refusals: \(line)")
            #expect(
                !line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "sanitised: \(line)")
        }
        // A NUL inside a verb or a name is refused like any other mistake, and play goes on.
        let typist = try server.connect("typist")
        try typist.send(bytes: Array("PI\u{0}NG\nHELLO a\u{0}b\nPING\n".utf8))
        let (skipped, _) = try typist.expect(prefix: "OK PING")
        #expect(skipped.first?.hasPrefix("ERR - UNKNOWN ") == true, "\(skipped)")
        #expect(skipped.last?.hasPrefix("ERR HELLO BADNAME ") == true, "\(skipped)")
        // The server still serves a new client.
        let other = try server.connect("other")
        #expect(try other.request("HELLO other").isOK("HELLO other"))
    }
}
