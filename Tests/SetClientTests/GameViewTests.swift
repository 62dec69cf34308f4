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

    /// A long board (positions past `z`, cards of every index of the classic deck) reads clean; the same
    /// board with one card twice, or one position misnamed, does not.
    @Test func aLongBoardIsCheckedPositionByPositionAndCardByCard() {
        let cards = Card.universe.prefix(81).map(\.code)
        func board(_ codes: [String], names: [String]? = nil) -> String {
            let names = names ?? codes.indices.map(SetGame.positionName)
            return zip(names, codes).map { "\($0):\($1)" }.joined(separator: " ")
        }
        let picked = Array(cards.suffix(30))
        var view = GameView()
        view.apply(ServerLine(parsing: "BOARD 1 \(board(picked))"))
        #expect(view.protocolErrors.isEmpty, "\(view.protocolErrors)")
        var twice = picked
        twice[29] = twice[3]
        view.apply(ServerLine(parsing: "BOARD 2 \(board(twice))"))
        #expect(view.drainProtocolErrors() == ["a card twice on the board"])
        var names = picked.indices.map(SetGame.positionName)
        names[27] = "ZB"
        view.apply(ServerLine(parsing: "BOARD 3 \(board(picked, names: names))"))
        #expect(view.drainProtocolErrors() == ["position ZB out of order at 27"])
    }

    @Test func duplicatesAndPositionsOutOfOrderAreProblems() {
        var view = GameView()
        view.apply(ServerLine(parsing: "BOARD 1 a:1RFS b:1RFS"))
        view.apply(ServerLine(parsing: "BOARD 2 b:1RFS a:2GHT"))
        #expect(view.protocolErrors.contains("a card twice on the board"))
        #expect(view.protocolErrors.contains("position b out of order at 0"))
    }
}
