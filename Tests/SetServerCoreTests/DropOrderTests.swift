import SetTestSupport
import Testing

/// A connection dropped for not reading is an input for after the broadcast that overflowed it, never a
/// call in the middle of it: everyone sees the event first, then the player go away.
@Suite struct DropOrderTests {
    @Test func aSlowConsumerDroppedDuringASetIsAwayOnlyAfterTheSet() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "r")
        let (slow, _) = try server.player("slow", room: "r")
        let (carl, carlJoin) = try server.player("carl", room: "r")
        for client in [ann, slow] { _ = client.readAvailable() }
        // Slow stops reading and falls behind by some chat; with the limit just above that backlog (and
        // far above what a reader holds within one pass), the SET broadcast takes it over.
        slow.isReading = false
        for n in 0..<20 { _ = try ann.request("CHAT catching up \(n)") }
        _ = carl.readAvailable()
        server.maximumOutputBytes = slow.unreadBytes + 100
        let board = try #require(BoardView.last(in: carlJoin.lines))
        let set = try #require(board.sets.first)
        let reply = try carl.request(board.claim(set))
        #expect(reply.isOK("CHOOSE"), "\(reply)")
        let setLine = "SET carl " + board.codes(set).joined(separator: " ")
        #expect(slow.state == .dropped)
        // Seated before slow and after it, both see the claim's events first, then slow go away.
        let annLines = ann.readAvailable()
        let carlLines = reply.lines + carl.readAvailable()
        for (name, lines) in [("ann", annLines), ("carl", carlLines)] {
            let setAt = lines.firstIndex(of: setLine)
            let awayAt = lines.firstIndex(of: "PLAYER slow 0 away")
            #expect(setAt != nil && awayAt != nil && setAt! < awayAt!, "\(name): \(lines)")
        }
        #expect(annLines.last == "PLAYER slow 0 away", "\(annLines)")
    }
}
