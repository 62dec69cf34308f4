import SetGame
import SetTestSupport
import Testing

/// A card the test names, such as "J♥" or "10♠".
func playing(_ symbol: String) -> PlayingCard {
    PlayingCard.all.first { $0.symbol == symbol }!
}

/// A game (the first seed from 0) whose board holds every card in `symbols`, with the players added,
/// and the positions of those cards.
func matchismo(
    holding symbols: [String], matchCount: Int = 2, players: [String] = ["ann"]
) -> (MatchismoGame, [Int]) {
    for seed in UInt64(0)..<10_000 {
        var game = MatchismoGame(matchCount: matchCount, seed: seed)
        let positions = symbols.compactMap { symbol in
            game.slots.firstIndex { $0.card == playing(symbol) }
        }
        guard positions.count == symbols.count else { continue }
        for player in players { game.addPlayer(player) }
        return (game, positions)
    }
    fatalError("no seed deals \(symbols)")
}

@Suite("Matchismo")
struct MatchismoTests {
    @Test func aNewGame() {
        let game = MatchismoGame(seed: 1)
        #expect(game.slots.count == 30 && game.deckCount == 22)
        #expect(Set(game.slots.map(\.card)).count == 30)
        #expect(game.slots.allSatisfy { !$0.isFaceUp && !$0.isMatched })
        #expect(game.matchCount == 2 && !game.hasStarted && game.turn == nil && !game.isOver)
        #expect(MatchismoGame(seed: 1).slots == game.slots)
        #expect(MatchismoGame(seed: 2).slots != game.slots)
        #expect(PlayingCard.all.count == 52 && Set(PlayingCard.all).count == 52)
    }

