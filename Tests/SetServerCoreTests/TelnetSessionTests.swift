import SetTestSupport
import Testing

/// A telnet client through the in-memory server: the same filter as the shell, the same order.
@Suite struct TelnetSessionTests {
    @Test func puttyIsRefusedThenPlaysLikeAnyone() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let putty = try server.connect("putty")
        try putty.send(bytes: TelnetReference.puttyOpening)
        #expect(try putty.readBytes(TelnetReference.puttyRefusals.count) == TelnetReference.puttyRefusals)
        // The answer to PuTTY's second offer comes before the reply to the line in the same bytes.
        try putty.send(
            bytes: TelnetReference.puttyOldEnviron + TelnetReference.puttyLine("HELLO ann", newLine: false))
        #expect(try putty.readBytes(3) == TelnetReference.oldEnvironRefusal)
        #expect(try putty.readReply().isOK("HELLO ann"))
        try putty.send(bytes: TelnetReference.puttyLine("JOIN fun"))
        let join = try putty.readReply()
        #expect(join.final.hasPrefix("OK JOIN fun "), "\(join)")
        #expect(join.lines.contains("PLAYER ann 0 online"))
        // Offered again, nothing is answered again.
        try putty.send(bytes: TelnetReference.puttyOpening + TelnetReference.puttyLine("PING"))
        #expect(try putty.readLine() == "OK PING")
    }
}
