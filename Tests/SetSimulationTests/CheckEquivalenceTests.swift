import SetGame
import SetProtocol
import Testing

@testable import SetSimulation

/// The per-step checks made cheaper decide as the plain rules they replaced: each is run beside the
/// rule written out the plain way, here, on random cases of both outcomes.
@Suite struct CheckEquivalenceTests {
    /// The partition rule as the simulator stated it before: every card counted, then every card of the
    /// mode's deck looked at.
    static func partitionByEachCard(board: [Card], deck: [Card], taken: [[Card]], mode: SetMode) -> String? {
        let inDeck = Set(mode.cards.map(\.index))
        var dealt = [Int](repeating: 0, count: Card.universe.count)
        var isTaken = [Bool](repeating: false, count: Card.universe.count)
        for card in board + deck { dealt[card.index] += 1 }
        for card in taken.joined() { isTaken[card.index] = true }
        func count(_ index: Int) -> Int {
            mode.isPuzzle && dealt[index] > 0 ? dealt[index] : dealt[index] + (isTaken[index] ? 1 : 0)
        }
        let stranger =
            board.first { !inDeck.contains($0.index) } ?? deck.first { !inDeck.contains($0.index) }
            ?? taken.lazy.compactMap { $0.first { !inDeck.contains($0.index) } }.first
        if let card = stranger { return "\(card.code) is in \(count(card.index)) places" }
        for card in mode.cards where !(count(card.index) == 1 || (mode.isPuzzle && count(card.index) == 0)) {
            return "\(card.code) is in \(count(card.index)) places"
        }
        return nil
    }

    @Test("the partition check finds what the card-by-card rule finds, and says it the same way")
    func partitionDecidesAsEachCard() {
        var random = SeededGenerator(seed: 22)
        var scratch = [UInt8](repeating: 0, count: Card.universe.count)
        var outcomes = (held: 0, broken: 0)
        let modes: [SetMode] = [.normal, .junior, .chain, .puzzle, .megaset, .fourSet, .fourSetJunior]
        for round in 0..<6_000 {
            let mode = modes[round % modes.count]
            var cards = mode.cards
            cards.shuffle(using: &random)
            // A partition: a board, taken sets of three, the deck the rest.
            let boardSize = min(12, cards.count)
            var board = Array(cards[..<boardSize])
            let takenCount = min(Int(random.next() % 8), (cards.count - boardSize) / 3)
            var taken = (0..<takenCount).map { Array(cards[(boardSize + 3 * $0)..<(boardSize + 3 * $0 + 3)]) }
            var deck = Array(cards[(boardSize + 3 * takenCount)...])
            // What the modes allow: chain reuses a taken card; puzzle leaves cards out and keeps found
            // sets on the board.
            if mode == .chain, taken.count >= 2 { taken[1][0] = taken[0][2] }
            if mode.isPuzzle {
                deck.removeLast(Int(random.next() % 5))
                if let set = taken.first { board.append(set[0]) }
            }
            // And, one round in two, what breaks a partition.
            switch random.next() % 10 {
            case 0: board.append(deck.randomElement(using: &random) ?? board[0])
            case 1: if !deck.isEmpty { deck.removeLast() }
            case 2: deck.append(board[0])
            case 3:
                if let card = Card.universe.first(where: { !mode.cards.contains($0) }) { board.append(card) }
            case 4:
                if let card = Card.universe.last(where: { !mode.cards.contains($0) }) { taken.append([card]) }
            case 5: taken.append([board[Int(random.next() % UInt64(board.count))]])
            default: break
            }
            let inDeck = Card.universe.map { mode.cards.contains($0) }
            let found = Simulation.partitionProblem(
                board: board, deck: deck, taken: taken, mode: mode, inDeck: inDeck,
                deckCount: mode.cards.count,
                scratch: &scratch)
            let expected = Self.partitionByEachCard(board: board, deck: deck, taken: taken, mode: mode)
            #expect(found == expected, "round \(round), \(mode)")
            #expect(scratch.allSatisfy { $0 == 0 }, "the scratch is left clear")
            if expected == nil { outcomes.held += 1 } else { outcomes.broken += 1 }
        }
        // Both outcomes were tried, many times.
        #expect(outcomes.held > 1_000 && outcomes.broken > 1_000, "\(outcomes)")
    }

    @Test("a Matchismo board holds a card twice exactly when a set of its cards is smaller")
    func aCardTwiceIsFoundAsASetFindsIt() {
        var random = SeededGenerator(seed: 23)
        var twice = 0
        for _ in 0..<3_000 {
            var cards = Array(PlayingCard.all.shuffled(using: &random).prefix(Int(random.next() % 53)))
            if random.next() % 2 == 0, let card = cards.randomElement(using: &random) { cards.append(card) }
            let expected = Set(cards).count != cards.count
            #expect(Simulation.holdsACardTwice(cards) == expected)
            twice += expected ? 1 : 0
        }
        #expect(twice > 500)
    }

    @Test("a board shows exactly the cards when its SET cards, gaps dropped, are those cards")
    func aBoardIsComparedAsItsCards() {
        var random = SeededGenerator(seed: 24)
        var equal = 0
        for _ in 0..<3_000 {
            let cards = Array(Card.all.shuffled(using: &random).prefix(Int(random.next() % 16)))
            var board: [GameView.Slot] = cards.map { .set($0) }
            switch random.next() % 6 {
            case 0:
                board.insert(
                    .playing(nil, isMatched: false), at: Int(random.next() % UInt64(board.count + 1)))
            case 1: if !board.isEmpty { board.removeLast() }
            case 2: board.append(.set(Card.all[Int(random.next() % 81)]))
            case 3: if board.count > 1 { board.swapAt(0, board.count - 1) }
            case 4: board.append(.unreadable("x"))
            default: break
            }
            var view = GameView()
            view.board = board
            let expected = view.setCards.compactMap { $0 } == cards
            #expect(Simulation.showsExactly(cards, on: board) == expected)
            equal += expected ? 1 : 0
        }
        #expect(equal > 500 && equal < 2_800)
    }
}
