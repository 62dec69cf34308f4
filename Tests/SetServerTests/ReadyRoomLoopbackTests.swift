import SetTestSupport
import SetTestTraits
import Testing

/// A `start=ready` room played through two raw loopback sockets, as two people with nc would: the
/// daemon's own one-second tick runs the countdown.
@Suite(.ownThread) struct ReadyRoomLoopbackTests {
    @Test func aReadyRoomCountsDownAndDealsOverTCP() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "night", options: "start=ready")
        #expect(join.lines.first == "ROOM night set 1 waiting" && join.lines.contains("BOARD 1"))
        #expect(join.lines.last == "HOST ann")
        let (bob, _) = try server.player("bob", room: "night")
        #expect(try bob.request("CHOOSE a b c").error == .notStarted, "nobody claims before the deal")
        #expect(try bob.request("START").error == .denied, "only the creator starts")
        #expect(try ann.request("READY").final == "OK READY 1 2")
        let ready = try bob.request("READY")
        #expect(
            ready.lines == ["READY ann 1 2", "READY bob 2 2", "COUNTDOWN 3"] && ready.final == "OK READY 2 2")
        #expect(try bob.request("CHOOSE a b c").error == .notStarted, "nor during the countdown")
        // Ann's side: 3, 2, 1 on the daemon's tick, then the deal.
        let counted = try ann.expect(prefix: "ROOM night set 2 playing", timeout: 8).skipped
        #expect(
            counted.filter { $0.hasPrefix("COUNTDOWN ") } == ["COUNTDOWN 3", "COUNTDOWN 2", "COUNTDOWN 1"])
        let board = try #require(BoardView(line: try ann.readLine()))
        #expect(try ann.readLine() == "DECK \(81 - board.cards.count)")
        _ = try bob.expect(prefix: "DECK ", timeout: 5)
        let claim = try bob.request(board.claim(try #require(board.sets.first)))
        #expect(claim.isOK("CHOOSE"), "\(claim)")
        #expect(try ann.expect(prefix: "SET bob ").line.hasPrefix("SET bob "))
    }
}
