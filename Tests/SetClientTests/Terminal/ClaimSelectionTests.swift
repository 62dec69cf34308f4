import SetTerminal
import Testing

/// The selection of a claim being typed: it names cards, not positions, and keeps the revision of its
/// first pick, so a claim never names a card that replaced the one the player picked.
@Suite struct ClaimSelectionTests {
    private let board5: [String?] = ["1RFS", "2RFC", "3PEC", "1GFT", "2PHC", "3REC", "1GES", "2RFT"]

    @Test("The first pick fixes the revision; later picks on a newer screen do not move it")
    func firstPickRevision() {
        var selection = ClaimSelection()
        selection.update(positions: [1], board: board5, revision: 5)
        #expect(selection.revision == 5)
        selection.update(positions: [1, 6], board: board5, revision: 5)
        selection.update(positions: [1, 6, 7], board: board5, revision: 6)
        #expect(selection.revision == 5)
        #expect(selection.picks.map(\.code) == ["2RFC", "1GES", "2RFT"])
        selection.update(positions: [], board: board5, revision: 6)
        #expect(selection.isEmpty && selection.revision == nil)
    }

    @Test("A new board keeps only the cards still on it, follows them to their positions and says what went")
    func followsCards() {
        var selection = ClaimSelection()
        selection.update(positions: [1, 6], board: board5, revision: 5)  // b g
        // Bob took a set with b (2RFC); it was replaced, and g's card moved to c (the board compacted).
        let board6: [String?] = ["1RFS", "3GHS", "1GES", "1GFT", "2PHC", "3REC", "2RFT"]
        let change = selection.follow(board: board6, revision: 6)
        #expect(change.dropped == [ClaimSelection.Pick(position: 1, code: "2RFC")])
        #expect(change.moved.map(\.from) == [6] && change.moved.map(\.to) == [2])
        #expect(selection.picks == [ClaimSelection.Pick(position: 2, code: "1GES")])
        #expect(selection.positions == [2])
        #expect(selection.letters == "c")
        #expect(selection.revision == 6, "the kept cards are picked again on the board shown now")
        #expect(
            selection.describe(change) == "board changed under your selection: b (2RFC) is gone; kept c")
    }

    @Test("A board that takes every picked card leaves an empty selection, and says so")
    func everyCardGone() {
        var selection = ClaimSelection()
        selection.update(positions: [0, 1], board: board5, revision: 5)
        let change = selection.follow(board: ["3GHS", "1PFT", "3PEC"], revision: 6)
        #expect(selection.isEmpty && selection.revision == nil)
        #expect(
            selection.describe(change)
                == "board changed under your selection: a (1RFS), b (2RFC) are gone; nothing is selected")
    }

    @Test("A change elsewhere on the board keeps the selection as it was, with nothing to report")
    func unrelatedChange() {
        var selection = ClaimSelection()
        selection.update(positions: [0, 2], board: board5, revision: 5)
        var board6 = board5
        board6[7] = "3GHS"
        let change = selection.follow(board: board6, revision: 6)
        #expect(change.isEmpty)
        #expect(selection.describe(change) == nil)
        #expect(selection.positions == [0, 2])
    }

    @Test("Positions past the board or without a SET card are not picks")
    func invalidPositions() {
        var selection = ClaimSelection()
        selection.update(positions: [3, 20, -1], board: [nil, "1RFS", "2RFS", "3RFS"], revision: 2)
        #expect(selection.positions == [3])
        selection.update(positions: [0], board: [nil, "1RFS"], revision: 2)
        #expect(selection.isEmpty)
    }
}
