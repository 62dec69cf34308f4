import SetTestSupport
import Testing

/// Who may connect, join, watch and read, and for how long a connection may stay silent.
@Suite struct AccessLimitTests {
    @Test(.timeLimit(.minutes(3))) func oneAddressGetsAtMostMaxPerIPConnections() throws {
        let server = try TestServer { $0.maxPerIP = 2 }
        defer { server.stop() }
        let first = try server.connect("first")
        let second = try server.connect("second")
        for attempt in 0..<2 {
            let third = try TestClient(port: server.port, label: "third \(attempt)")
            let refusal = try third.readLine()
            #expect(refusal.hasPrefix("ERR - FULL "), "\(refusal)")
            #expect(try third.expectEOF().isEmpty, "nothing after FULL but end of file")
            // A refused connection does not count against the address.
            #expect(server.server.connectionCount == 2)
        }
        #expect(try second.request("PING").final == "OK PING", "the others are unaffected")

        // Closing one frees a place for the address.
        first.close()
        #expect(eventually(timeout: 3) { server.server.connectionCount == 1 })
        let fourth = try server.connect("fourth")
        #expect(try fourth.request("PING").final == "OK PING")
        #expect(try second.request("PING").final == "OK PING")
    }
}
