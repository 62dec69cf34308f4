import SetTestSupport
import Testing

/// The limits that protect the server and everyone on it; each test hits one.
@Suite struct LimitTests {
    /// A `CHAT` line of about a kilobyte, the most output one command can make for everyone.
    private static let bigChat = "CHAT " + String(repeating: "x", count: 995)

    @Test func aClientThatNeverReadsIsDroppedAndOthersDoNotWait() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (reader, _) = try server.player("reader", room: "busy")
        let (sleepy, _) = try server.player("sleepy", room: "busy", receiveBufferSize: 4096)
        _ = try reader.expect(prefix: "ROOM busy set 2")
        // Senders chat as fast as the rate limit lets them; each reads and drops what it gets.
        var senders: [TestClient] = []
        for i in 0..<10 {
            let (sender, _) = try server.player("s\(i)", room: "busy")
            senders.append(sender)
        }
        try reader.discardAvailable()
        _ = try reader.request("PING")
        let start = monotonicNow()
        var sent = [Int](repeating: 0, count: senders.count)
        var slowest = 0.0
        var dropped = false
        var pings = 0
        while !dropped && monotonicNow() - start < 20 {
            pause(0.02)
            let allowed = 190 + Int((monotonicNow() - start) * 90)
            for (i, sender) in senders.enumerated() {
                let batch = min(allowed - sent[i], 40)
                if batch > 0 {
                    try sender.send(lines: Array(repeating: Self.bigChat, count: batch))
                    sent[i] += batch
                }
                try sender.discardAvailable()
            }
            let before = monotonicNow()
            let skipped: [String]
            do {
                // PING's reply may be SLOWDOWN if the loop outruns the rate limit; either is a prompt answer.
                let reply = try reader.request("PING")
                skipped = reply.lines
            } catch {
                Issue.record("after \(monotonicNow() - start) s and \(sent) chats: \(error)")
                throw error
            }
            slowest = max(slowest, monotonicNow() - before)
            pings += 1
            dropped = skipped.contains("PLAYER sleepy 0 away")
        }
        let chatBytes = sent.reduce(0, +) * 1003
        #expect(dropped, "sleepy was dropped after \(chatBytes) bytes of chat in \(monotonicNow() - start) s")
        #expect(slowest < 1, "the reader's PING round trip stayed prompt: slowest \(slowest) s over \(pings)")
        // Sleepy's socket is closed: it reads what was in flight, then end of file.
        let deadline = monotonicNow() + 10
        while !sleepy.isAtEOF && monotonicNow() < deadline {
            if try sleepy.discardAvailable() == 0 { pause(0.01) }
        }
        #expect(sleepy.isAtEOF)
        #expect(
            sleepy.bytesReceived < chatBytes, "sleepy missed output: \(sleepy.bytesReceived) of \(chatBytes)")
        // The reader is still served, and sleepy is away, not gone: its seat waits for RESUME.
        let state = try reader.request("STATE", timeout: 10)
        #expect(state.lines.contains("PLAYER reader 0 online"))
        #expect(state.lines.contains("PLAYER sleepy 0 away"))
        for sender in senders { sender.close() }
    }

    @Test func aFullServerRefusesTheNextConnection() throws {
        let server = try TestServer { $0.maxClients = 2 }
        defer { server.stop() }
        let first = try server.connect("first")
        let second = try server.connect("second")
        let third = try TestClient(port: server.port, label: "third")
        let refusal = try third.readLine()
        #expect(refusal.hasPrefix("ERR - FULL "), "\(refusal)")
        #expect(try third.expectEOF().isEmpty, "nothing after FULL but end of file")
        #expect(try second.request("PING").final == "OK PING", "the others are unaffected")

        // A freed place takes the next connection.
        #expect(try first.request("QUIT").final == "OK QUIT")
        try first.expectEOF()
        let deadline = monotonicNow() + 3
        while server.server.connectionCount > 1 && monotonicNow() < deadline { pause(0.01) }
        let fourth = try server.connect("fourth")
        #expect(try fourth.request("PING").final == "OK PING")
    }

    @Test func aFloodInOneWriteIsDisconnected() throws {
        let server = try TestServer()
        defer { server.stop() }
        let bystander = try server.connect("bystander")
        let flooder = try server.connect("flooder")
        try flooder.send(lines: Array(repeating: "PING", count: 5000))
        // Read until the server hangs up, or until every command was answered (no BYE: a failure).
        var lines: [String] = []
        var finals = 0
        while finals < 5000, let line = try flooder.readLineOrEOF(timeout: 10) {
            lines.append(line)
            if isFinalLine(line) { finals += 1 }
        }
        let refused = lines.filter { $0.hasPrefix("ERR PING SLOWDOWN ") }.count
        #expect(lines.last == "BYE flood", "\(refused) refusals, \(finals) replies, then \(lines.suffix(2))")
        #expect(refused >= 1000, "\(refused) refusals before BYE")
        #expect(finals < 5000, "the server stopped reading the flood")
        if lines.last == "BYE flood" { #expect(try flooder.expectEOF().isEmpty, "end of file after BYE") }
        let before = monotonicNow()
        #expect(try bystander.request("PING").final == "OK PING")
        #expect(monotonicNow() - before < 1)
    }

    /// The core's timers are tested on a virtual clock; this checks that the shell's real tick drives them.
    @Test func idleConnectionsAreClosed() throws {
        let server = try TestServer { $0.idleTimeout = 1 }
        defer { server.stop() }
        let idle = try server.connect("idle")
        let busy = try server.connect("busy")
        let start = monotonicNow()
        var busyLines: [String] = []
        // The busy client pings every 0.3 s for 2.5 s and is never closed.
        while monotonicNow() - start < 2.5 {
            busyLines.append(try busy.request("PING").final)
            pause(0.3)
        }
        #expect(busyLines.allSatisfy { $0 == "OK PING" })
        let lines = try idle.expectEOF(timeout: 3)
        #expect(lines.count == 1 && lines[0].hasPrefix("BYE idle"), "\(lines)")
        #expect(realSeconds(since: start) >= 1)
    }
}