    @Test func playingCardCodes() {
        for card in PlayingCard.all {
            #expect(PlayingCard(code: card.code) == card)
            #expect(PlayingCard(code: card.code.lowercased()) == card)
        }
        #expect(PlayingCard(code: "10H") == PlayingCard(rank: 10, suit: .hearts))
        #expect(PlayingCard(code: "qd")?.symbol == "Q♦")
        #expect(PlayingCard(code: "AS")?.description == "A♠")
        #expect(
            PlayingCard(code: "1S") == nil && PlayingCard(code: "") == nil && PlayingCard(code: "JX") == nil)
    }

    @Test func matchScore() {
        #expect(MatchismoGame.matchScore([playing("J♥"), playing("J♠")]) == 4)
        #expect(MatchismoGame.matchScore([playing("J♥"), playing("Q♥")]) == 1)
        #expect(MatchismoGame.matchScore([playing("6♦"), playing("J♣")]) == 0)
        #expect(MatchismoGame.matchScore([playing("J♥"), playing("J♠"), playing("5♥")]) == 5)
        #expect(MatchismoGame.matchScore(["A♠", "A♥", "A♦", "2♠", "3♣"].map(playing)) == 13)
    }

    @Test func twoCardMatch() throws {
        var (game, at) = matchismo(holding: ["J♥", "J♠"])
        let first = try game.choose(at[0], by: "ann").get()
        #expect(first.text == "J♥" && first.points == -2 && first.scored.isEmpty && !first.isMatch)
        #expect(game.slots[at[0]].isFaceUp && !game.slots[at[0]].isMatched)
        #expect(game.turn == "ann")
        let second = try game.choose(at[1], by: "ann").get()
        #expect(second.text == "Matched J♥ J♠ for 32 points")
        #expect(second.points == 32 - 2 && second.isMatch)
        #expect(second.scored == [playing("J♥"), playing("J♠")])
        #expect(game.score(of: "ann") == -2 + 30)
        #expect(at.allSatisfy { game.slots[$0].isMatched && game.slots[$0].isFaceUp })
        #expect(game.turn == "ann")  // a match keeps the turn
        #expect(game.history.map(\.text) == ["J♥", "Matched J♥ J♠ for 32 points"])
    }

    @Test func twoCardMismatch() throws {
        var (game, at) = matchismo(holding: ["6♦", "J♣"], players: ["ann", "bob"])
        _ = try game.choose(at[0], by: "ann").get()
        let choice = try game.choose(at[1], by: "ann").get()
        #expect(choice.text == "6♦ J♣ don't match! 4 point penalty!")
        #expect(choice.points == -4 - 2 && !choice.isMatch)
        #expect(game.score(of: "ann") == -2 - 6)
        #expect(!game.slots[at[0]].isFaceUp && game.slots[at[1]].isFaceUp)  // the last card stays up
        #expect(at.allSatisfy { !game.slots[$0].isMatched })
        #expect(game.turn == "bob")  // a mismatch passes the turn
    }

    @Test func aLoneChoiceIsJustTheCard() throws {
        var (game, at) = matchismo(holding: ["8♦"])
        let choice = try game.choose(at[0], by: "ann").get()
        #expect(choice.text == "8♦" && choice.points == -2)
        #expect(choice.player == "ann" && choice.scored.isEmpty)
        #expect(game.score(of: "ann") == -2 && game.revision == 2 && game.hasStarted)
    }

    @Test func threeCardMatchAndMismatch() throws {
        var (game, at) = matchismo(holding: ["J♥", "J♠", "5♥", "2♣", "7♦", "K♠"], matchCount: 3)
        #expect(game.matchCount == 3)
        // Choose each group in board order, so the history names them in that order.
        let match = at[0..<3].sorted()
        for p in match.dropLast() { #expect(try game.choose(p, by: "ann").get().points == -3) }
        let scored = try game.choose(match[2], by: "ann").get()
        let names = match.map { game.slots[$0].card.symbol }.joined(separator: " ")
        // J♥ J♠ share a rank (4) and J♥ 5♥ a suit (1): 5 × 4 × 3 = 60.
        #expect(scored.text == "Matched \(names) for 60 points")
        #expect(scored.points == 60 - 3 && scored.isMatch)
        #expect(game.score(of: "ann") == -3 - 3 + 57)
        let miss = at[3..<6].sorted()
        for p in miss.dropLast() { _ = try game.choose(p, by: "ann").get() }
        let missed = try game.choose(miss[2], by: "ann").get()
        let missNames = miss.map { game.slots[$0].card.symbol }.joined(separator: " ")
        #expect(missed.text == "\(missNames) don't match! 6 point penalty!")
        #expect(missed.points == -6 - 3 && !missed.isMatch)
        #expect(game.score(of: "ann") == 51 - 3 - 3 - 9)
        #expect(
            !game.slots[miss[0]].isFaceUp && !game.slots[miss[1]].isFaceUp && game.slots[miss[2]].isFaceUp)
    }

    @Test func theCardJustChosenIsNamedLast() throws {
        var (game, at) = matchismo(holding: ["J♥", "J♠"])
        // Choose the later position first: the history still ends with the card chosen last.
        let (early, late) = (min(at[0], at[1]), max(at[0], at[1]))
        _ = try game.choose(late, by: "ann").get()
        let choice = try game.choose(early, by: "ann").get()
        let expected = [game.slots[late].card.symbol, game.slots[early].card.symbol].joined(separator: " ")
        #expect(choice.text == "Matched \(expected) for 32 points")
    }

    @Test func aThreeCardMatchNamesTheCardsInTheOrderTheyWereChosen() throws {
        var (game, at) = matchismo(holding: ["J♥", "J♠", "5♥", "2♣"], matchCount: 3)
        // Against board order: the last position first, and one card turned up and back down between.
        let order = at[0..<3].sorted(by: >)
        _ = try game.choose(order[0], by: "ann").get()
        _ = try game.choose(at[3], by: "ann").get()
        _ = try game.choose(at[3], by: "ann").get()  // back down
        _ = try game.choose(order[1], by: "ann").get()
        // A snapshot keeps only which cards are up: the order comes back from the history.
        game = try MatchismoGame(state: game.state)
        let choice = try game.choose(order[2], by: "ann").get()
        let names = order.map { game.slots[$0].card.symbol }.joined(separator: " ")
        #expect(choice.text == "Matched \(names) for 60 points")
        #expect(choice.scored == order.map { game.slots[$0].card })
    }

    @Test func aThreeCardMismatchKeepsTheLastCardUpAndItsPlaceInTheOrder() throws {
        var (game, at) = matchismo(holding: ["J♥", "5♠", "2♣", "7♦", "9♠"], matchCount: 3)
        let first = [at[3], at[0], at[2]]  // 7♦ J♥ 2♣ share nothing
        for p in first { _ = try game.choose(p, by: "ann").get() }
        // 2♣ stays up and was chosen before the next two.
        _ = try game.choose(at[4], by: "ann").get()
        let choice = try game.choose(at[1], by: "ann").get()
        let names = [at[2], at[4], at[1]].map { game.slots[$0].card.symbol }.joined(separator: " ")
        #expect(choice.text.hasPrefix("Matched \(names) for "))
    }

    @Test func fiveCardMatch() throws {
        var (game, at) = matchismo(holding: ["A♠", "A♥", "A♦", "2♠", "3♣"], matchCount: 5)
        let order = at.sorted()
        var total = 0
        for p in order.dropLast() { total += try game.choose(p, by: "ann").get().points }
        #expect(total == -5 * 4)
        let choice = try game.choose(order[4], by: "ann").get()
        let names = order.map { game.slots[$0].card.symbol }.joined(separator: " ")
        // Three pairs of aces (3 × 4) and one pair of spades (1): 13 × 4 × 5 = 260.
        #expect(choice.text == "Matched \(names) for 260 points")
        #expect(choice.points == 260 - 5)
        #expect(game.score(of: "ann") == 260 - 25)
        #expect(order.allSatisfy { game.slots[$0].isMatched })
    }

    @Test func fiveCardsAlwaysShareASuit() throws {
        // Five cards, four suits: the weakest five-card match is one pair of one suit, 1 × 4 × 5.
        var (game, at) = matchismo(holding: ["2♠", "5♥", "9♦", "K♣", "7♠"], matchCount: 5)
        let order = at.sorted()
        for p in order.dropLast() { _ = try game.choose(p, by: "ann").get() }
        let choice = try game.choose(order[4], by: "ann").get()
        #expect(choice.isMatch && choice.text.hasSuffix(" for 20 points"))
        #expect(choice.points == 20 - 5)
    }

    @Test func theMatchCountLocksAtTheFirstChoice() throws {
        var (game, at) = matchismo(holding: ["8♦"])
        try game.setMatchCount(3)
        #expect(game.matchCount == 3)
        try game.setMatchCount(2)
        #expect(throws: MatchismoError.badMatchCount(1)) { try game.setMatchCount(1) }
        #expect(throws: MatchismoError.badMatchCount(31)) { try game.setMatchCount(31) }
        try game.setMatchCount(30)
        try game.setMatchCount(4)
        _ = try game.choose(at[0], by: "ann").get()
        #expect(game.hasStarted)
        #expect(throws: MatchismoError.modeLocked(4)) { try game.setMatchCount(2) }
        #expect(throws: MatchismoError.modeLocked(4)) { try game.setMatchCount(4) }
        #expect(game.matchCount == 4)
        #expect(MatchismoError.modeLocked(4).description == "the match count is locked at 4 until a new game")
        // A refused choice does not start the game.
        var fresh = MatchismoGame(seed: 3)
        fresh.addPlayer("ann")
        #expect(fresh.choose(99, by: "ann") == .failure(.noSuchPosition(99)))
        try fresh.setMatchCount(3)
        #expect(fresh.matchCount == 3)
    }

    @Test func turnsPassOnAMismatchAndSkipAwayPlayers() throws {
        var (game, at) = matchismo(
            holding: ["J♥", "J♠", "6♦", "J♣", "2♥", "9♣", "Q♠"], players: ["ann", "bob", "cat"])
        #expect(game.players == ["ann", "bob", "cat"] && game.turn == "ann")
        // A match keeps the turn.
        _ = try game.choose(at[0], by: "ann").get()
        _ = try game.choose(at[1], by: "ann").get()
        #expect(game.turn == "ann")
        // Nobody else may choose meanwhile.
        #expect(game.choose(at[2], by: "bob") == .failure(.notYourTurn("ann")))
        #expect(game.choose(at[2], by: "zed") == .failure(.notPlaying))
        #expect(MatchismoError.notYourTurn("ann").description == "it is ann's turn")
        // A mismatch passes it; 6♦ goes back down, J♣ stays up.
        _ = try game.choose(at[2], by: "ann").get()
        #expect(try game.choose(at[3], by: "ann").get().isMatch == false)
        #expect(game.turn == "bob")
        // Cat is away, so bob's mismatch passes the turn back to ann.
        game.setPresent("cat", false)
        _ = try game.choose(at[3], by: "bob").get()  // J♣ was up: bob turns it back down
        #expect(!game.slots[at[3]].isFaceUp && game.turn == "bob")
        _ = try game.choose(at[4], by: "bob").get()
        #expect(try game.choose(at[5], by: "bob").get().isMatch == false)  // 2♥ 9♣
        #expect(game.turn == "ann")
        #expect(game.choose(at[6], by: "cat") == .failure(.notYourTurn("ann")))
        // Ann going away passes the turn at once; the last one away keeps it (as after a restart), and
        // a player who comes back does not take it from them.
        game.setPresent("ann", false)
        #expect(game.turn == "bob")
        game.setPresent("bob", false)
        #expect(game.turn == "bob")
        game.setPresent("cat", true)
        #expect(game.turn == "bob")
        #expect(game.choose(at[6], by: "cat") == .failure(.notYourTurn("bob")))
        // Bob leaving for good (his grace ran out) passes it on.
        game.removeFromTurn("bob")
        #expect(game.turn == "cat")
        game.setPresent("ann", true)
        #expect(game.turn == "cat")
        // 9♣ is still up from bob's mismatch, so cat's Q♠ is scored with it.
        let miss = try game.choose(at[6], by: "cat").get()
        #expect(miss.text == "9♣ Q♠ don't match! 4 point penalty!")
        #expect(game.turn == "ann")  // bob is away
        game.setPresent("zed", false)  // not a player: nothing happens
        #expect(game.turn == "ann")
        game.addPlayer("ann")  // already playing: nothing happens
        #expect(game.players == ["ann", "bob", "cat"])
    }

    @Test func nobodyHasTheTurnOnlyWhenTheLastPlayerLeft() throws {
        var (game, at) = matchismo(holding: ["J♥"], players: ["ann", "bob"])
        game.setPresent("bob", false)
        game.removeFromTurn("ann")
        #expect(game.turn == nil)
        #expect(game.choose(at[0], by: "ann") == .failure(.notYourTurn(nil)))
        #expect(MatchismoError.notYourTurn(nil).description == "it is nobody's turn")
        game.setPresent("bob", true)
        #expect(game.turn == "bob")
    }

    @Test func matchedCardsLeavePlay() throws {
        var (game, at) = matchismo(holding: ["J♥", "J♠", "Q♥"])
        _ = try game.choose(at[0], by: "ann").get()
        _ = try game.choose(at[1], by: "ann").get()
        #expect(game.choose(at[0], by: "ann") == .failure(.alreadyMatched(playing("J♥"))))
        #expect(game.choose(at[1], by: "ann") == .failure(.alreadyMatched(playing("J♠"))))
        // Matched cards stay face up but no longer count: one more card is a lone choice.
        let choice = try game.choose(at[2], by: "ann").get()
        #expect(choice.text == "Q♥" && choice.scored.isEmpty)
    }

    @Test func choosingAFaceUpCardTurnsItBackDown() throws {
        var (game, at) = matchismo(holding: ["8♦", "J♥", "J♠"])
        _ = try game.choose(at[0], by: "ann").get()
        #expect(game.slots[at[0]].isFaceUp)
        let back = try game.choose(at[0], by: "ann").get()
        #expect(!game.slots[at[0]].isFaceUp && back.text == "8♦" && back.scored.isEmpty)
        #expect(game.score(of: "ann") == -4 && game.turn == "ann" && game.revision == 3)
        // The 8♦ takes no part in the next match.
        _ = try game.choose(at[1], by: "ann").get()
        let match = try game.choose(at[2], by: "ann").get()
        #expect(match.text == "Matched J♥ J♠ for 32 points")
        #expect(!game.slots[at[0]].isMatched)
    }

    @Test func staleAndMissingPositions() throws {
        var (game, at) = matchismo(holding: ["8♦"])
        #expect(game.choose(30, by: "ann") == .failure(.noSuchPosition(30)))
        #expect(game.choose(-1, by: "ann") == .failure(.noSuchPosition(-1)))
        #expect(game.choose(at[0], by: "ann", seenRevision: 0) == .failure(.stale(0, 1)))
        _ = try game.choose(at[0], by: "ann", seenRevision: 1).get()
        #expect(game.revision == 2 && game.history.count == 1)
    }

    @Test func isOverAgreesWithTheRulesOnAnyBoard() throws {
        // Any cards matched (not only pairs a game could take), for every match count.
        var generator = SeededGenerator(seed: 0x15_0FE4)
        var overs = 0
        for round in 0..<3_000 {
            let n = 2 + round % 29
            var state = MatchismoGame(matchCount: n, seed: generator.next()).state
            let matchedPercent = [0, 50, 80, 90, 95, 100][round % 6]
            for i in state.slots.indices where Int(generator.next() % 100) < matchedPercent {
                state.slots[i].isFaceUp = true
                state.slots[i].isMatched = true
            }
            let game = try MatchismoGame(state: state)
            let expected = MatchismoReference.isOver(slots: state.slots, matchCount: n)
            #expect(game.isOver == expected, "n=\(n) \(state.slots.filter { !$0.isMatched }.map(\.card))")
            if expected { overs += 1 }
        }
        #expect(overs > 300 && overs < 2_700)
    }

    @Test func aGamePlaysToTheEnd() {
        for seed in UInt64(0)..<200 {
            var game = MatchismoGame(matchCount: 2, seed: seed)
            game.addPlayer("ann")
            var score = 0
            var matches = 0
            while !game.isOver {
                // Choose two unmatched cards that share a rank or a suit.
                let open = game.slots.indices.filter { !game.slots[$0].isMatched }
                guard
                    let pair = open.lazy.flatMap({ i in open.lazy.map { (i, $0) } }).first(where: { i, j in
                        i < j
                            && (game.slots[i].card.rank == game.slots[j].card.rank
                                || game.slots[i].card.suit == game.slots[j].card.suit)
                    })
                else {
                    Issue.record("seed \(seed): not over but no pair")
                    break
                }
                score += (try? game.choose(pair.0, by: "ann").get().points) ?? 1_000
                let choice = try? game.choose(pair.1, by: "ann").get()
                #expect(choice?.isMatch == true)
                score += choice?.points ?? 1_000
                matches += 1
            }
            #expect(game.score(of: "ann") == score)
            let left = game.slots.filter { !$0.isMatched }
            #expect(left.count == 30 - 2 * matches)
            for i in left.indices {
                for j in left.indices where j > i {
                    #expect(left[i].card.rank != left[j].card.rank && left[i].card.suit != left[j].card.suit)
                }
            }
            #expect(left.count <= 4)
            let position = game.slots.firstIndex { !$0.isMatched } ?? 0
            #expect(game.choose(position, by: "ann") == .failure(.gameOver))
        }
    }
}
