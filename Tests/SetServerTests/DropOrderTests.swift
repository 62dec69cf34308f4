import SetTestSupport
import Testing

/// Over real sockets: a player dropped for not reading is shown away only after the broadcast that
/// overflowed their queue has reached everyone, whatever their seat.
@Suite struct DropOrderTests {
    @Test(.timeLimit(.minutes(2))) func everyoneSeesTheOverflowingEventBeforeTheDrop() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, _) = try server.player("ann", room: "r")
        let (slow, _) = try server.player("slow", room: "r", receiveBufferSize: 4096)
        defer { slow.close() }
        let (carl, _) = try server.player("carl", room: "r")
        // Chatters, seated after slow too, fill slow's queue as fast as the rate limit allows.
        var chatters: [TestClient] = []
        for i in 0..<8 { chatters.append(try server.player("c\(i)", room: "r").0) }
        let filler = String(repeating: "x", count: 980)
        var received = ["ann": [String](), "carl": [String]()]
        var sent = 0
        var dropped = false
        let start = monotonicNow()
        while !dropped && monotonicNow() - start < 30 {
            for chatter in chatters {
                // Numbered, so the order each reader saw them in can be compared.
                try chatter.send(lines: (0..<10).map { "CHAT \(sent + $0) \(filler)" })
                sent += 10
                try chatter.discardAvailable()
            }
            pause(0.1)
            for (name, client) in [("ann", ann), ("carl", carl)] {
                let lines = try client.lines(arrivingWithin: 0.005)
                received[name]! += lines
                if lines.contains("PLAYER slow 0 away") { dropped = true }
            }
        }
        try #require(dropped, "slow was never dropped after \(sent) chats")
        for (name, client) in [("ann", ann), ("carl", carl)] {
            received[name]! += try client.lines(arrivingWithin: 0.2)
        }
        // The chats each saw before slow went away: the same ones, for a player seated before slow
        // and for one seated after.
        func chatsBeforeAway(_ lines: [String]) -> [String] {
            let away = lines.firstIndex(of: "PLAYER slow 0 away") ?? lines.endIndex
            return lines[..<away].filter { $0.hasPrefix("CHAT ") }.map { String($0.prefix(16)) }
        }
        let annChats = chatsBeforeAway(received["ann"]!)
        let carlChats = chatsBeforeAway(received["carl"]!)
        #expect(
            annChats.count == carlChats.count,
            "ann saw \(annChats.count) chats first, carl \(carlChats.count)")
        #expect(annChats == carlChats)
    }
}
