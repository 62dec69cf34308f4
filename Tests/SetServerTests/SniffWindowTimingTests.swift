import SetTestSupport
import SetTestTraits
import Testing

/// Needs the kernel and a real clock: the daemon's own timer ends the sniff window on time over a real
/// socket. (What clients see of the window is tested on a virtual clock: SetEngineTests'
/// SniffWindowTests; the page and the WebSocket are PageTests and WebSocketTests.)
@Suite(.ownThread) struct SniffWindowTimingTests {
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
}
