import SetGame
import SetProtocol
import Testing

@Suite("The client's view of a room")
struct GameViewTests {
    @Test func aBoardIsReadIntoCardsAndChecked() {
        var view = GameView()
        view.apply(ServerLine(parsing: "ROOM fun set 2 playing"))
        view.apply(ServerLine(parsing: "BOARD 7 a:1RFS b:2GHT c:3PEC"))
        #expect(view.revision == 7)
        #expect(view.setCards == [Card("1RFS"), Card("2GHT"), Card("3PEC")])
        #expect(view.setsOnBoard == [[0, 1, 2]])
        #expect(view.protocolErrorCount == 0)
    }

    @Test func aHostileServerCannotGrowTheProblemListWithoutBound() {
        var view = GameView()
        let bad = (0..<26).map { "\(SetGame.positionName($0)):ZZZZ" }.joined(separator: " ")
        for revision in 1...1000 { view.apply(ServerLine(parsing: "BOARD \(revision) \(bad)")) }
        #expect(view.protocolErrorCount == 26_000)
        #expect(view.protocolErrors.count == GameView.maximumKeptErrors)
        #expect(view.protocolErrors.first == "unreadable card 'ZZZZ'")
        #expect(view.drainProtocolErrors().count == GameView.maximumKeptErrors)
        #expect(view.protocolErrors.isEmpty && view.protocolErrorCount == 26_000)
    }

    @Test func duplicatesAndPositionsOutOfOrderAreProblems() {
        var view = GameView()
        view.apply(ServerLine(parsing: "BOARD 1 a:1RFS b:1RFS"))
        view.apply(ServerLine(parsing: "BOARD 2 b:1RFS a:2GHT"))
        #expect(view.protocolErrors.contains("a card twice on the board"))
        #expect(view.protocolErrors.contains("position b out of order at 0"))
    }
}
