import SetTestSupport
import Testing

/// Telnet clients in memory: PuTTY's bytes replayed verbatim beside an `nc` player who never gets a
/// telnet byte, and its negotiation split byte by byte. (The real `telnet` program is TelnetTests in
/// SetServerTests, over loopback.)
@Suite struct TelnetTests {
    @Test func puttysOpeningIsRefusedAndPuttyPlaysBesideAnNcPlayer() throws {
        let server = EmbeddedServer()
        let (bob, _) = try server.player("bob", room: "fun")
        let putty = try server.connect("putty")
        try putty.send(bytes: TelnetReference.puttyOpening)
        #expect(try putty.readBytes(TelnetReference.puttyRefusals.count) == TelnetReference.puttyRefusals)
        try putty.send(bytes: TelnetReference.puttyOldEnviron)
        #expect(try putty.readBytes(3) == TelnetReference.oldEnvironRefusal)

        try putty.send(bytes: TelnetReference.puttyLine("HELLO ann"))
        #expect(try putty.readReply().isOK("HELLO ann"))
        try putty.send(bytes: TelnetReference.puttyLine("JOIN fun", newLine: false))
        let join = try putty.readReply()
        #expect(join.final.hasPrefix("OK JOIN fun "), "\(join)")
        #expect(join.lines.contains("PLAYER bob 0 online") && join.lines.contains("PLAYER ann 0 online"))
        try putty.send(bytes: TelnetReference.puttyLine("CHAT hi from windows"))
        #expect(try putty.readReply().lines == ["CHAT ann hi from windows"])

        // bob, on nc, gets lines and nothing else: every byte he received is in a line he read.
        let seen = try bob.expect(prefix: "CHAT ann ").skipped
        #expect(seen.contains("PLAYER ann 0 online"), "\(seen)")
        #expect(try bob.request("PING").final == "OK PING")
        #expect(bob.unreadBytes == 0, "bob got bytes outside lines")
        #expect(!(seen + bob.readAvailable()).contains { $0.unicodeScalars.contains { $0 == "\u{FFFD}" } })
    }

    @Test func negotiationSplitByteByByteIsStillRefusedOnce() throws {
        let server = EmbeddedServer()
        let putty = try server.connect("putty")
        let nop: [UInt8] = [255, 241]
        let input =
            TelnetReference.puttyOpening + [255, 250, 31, 0, 80, 255, 255, 0, 24, 255, 240] + nop
            + TelnetReference.puttyOpening + Array("HELLO a".utf8) + nop + Array("nn\r".utf8) + nop + [0]
        // One input per byte, as a socket that delivers them one at a time.
        try putty.send(bytes: input, inPiecesOf: 1)
        #expect(try putty.readBytes(TelnetReference.puttyRefusals.count) == TelnetReference.puttyRefusals)
        // The second opening gets no answer: the next bytes are HELLO's reply, then PING's.
        #expect(try putty.readReply().isOK("HELLO ann"))
        #expect(try putty.request("PING").final == "OK PING")
        #expect(putty.unreadBytes == 0, "nothing but the refusals and the lines")
    }
}
