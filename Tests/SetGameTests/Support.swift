import SetGame
import SetTestSupport
import Testing

// Helpers shared by the game tests; the reference oracles they check against are in SetTestSupport.

/// `size` distinct cards drawn at random from `pool`.
func randomBoard(_ size: Int, from pool: [Card] = Card.all, using generator: inout SeededGenerator) -> [Card]
{
    var deck = pool
    for i in 0..<size { deck.swapAt(i, i + generator.next(below: deck.count - i)) }
    return Array(deck.prefix(size))
}

/// Parses card codes the test wrote itself.
func cards(_ codes: String) -> [Card] {
    codes.split(separator: " ").map { try! Card(code: $0) }
}

/// A 20-card cap: the largest collection of SET cards with no set in it (found by a backtracking
/// search and checked by the tests).
let setFreeTwenty = cards(
    "1RFT 2RFT 1GFT 2GFT 1RHT 2RHT 1GHT 2GHT 1RFC 2RFC 3GFC 3PFC 3RHC 3REC 3GFS 3RHS 1GHS 2GHS 3PHS 3GES")

/// Plays a game to the end, claiming a possible claim chosen by `generator` each time, and checks the
/// invariants that must hold after every claim. Returns the game and the boards it went through.
func playChecked(
    options: SetGame.Options = SetGame.Options(), seed: UInt64, byPositions: Bool,
    choosing generator: inout SeededGenerator
) -> (game: SetGame, boards: [[Card]]) {
    var game = SetGame(options: options, seed: seed)
    var boards = [game.board]
    let mode = options.mode
    let maximumBoard = mode == .chain ? SetGame.maximumChainBoardSize : SetGame.maximumBoardSize
    #expect(Set(game.board + game.deck) == Set(mode.cards))
    #expect(game.board.count + game.deckCount == mode.cards.count)
    var removedFromBoard = 0
    var steps = 0
    while !game.isOver {
        steps += 1
        if steps > 100 {
            Issue.record("seed \(seed): the game does not end")
            break
        }
        let board = game.board
        let deck = game.deck
        let revision = game.revision
        #expect(board.count <= maximumBoard, "seed \(seed): \(board.count) cards on the board")
        #expect(Set(board).count == board.count)
        if game.deckCount > 0 {
            #expect(game.hasClaim, "seed \(seed): no claim on the board while the deck has cards")
            // A chain claim may use a card of the previous set, off the board; otherwise the set is
            // on the board.
            if mode != .ultra, game.chainCards == nil { #expect(SetRules.containsSet(board)) }
        }
        let claims = game.possibleClaims
        #expect(!claims.isEmpty)
        guard !claims.isEmpty else { break }
        let claim = claims[generator.next(below: claims.count)]
        let onBoard = claim.compactMap { board.firstIndex(of: $0) }
        let selection: Selection
        if byPositions, onBoard.count == claim.count {
            selection = .positions(onBoard, seenRevision: revision)
        } else {
            selection = .cards(claim)
        }
        guard case .success(let taken) = game.claim(selection, by: "p") else {
            Issue.record("seed \(seed): possible claim \(claim) was refused")
            break
        }
        #expect(taken.cards == claim)
        #expect(game.revision > revision, "seed \(seed): the revision did not go up")
        #expect(taken.revision == game.revision)
        removedFromBoard += onBoard.count

        // Positions are stable: the board changes as documented, then grows only by appending.
        let (expected, used) = SetReference.boardAfterTaking(positions: onBoard, from: board, deck: deck)
        #expect(Array(game.board.prefix(expected.count)) == expected, "seed \(seed): positions moved")
        // Extra cards are dealt three at a time (fewer only when the deck runs out).
        let dealt = max(game.board.count - expected.count, 0)
        #expect(game.board.count >= expected.count)
        #expect(dealt % 3 == 0 || game.deckCount == 0)
        #expect(Array(game.board.suffix(dealt)) == Array(deck.dropFirst(used).prefix(dealt)))
        #expect(game.deck == Array(deck.dropFirst(used + dealt)))
        // One revision for taking the set, one for each deal of up to three cards.
        #expect(game.revision == revision + 1 + (dealt + 2) / 3, "seed \(seed)")
        if board.count == SetGame.boardSize, deck.count >= onBoard.count {
            // At 12 cards the new cards take exactly the claimed slots, in ascending order.
            for p in board.indices where !onBoard.contains(p) { #expect(game.board[p] == board[p]) }
            #expect(onBoard.sorted().map { game.board[$0] } == Array(deck.prefix(onBoard.count)))
        }
        if mode == .chain {
            if let chain = game.chainCards {
                #expect(chain == claim)
            } else {
                #expect(game.deckCount == 0 || game.board.count >= SetGame.maximumBoardSize)
            }
        }
        boards.append(game.board)
    }
    #expect(game.isOver)
    #expect(game.deckCount == 0 && game.deck.isEmpty)
    #expect(!game.hasClaim && game.possibleClaims.isEmpty)
    if mode == .ultra {
        #expect(SetRules.allUltraSets(in: game.board).isEmpty)
    } else {
        #expect(!SetRules.containsSet(game.board), "seed \(seed): the game ended with a set on the board")
    }
    #expect(removedFromBoard + game.board.count == mode.cards.count)
    #expect(game.score(of: "p") == game.takenSets.count)
    #expect(game.wrongClaims == 0)
    return (game, boards)
}
