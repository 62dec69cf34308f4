import SetEngine
import SetTestSupport
import Testing

/// A read that moves its connection to another room mid-way: the lines after the move are the new
/// room's, counted against its budget for the pass, not the old one's (the engine keeps a connection's
/// room between lines and looks again only after one that may have moved someone; issue 28).
@Suite struct PassBudgetMoveTests {
    private func server() -> EmbeddedServer {
        let server = EmbeddedServer {
            $0.commandsPerSecond = 0
            $0.maxRoomsPerIP = nil
        }
        server.endsPassAfterEveryInput = false
        return server
    }

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
