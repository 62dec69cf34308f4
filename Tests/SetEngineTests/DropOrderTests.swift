import SetTestSupport
import Testing

/// In memory: a player dropped for not reading is shown away only after the broadcast that overflowed
/// their queue has reached everyone, whatever their seat.
@Suite struct DropOrderTests {
    @Test func everyoneSeesTheOverflowingEventBeforeTheDrop() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "r")
        let (slow, _) = try server.player("slow", room: "r")
        let (carl, _) = try server.player("carl", room: "r")
        slow.isReading = false
        // Chatters, seated after slow too, fill slow's queue as fast as the rate limit allows.
        var chatters: [EmbeddedClient] = []
        for i in 0..<8 { chatters.append(try server.player("c\(i)", room: "r").0) }
        let filler = String(repeating: "x", count: 980)
        var received = ["ann": [String](), "carl": [String]()]
        var sent = 0
        var elapsed = 0.0
        /// The last chat of the write during which slow was dropped, as everyone sees it.
        var lastOfOverflowingWrite: String?
        while slow.state == .open, elapsed < 30 {
            for (i, chatter) in chatters.enumerated() {
                // Numbered, so the order each reader saw them in can be compared.
                try chatter.send(lines: (0..<10).map { "CHAT \(sent + $0) \(filler)" })
                sent += 10
                if slow.state != .open, lastOfOverflowingWrite == nil {
                    lastOfOverflowingWrite = "CHAT c\(i) \(sent - 1) "
                }
                chatter.discardAvailable()
                for (name, client) in [("ann", ann), ("carl", carl)] {
                    received[name]! += client.readAvailable()
                }
            }
            server.advance(by: 0.1)
            elapsed += 0.1
        }
        try #require(slow.state == .dropped, "slow was never dropped after \(sent) chats")
        for (name, client) in [("ann", ann), ("carl", carl)] { received[name]! += client.readAvailable() }
        // The chats each saw before slow went away: the same ones, for a player seated before slow
        // and for one seated after, and the one that overflowed slow's queue among them.
        func chatsBeforeAway(_ lines: [String]) -> [String] {
            let away = lines.firstIndex(of: "PLAYER slow 0 away") ?? lines.endIndex
            return lines[..<away].filter { $0.hasPrefix("CHAT ") }.map { String($0.prefix(16)) }
        }
        let annChats = chatsBeforeAway(received["ann"]!)
        let carlChats = chatsBeforeAway(received["carl"]!)
        #expect(received["ann"]!.contains("PLAYER slow 0 away"))
        #expect(received["carl"]!.contains("PLAYER slow 0 away"))
        #expect(
            annChats.count == carlChats.count,
            "ann saw \(annChats.count) chats first, carl \(carlChats.count)")
        #expect(annChats == carlChats)
        // Slow was dropped by one of the chats of one write: the player goes away after that write's
        // last chat, never in the middle of what overflowed them.
        let annAll = received["ann"]!
        let awayAt = try #require(annAll.firstIndex(of: "PLAYER slow 0 away"))
        let last = try #require(lastOfOverflowingWrite)
        #expect(
            awayAt > 0 && annAll[awayAt - 1].hasPrefix(last), "\(annAll[max(0, awayAt - 2)...].prefix(3))")
    }
}
