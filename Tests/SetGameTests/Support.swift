import SetGame
import Testing

// Reference implementations written straight from the rules, for the library to be checked against.

/// Whether three values are all the same or all different.
func sameOrDifferent<T: Equatable>(_ a: T, _ b: T, _ c: T) -> Bool {
    (a == b && b == c) || (a != b && b != c && a != c)
}

/// The definition of a set: for every attribute, all the same or all different.
func definitionIsSet(_ a: Card, _ b: Card, _ c: Card) -> Bool {
    sameOrDifferent(a.count, b.count, c.count) && sameOrDifferent(a.colour, b.colour, c.colour)
        && sameOrDifferent(a.fill, b.fill, c.fill) && sameOrDifferent(a.shape, b.shape, c.shape)
}

/// Every set among `cards` by trying every triple, as ascending positions in ascending order.
func bruteForceSets(_ cards: [Card]) -> [[Int]] {
    var sets: [[Int]] = []
    for i in cards.indices {
        for j in cards.indices where j > i {
            for k in cards.indices where k > j && definitionIsSet(cards[i], cards[j], cards[k]) {
                sets.append([i, j, k])
            }
        }
    }
    return sets
}

/// The attribute values of a card, 0–2 each, from its public properties.
func attributeValues(_ card: Card) -> [Int] {
    [card.count - 1, card.colour.rawValue, card.fill.rawValue, card.shape.rawValue]
}

/// Whether `a` and `b` pair up with the same completing card as `c` and `d`: for every attribute,
/// a + b ≡ c + d (mod 3).
func samePairSum(_ a: Card, _ b: Card, _ c: Card, _ d: Card) -> Bool {
    let (va, vb, vc, vd) = (attributeValues(a), attributeValues(b), attributeValues(c), attributeValues(d))
    return (0..<4).allSatisfy { (va[$0] + vb[$0]) % 3 == (vc[$0] + vd[$0]) % 3 }
}

/// The definition of an Ultra SET on four distinct cards.
func definitionIsUltra(_ a: Card, _ b: Card, _ c: Card, _ d: Card) -> Bool {
    guard Set([a, b, c, d]).count == 4 else { return false }
    return samePairSum(a, b, c, d) || samePairSum(a, c, b, d) || samePairSum(a, d, b, c)
}

/// Every Ultra SET among `cards` by trying every quadruple.
func bruteForceUltraSets(_ cards: [Card]) -> [[Int]] {
    var found: [[Int]] = []
    let n = cards.count
    for i in 0..<n {
        for j in (i + 1)..<n {
            for k in (j + 1)..<n {
                for l in (k + 1)..<n
                where definitionIsUltra(cards[i], cards[j], cards[k], cards[l]) {
                    found.append([i, j, k, l])
                }
            }
        }
    }
    return found
}

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

/// The board after removing the cards at `claimed` positions, as the rules document it: holes are
/// refilled in place, in ascending order, with the next cards of `deck` while the board would otherwise
/// be below 12 cards; any remaining holes are closed by repeatedly moving the last card into the
/// first hole (or dropping the last position when it is itself a hole). Returns the board and how
/// many deck cards were used.
func expectedBoardAfterTaking(_ claimed: [Int], from board: [Card], deck: [Card]) -> ([Card], Int) {
    var slots: [Card?] = board
    var holes = claimed.sorted()
    var used = 0
    while let hole = holes.first, board.count - holes.count < SetGame.boardSize, used < deck.count {
        slots[hole] = deck[used]
        used += 1
        holes.removeFirst()
    }
    for hole in holes { slots[hole] = nil }
    while let firstHole = slots.firstIndex(where: { $0 == nil }) {
        let last = slots.removeLast()
        if let last, firstHole < slots.count { slots[firstHole] = last }
    }
    return (slots.map { $0! }, used)
}

/// Plays a game to the end, claiming a possible claim chosen by `generator` each time, and checks the
/// invariants that must hold after every claim. Returns the game and the boards it went through.
func playChecked(
    options: SetGame.Options = SetGame.Options(), seed: UInt64, byPositions: Bool,
    choosing generator: inout SeededGenerator
) -> (game: SetGame, boards: [[Card]]) {
    var game = SetGame(options: options, seed: seed)
    var boards = [game.board]
    let mode = options.mode
    let maximumBoard = mode == .chain ? 23 : SetGame.maximumBoardSize
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
        let (expected, used) = expectedBoardAfterTaking(onBoard, from: board, deck: deck)
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
