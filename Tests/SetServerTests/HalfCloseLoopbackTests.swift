import SetTestSupport
import SetTestTraits
import Testing

/// A client that sends its lines and then says it sends no more (a FIN), as `printf 'HELLO ann\n…' | nc
/// HOST 7777` does, reads every answer before the server closes: over real loopback TCP, since it is
/// the kernel's end of file that the shell must not mistake for "drop what is queued".
@Suite(.ownThread) struct HalfCloseLoopbackTests {
    @Test func linesSentBeforeTheEndOfInputAreAllAnswered() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port, label: "piped")
        try client.send(lines: ["HELLO ann", "JOIN fun", "STATE", "PING"])
        client.shutDownWriting()
        let lines = try client.expectEOF()
        #expect(lines.first?.hasPrefix("SETD 1 ") == true, "\(lines)")
        for verb in ["HELLO", "JOIN", "STATE", "PING"] {
            #expect(lines.contains { $0.hasPrefix("OK \(verb)") }, "no answer to \(verb): \(lines)")
        }
        #expect(lines.contains { $0.hasPrefix("BOARD ") }, "the snapshot came too: \(lines)")
        // The seat is kept, away, as for any player whose connection ended.
        let (bob, _) = try server.player("bob", room: "fun")
        #expect(try bob.request("STATE").lines.contains { $0.hasPrefix("PLAYER ann 0 away") })
    }

    @Test func aHalfLineBeforeTheEndIsDroppedAndTheRestAnswered() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port, label: "cut")
        try client.send(bytes: Array("HELLO cat\nPIN".utf8))
        client.shutDownWriting()
        let lines = try client.expectEOF()
        #expect(lines.count == 2 && lines.last?.hasPrefix("OK HELLO cat") == true, "\(lines)")
    }
}
