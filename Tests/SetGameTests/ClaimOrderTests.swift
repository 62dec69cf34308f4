import SetGame
import Testing

/// The order of a board's claims is what the server's `HINT` shows (the first card of the first claim),
/// so listing them straight as cards, and finding the hint without listing them, must keep the order the
/// rules' position searches give.
@Suite("The order of claims and the hint")
struct ClaimOrderTests {
    /// The claims of `game` as `possibleClaims` listed them when they were made from the position
    /// searches: sets and UltraSets in the order of `allSets(in:)` and `allUltraSets(in:)`.
    func claimsFromPositions(_ game: SetGame) -> [[Card]]? {
        let board = game.board
        let isUnchained = game.chainCards?.isEmpty ?? true
        switch game.options.mode {
        case .normal, .junior, .megaset, .shuffle, .memory:
            return SetRules.allSets(in: board).map { $0.map { board[$0] } }
        case .chain where isUnchained:
            return SetRules.allSets(in: board).map { $0.map { board[$0] } }
        case .ultra, .ultra9:
            return SetRules.allUltraSets(in: board).map { $0.map { board[$0] } }
        case .ultrachain where isUnchained:
            return SetRules.allUltraSets(in: board).map { $0.map { board[$0] } }
        default:
            return nil
        }
    }

    @Test(arguments: SetMode.allCases)
    func claimsKeepTheirOrderAndTheHintIsTheFirstClaimsFirstCard(mode: SetMode) {
        var generator = SeededGenerator(seed: 41)
        var boards = 0
        for seed in UInt64(0)..<20 {
            var game = SetGame(options: SetGame.Options(mode: mode), seed: seed)
            while !game.isOver {
                let claims = game.possibleClaims
                if let expected = claimsFromPositions(game) {
                    #expect(claims == expected, "\(mode), seed \(seed), revision \(game.revision)")
                }
                #expect(game.hint == claims.first?.first, "\(mode), seed \(seed), revision \(game.revision)")
                boards += 1
                guard !claims.isEmpty else { break }
                let claim = claims[Int(generator.next() % UInt64(claims.count))]
                // By position where the card lies on the board (memory's cards must be), by code otherwise
                // (a chain card).
                let picks = claim.map { card in
                    game.board.firstIndex(of: card).map(Selection.Pick.position) ?? .card(card)
                }
                guard case .success = game.claim(Selection(picks), by: "ann") else {
                    Issue.record("a listed claim was refused in \(mode), seed \(seed)")
                    break
                }
            }
        }
        #expect(boards > 100)
    }
}
