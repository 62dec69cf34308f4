import SetTestSupport
import Testing

/// What `nc` and telnet clients see of the sniff window, on a virtual clock: a silent client is greeted
/// when the window ends, a talking one at once, nothing comes before, a held prefix of `GET` is not
/// lost, and `--no-http` has no window at all. (That the daemon's timer really ends the window on time
/// is `SniffWindowTimingTests`, over loopback.)
@Suite struct SniffWindowTests {
    @Test func aSilentNcClientIsGreetedAtTheWindowsEndAndATalkingOneAtOnce() throws {
        let server = EmbeddedServer { $0.sniffWindow = 0.15 }
        let silent = server.open("silent")
        #expect(silent.lines(arrivingWithin: 0.1).isEmpty, "no greeting within the window")
        let greeting = silent.lines(arrivingWithin: 0.1)
        #expect(greeting.count == 1 && greeting[0].hasPrefix("SETD 1 "), "\(greeting)")
        // A client that speaks first (a line, or telnet's IAC) is greeted as soon as its bytes arrive.
        let eager = server.open("eager")
        try eager.send("HELLO eve")
        #expect(try eager.readLine().hasPrefix("SETD 1 "))
        #expect(try eager.readReply().final.hasPrefix("OK HELLO eve "))
    }

    @Test func nothingIsSentBeforeTheWindowEnds() throws {
        let server = EmbeddedServer { $0.sniffWindow = 30 }
        let silent = server.open("silent")
        #expect(silent.lines(arrivingWithin: 29).isEmpty)
        #expect(silent.unreadBytes == 0)
        // Bytes that cannot begin GET end the wait: telnet's IAC WILL NAWS is greeted, then refused.
        try silent.send(bytes: [0xFF, 0xFB, 0x1F])
        #expect(try silent.readLine().hasPrefix("SETD 1 "))
        #expect(try silent.readBytes(3) == [0xFF, 0xFE, 0x1F])
    }

    @Test func aPrefixOfGetHeldThroughTheWindowGoesToTheLineProtocolWhole() throws {
        let server = EmbeddedServer { $0.sniffWindow = 0.1 }
        let client = server.open("pi")
        try client.send(bytes: Array("PI".utf8))  // not a prefix of GET: at once
        #expect(try client.readLine().hasPrefix("SETD 1 "))
        try client.send("NG")
        #expect(try client.readReply().final == "OK PING")
        let held = server.open("held")
        try held.send(bytes: Array("GE".utf8))
        #expect(held.unreadBytes == 0, "a prefix of GET waits for the window")
        #expect(held.lines(arrivingWithin: 0.1).first?.hasPrefix("SETD 1 ") == true)
        try held.send("T 1")
        // "GE" was not lost: the core got the line "GET 1".
        let reply = try held.readReply()
        #expect(reply.error == .unknown, "\(reply)")
        #expect(reply.final.contains("'GET'"), "\(reply)")
    }

    @Test func withoutHTTPGetIsALineProtocolCommandAndThereIsNoWindow() throws {
        let server = EmbeddedServer {
            $0.isHTTPEnabled = false
            $0.sniffWindow = 30  // would hold every greeting if it applied
        }
        let client = server.open("curl")
        #expect(try client.readLine().hasPrefix("SETD 1 "), "greeted at accept")
        try client.send(bytes: Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(try client.readReply().error == .unknown)
        #expect(try client.readReply().error == .unknown, "Host: h is a line too")
        #expect(try client.request("PING").final == "OK PING", "the blank line got no reply")
    }
}
