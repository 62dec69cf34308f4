import SetTestSupport
import Testing

/// In memory: a room's event reaches exactly who is in the room when it happens, as people come, go and
/// drop between events. (The core, the engine and the shell keep a room's list of listeners between
/// events and find their connections once; a list kept too long would reach someone who left, or miss
/// someone who came.)
@Suite struct BroadcastTests {
    @Test func aChatReachesWhoeverIsInTheRoomWhenItIsSaid() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "r")
        let (bob, _) = try server.player("bob", room: "r")
        let (carl, _) = try server.player("carl", room: "r")
        for client in [ann, bob, carl] { _ = client.discardAvailable() }

        try ann.send("CHAT one")
        for client in [ann, bob, carl] {
            #expect(client.readAvailable().contains("CHAT ann one"), "\(client)")
        }

        try bob.send("LEAVE")
        for client in [ann, bob, carl] { _ = client.discardAvailable() }
        try ann.send("CHAT two")
        #expect(!bob.readAvailable().contains { $0.hasPrefix("CHAT ") }, "bob left and still heard the room")
        #expect(carl.readAvailable().contains("CHAT ann two"))

        // Carl's connection drops; dee comes in on a new one, and bob comes back.
        carl.close()
        let (dee, _) = try server.player("dee", room: "r")
        #expect(try bob.request("JOIN r").isOK("JOIN r"))
        for client in [ann, bob, dee] { _ = client.discardAvailable() }
        try ann.send("CHAT three")
        for client in [ann, bob, dee] {
            #expect(client.readAvailable().contains("CHAT ann three"), "\(client)")
        }
    }
}
