import SetTestSupport
import SetTestTraits
import Testing

/// Needs the kernel: a reader that stops reading fills real socket buffers before the server's output
/// cap, and the daemon must drop it without anyone else waiting on a blocked write. (Every other limit
/// is tested in memory: SetEngineTests' LimitTests.)
@Suite(.ownThread) struct SlowReaderTests {
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
        // A write that blocked the loop would hold the PING until sleepy's drop; 2 s leaves room for a
        // machine busy with the rest of the run's daemons (1.4 s seen).
        #expect(slowest < 2, "the reader's PING round trip stayed prompt: slowest \(slowest) s over \(pings)")
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
}
