import SetEngine
import SetTestSupport
import Testing

/// One pass of the shell does a bounded share of one room's work: a room flooding flat out delays only
/// itself, and a quiet room's line leaves in the pass it was sent in.
@Suite struct PassBudgetTests {
    private func server() -> EmbeddedServer {
        let server = EmbeddedServer {
            $0.commandsPerSecond = 0
            $0.maxRoomsPerIP = nil
        }
        // Passes end when the test says, as the shell's loop ends them after writing.
        server.endsPassAfterEveryInput = false
        return server
    }

    @Test func aQuietRoomsLineLeavesInTheSamePassWhileAFloodingRoomStillHasWork() throws {
        let server = server()
        let (ann, _) = try server.player("ann", room: "flood")
        let (bob, _) = try server.player("bob", room: "flood")
        let (cy, _) = try server.player("cy", room: "flood")
        let (dee, _) = try server.player("dee", room: "quiet")
        let (eve, _) = try server.player("eve", room: "quiet")
        for client in [ann, bob, cy, dee, eve] { client.discardAvailable() }
        // One read of 4,000 CHATs, each four lines queued (three members, and ann's OK): about twice
        // what one pass allows one room.
        let count = 4_000
        try ann.send(lines: (0..<count).map { "CHAT flood \($0)" })
        let firstPass = bob.readAvailable()
        #expect(!firstPass.isEmpty, "the flood gets its share of the pass")
        #expect(firstPass.count < count, "but not the whole pass: \(firstPass.count) lines")

        // In the same pass, a line in another room.
        try dee.send("CHAT hello")
        #expect(eve.readAvailable() == ["CHAT dee hello"], "the quiet room's line leaves at once")
        #expect(dee.readAvailable() == ["CHAT dee hello", "OK CHAT"])
        #expect(server.engine.hasDeferredInput, "the flood still has work")

        // The following passes carry the rest, in order, nothing lost.
        var passes = 1
        var received = firstPass
        while server.engine.hasDeferredInput, passes < 100 {
            server.endPass()
            passes += 1
            received += bob.readAvailable()
        }
        #expect(passes > 1 && passes < 100)
        #expect(received == (0..<count).map { "CHAT ann flood \($0)" })
        #expect(ann.readAvailable().filter { $0 == "OK CHAT" }.count == count)
        #expect(cy.readAvailable().count == count)
    }

    /// The budget is the room's, not a connection's: two members whose reads each fit it alone share it
    /// within one pass, and the second's lines past it wait.
    @Test func membersOfOneRoomShareItsBudgetWithinAPass() throws {
        let server = server()
        let (ann, _) = try server.player("ann", room: "busy")
        let (bob, _) = try server.player("bob", room: "busy")
        let (cy, _) = try server.player("cy", room: "busy")
        for client in [ann, bob, cy] { client.discardAvailable() }
        // Each CHAT queues four writes (three members and the OK): 1,500 of them are 6,000, under the
        // room's 8,192 a pass; two such reads are over it.
        try ann.send(lines: (0..<1_500).map { "CHAT a\($0)" })
        #expect(!server.engine.hasDeferredInput, "one read alone fits the pass")
        try bob.send(lines: (0..<1_500).map { "CHAT b\($0)" })
        #expect(server.engine.hasDeferredInput, "the second read in the same pass goes over the room's share")
        let firstPass = cy.readAvailable()
        #expect(
            firstPass.count > 1_500 && firstPass.count < 3_000, "\(firstPass.count) lines in the first pass")
        var received = firstPass
        while server.engine.hasDeferredInput { server.endPass() }
        received += cy.readAvailable()
        #expect(received == (0..<1_500).map { "CHAT ann a\($0)" } + (0..<1_500).map { "CHAT bob b\($0)" })
    }

    @Test func linesSentWhileOthersWaitGoBehindThem() throws {
        let server = server()
        let (ann, _) = try server.player("ann", room: "flood")
        let (bob, _) = try server.player("bob", room: "flood")
        for client in [ann, bob] { client.discardAvailable() }
        try ann.send(lines: (0..<5_000).map { "CHAT \($0)" })
        try ann.send("CHAT last")
        while server.engine.hasDeferredInput { server.endPass() }
        let lines = bob.readAvailable()
        #expect(lines == (0..<5_000).map { "CHAT ann \($0)" } + ["CHAT ann last"])
    }

    // A read that moves its connection to another room mid-way: the lines after the move are the new
    // room's, counted against its budget for the pass, not the old one's (the engine keeps a connection's
    // room between lines and looks again only after one that may have moved someone; issue 28).

    @Test func linesAfterAJoinAreNotChargedToTheRoomLeft() throws {
        let server = server()
        let (ann, _) = try server.player("ann", room: "busy")
        let (bob, _) = try server.player("bob", room: "busy")
        let (cy, _) = try server.player("cy", room: "busy")
        let (dee, _) = try server.player("dee", room: "calm")
        let (eve, _) = try server.player("eve", room: "calm")
        for client in [ann, bob, cy, dee, eve] { client.discardAvailable() }
        // Busy spends 6,000 of its 8,192 writes this pass (four a CHAT: three members and the OK).
        try bob.send(lines: (0..<1_500).map { "CHAT b\($0)" })
        #expect(!server.engine.hasDeferredInput)
        // Ann moves to calm and talks there: 4,000 writes more, calm's, which has room for them.
        try ann.send(lines: ["JOIN calm"] + (0..<1_000).map { "CHAT a\($0)" })
        #expect(!server.engine.hasDeferredInput, "calm's lines were charged to busy")
        #expect(eve.readAvailable().filter { $0.hasPrefix("CHAT ann ") }.count == 1_000)
    }

    @Test func linesAfterAJoinAreChargedToTheRoomJoined() throws {
        let server = server()
        let (ann, _) = try server.player("ann", room: "calm")
        let (bob, _) = try server.player("bob", room: "busy")
        let (cy, _) = try server.player("cy", room: "busy")
        let (dee, _) = try server.player("dee", room: "busy")
        for client in [ann, bob, cy, dee] { client.discardAvailable() }
        try bob.send(lines: (0..<1_500).map { "CHAT b\($0)" })
        #expect(!server.engine.hasDeferredInput)
        // Ann comes to busy with 1,000 lines (five writes each there): past busy's budget for the pass.
        try ann.send(lines: ["JOIN busy"] + (0..<1_000).map { "CHAT a\($0)" })
        #expect(server.engine.hasDeferredInput, "busy's lines were charged to calm, or to nobody")
        let firstPass = cy.readAvailable().filter { $0.hasPrefix("CHAT ann ") }
        #expect(firstPass.count > 0 && firstPass.count < 1_000, "\(firstPass.count) in the first pass")
        var received = firstPass
        while server.engine.hasDeferredInput { server.endPass() }
        received += cy.readAvailable().filter { $0.hasPrefix("CHAT ann ") }
        #expect(received == (0..<1_000).map { "CHAT ann a\($0)" })
    }
}
