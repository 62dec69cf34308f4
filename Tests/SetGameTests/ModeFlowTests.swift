import SetGame
import SetTestSupport
import Testing

/// The flows of the later modes — puzzle, shuffle, memory, the UltraSet chain — and the options of
/// practice and timed games.
@Suite("The flows of the later modes")
struct ModeFlowTests {
    /// Claims the first possible claim, by codes (by positions in memory).
    @discardableResult
    func claimFirst(_ game: inout SetGame, by player: String = "ann") throws -> SetGame.TakenSet {
        let claim = try #require(game.possibleClaims.first)
        let selection: Selection =
            game.options.mode.dealsFaceDown
            ? .positions(claim.map { game.board.firstIndex(of: $0)! }, seenRevision: game.revision)
            : .cards(claim)
        return try game.claim(selection, by: player).get()
    }

    // MARK: Puzzle

    @Test func aPuzzleBoardStaysUntilEverySetOnItIsFound() throws {
        var game = SetGame(options: SetGame.Options(mode: .puzzle), seed: 5)
        let board = game.board
        let deck = game.deck
        let sets = SetRules.allSets(in: board).map { $0.map { board[$0] } }
        #expect(game.possibleClaims == sets && sets.count > 1)
        for (n, set) in sets.enumerated() {
            let revision = game.revision
            let taken = try game.claim(.cards(set), by: n % 2 == 0 ? "ann" : "bob").get()
            if n < sets.count - 1 {
                // Found, not taken: the board and its revision stay, so positions seen before still hold.
                #expect(game.board == board && game.revision == revision && taken.revision == revision)
                #expect(game.foundClaims == Array(sets.prefix(n + 1)))
                #expect(game.possibleClaims == Array(sets.dropFirst(n + 1)))
                // The same set again, in another order, is late, not wrong.
                #expect(
                    game.claim(.cards(set.reversed()), by: "cat")
                        == .failure(.stale("that set was already found on this board")))
                #expect(game.score(of: "cat") == 0 && game.wrongClaims == 0)
            } else {
                // The last set of the board: the board leaves whole, and the next is dealt from the deck.
                #expect(game.foundClaims.isEmpty)
                #expect(game.board == Array(deck.prefix(game.board.count)) && game.board.count >= 12)
                #expect(game.revision > revision && taken.revision == game.revision)
                #expect(SetRules.containsSet(game.board))
            }
        }
        #expect(game.takenSets.count == sets.count)
        #expect(game.score(of: "ann") + game.score(of: "bob") == sets.count)
        // A set found on the old board, named by code, is stale now: its cards are gone.
        #expect(
            game.claim(.cards(sets[0]), by: "ann") == .failure(.stale("\(sets[0][0]) is not on the board")))
    }

    @Test func aPuzzleMovesOnToTheNextCardsOfTheDeck() throws {
        for seed in UInt64(0)..<50 {
            var game = SetGame(options: SetGame.Options(mode: .puzzle), seed: seed)
            while !game.isOver {
                let (board, deck) = (game.board, game.deck)
                let remaining = game.possibleClaims.count
                try claimFirst(&game)
                if remaining == 1 {
                    // The next board is the deck's next cards, with three more at a time while it has no set.
                    let dealt = game.board.count
                    #expect(game.board == Array(deck.prefix(dealt)))
                    #expect(
                        dealt == min(12, deck.count) || !SetRules.containsSet(Array(game.board.dropLast(3))))
                } else {
                    #expect(game.board == board)
                }
            }
            // Every set of every board was found; the game ends when the deck cannot make a board with one.
            #expect(game.deckCount == 0 && game.possibleClaims.isEmpty)
        }
    }

    // MARK: Shuffle

    @Test func theShuffleBoardChangesPlacesAfterEverySet() throws {
        var claims = 0
        var unmoved = 0
        for seed in UInt64(0)..<100 {
            var game = SetGame(options: SetGame.Options(mode: .shuffle), seed: seed)
            #expect(game.board == SetGame(seed: seed).board, "shuffle deals as normal does")
            while !game.isOver {
                // The same claim in a normal game on the same board and deck: the same cards stay, in
                // other places.
                var state = game.state
                state.options.mode = .normal
                var normal = try SetGame(state: state)
                let claim = try #require(game.possibleClaims.first)
                _ = try game.claim(.cards(claim), by: "ann").get()
                _ = try normal.claim(.cards(claim), by: "ann").get()
                #expect(game.board.sorted() == normal.board.sorted() && game.deck == normal.deck)
                #expect(game.revision == normal.revision)
                claims += 1
                if game.board == normal.board { unmoved += 1 }
            }
        }
        #expect(claims > 2_000)
        // A shuffle leaves every card in place once in 12! times or so: never, in practice (the last
        // boards of a game, with a card or two, are the exceptions).
        #expect(unmoved * 50 < claims, "\(unmoved) of \(claims) shuffles left every card in place")
    }

    @Test func aShuffleGameReplaysFromItsState() throws {
        for seed in UInt64(0)..<30 {
            var live = SetGame(options: SetGame.Options(mode: .shuffle), seed: seed)
            var step = 0
            while !live.isOver {
                // Restored after any step, the game shuffles as the live one does from there.
                var restored = try SetGame(state: live.state)
                try claimFirst(&live)
                try claimFirst(&restored)
                #expect(restored.state == live.state, "seed \(seed) step \(step)")
                step += 1
            }
        }
    }

    // MARK: Memory

    @Test func memoryTurnsFaceDownCardsOverByPosition() throws {
        var game = SetGame(options: SetGame.Options(mode: .memory), seed: 9)
        #expect(game.board.count == 21 && game.faceUpBoard == Array(repeating: nil, count: 21))
        let board = game.board
        let revision = game.revision
        // Naming a face-down card by its code is refused: it would be a guess the answer confirms.
        let set = try #require(game.possibleClaims.first)
        #expect(
            game.claim(.cards(set), by: "ann")
                == .failure(.malformed("the cards lie face down: name them by position")))
        // Three cards that are not a set are shown in the reason, cost the penalty, and lie face down
        // again where they were.
        let miss = firstNonSet(board)
        let reply = game.claim(.positions(miss, seenRevision: revision), by: "ann")
        let codes = miss.map { board[$0].code }.joined(separator: " ")
        let why = try #require(SetRules.whyNotSet(board[miss[0]], board[miss[1]], board[miss[2]]))
        #expect(reply == .failure(.notSet("turned over \(codes): \(why)")))
        #expect(game.board == board && game.revision == revision)
        #expect(game.score(of: "ann") == -1 && game.wrongClaims == 1)
        // A position named twice is named by its letter, not by the card under it.
        #expect(game.claim(.positions([0, 0, 1]), by: "ann") == .failure(.malformed("a is named twice")))
        // A set, by positions, is taken as in the classic game.
        let positions = set.map { board.firstIndex(of: $0)! }
        let taken = try game.claim(.positions(positions, seenRevision: revision), by: "bob").get()
        #expect(taken.cards == set && game.revision == revision + 1 && game.board.count == 21)
        #expect(positions.allSatisfy { !set.contains(game.board[$0]) })
    }

    /// The first three positions (in order) whose cards are not a set.
    func firstNonSet(_ board: [Card]) -> [Int] {
        for i in board.indices {
            for j in board.indices where j > i {
                for k in board.indices where k > j && !SetReference.isSet(board[i], board[j], board[k]) {
                    return [i, j, k]
                }
            }
        }
        return []
    }

    // MARK: UltraSet-Chain

    @Test func anUltraChainClaimReusesExactlyTwoCards() throws {
        let options = SetGame.Options(mode: .ultrachain)
        var game = try #require(
            (UInt64(0)..<200).lazy.compactMap { seed -> SetGame? in
                var game = SetGame(options: options, seed: seed)
                guard (try? self.claimFirst(&game)) != nil, game.chainCards != nil,
                    !game.possibleClaims.isEmpty,
                    SetRules.allUltraSets(in: game.board).count > 0
                else { return nil }
                return game
            }.first)
        let chain = try #require(game.chainCards)
        #expect(chain == game.takenSets.last?.cards && chain.count == 4)
        func why(_ reused: Int) -> ClaimError {
            .notSet("chain: an UltraSet must reuse exactly two cards of the previous one, not \(reused)")
        }
        // An UltraSet of board cards only reuses none.
        let plain = SetRules.allUltraSets(in: game.board)[0].map { game.board[$0] }
        #expect(game.claim(.cards(plain), by: "ann") == .failure(why(0)))
        #expect(game.claim(.cards(chain), by: "ann") == .failure(why(4)))
        #expect(game.claim(.cards(Array(chain.prefix(3)) + [game.board[0]]), by: "ann") == .failure(why(3)))
        #expect(game.claim(.cards([chain[0]] + Array(game.board.prefix(3))), by: "ann") == .failure(why(1)))
        // The first UltraSet, then four wrong claims.
        #expect(game.wrongClaims == 4 && game.score(of: "ann") == 1 - 4)
        // Two chain cards (by code) and two board cards (by position): accepted, and the new chain.
        let claim = try #require(game.possibleClaims.first)
        let p = try #require(game.board.firstIndex(of: claim[2]))
        let q = try #require(game.board.firstIndex(of: claim[3]))
        let selection = Selection([.card(claim[0]), .position(p), .card(claim[1]), .position(q)])
        let taken = try game.claim(selection, by: "bob").get()
        #expect(taken.cards == [claim[0], claim[2], claim[1], claim[3]])
        #expect(game.chainCards == taken.cards || game.chainCards == nil)
    }

    // MARK: Practice and timed games

    @Test func onlyAPracticeGamePausesAndAPausedGameTakesNoClaims() throws {
        var rated = SetGame(seed: 1)
        #expect(rated.options.isRated && !rated.options.hintsAreFree && !rated.options.allowsPause)
        #expect(throws: SetGame.PauseError.notPractice) { try rated.pause() }
        #expect(!rated.isPaused)

        var practice = SetGame(options: SetGame.Options(isPractice: true), seed: 1)
        #expect(!practice.options.isRated && practice.options.hintsAreFree && practice.options.allowsPause)
        try practice.pause()
        let set = try #require(practice.possibleClaims.first)
        #expect(practice.claim(.cards(set), by: "ann") == .failure(.stale("the game is paused")))
        #expect(practice.score(of: "ann") == 0 && practice.wrongClaims == 0 && practice.state.isPaused)
        #expect(try SetGame(state: practice.state).isPaused)
        try practice.resume()
        #expect(try practice.claim(.cards(set), by: "ann").get().cards == set)
    }

    @Test func theFirstToTheSetsToWinEndsTheGame() throws {
        var game = SetGame(options: SetGame.Options(setsToWin: 3), seed: 2)
        try claimFirst(&game, by: "ann")
        try claimFirst(&game, by: "bob")
        try claimFirst(&game, by: "bob")
        // A wrong claim costs a point but is not a set: ann has 1 set, whatever her score.
        #expect(game.sets(of: "bob") == 2 && !game.isOver && game.ending == nil)
        try claimFirst(&game, by: "ann")
        try claimFirst(&game, by: "ann")
        #expect(game.sets(of: "ann") == 3 && game.isOver)
        #expect(game.ending == .reachedSetsToWin(player: "ann"))
        let next = try #require(game.possibleClaims.first)
        #expect(game.claim(.cards(next), by: "bob") == .failure(.gameOver))
        #expect(try SetGame(state: game.state).ending == .reachedSetsToWin(player: "ann"))
    }

    @Test func aTimedGameEndsWhenTheServerCallsTime() throws {
        var untimed = SetGame(seed: 3)
        #expect(!untimed.isOutOfTime(after: .seconds(1_000_000)))
        untimed.callTime()
        #expect(!untimed.isOver && !untimed.isTimeUp)

        var game = SetGame(options: SetGame.Options(timeLimit: .seconds(300)), seed: 3)
        #expect(!game.isOutOfTime(after: .seconds(299)) && game.isOutOfTime(after: .seconds(300)))
        try claimFirst(&game)
        game.callTime()
        #expect(game.isOver && game.ending == .timeUp && game.isTimeUp)
        let next = try #require(game.possibleClaims.first)
        #expect(game.claim(.cards(next), by: "ann") == .failure(.gameOver))
        #expect(throws: SetGame.PauseError.gameOver) { try game.resume() }
        #expect(try SetGame(state: game.state).ending == .timeUp)
    }

    // MARK: Positions and states

    @Test func positionsPastTheModesLargestBoardNameNothing() throws {
        var ultra9 = SetGame(options: SetGame.Options(mode: .ultra9), seed: 4)
        #expect(
            ultra9.claim(.positions([0, 1, 2, 12]), by: "ann")
                == .failure(.malformed("there is no position m on any board")))
        var mega = SetGame(options: SetGame.Options(mode: .megaset), seed: 4)
        // MegaSet boards may pass z: zv (47) is a position of some board, just not of this one.
        #expect(
            mega.claim(.positions([0, 1, 47]), by: "ann") == .failure(.stale("there is no card at zv now")))
        #expect(
            mega.claim(.positions([0, 1, 48]), by: "ann")
                == .failure(.malformed("there is no position zw on any board")))
        // The first four modes keep their limit.
        var normal = SetGame(seed: 4)
        #expect(
            normal.claim(.positions([0, 1, 23]), by: "ann")
                == .failure(.malformed("there is no position x on any board")))
    }

    @Test(arguments: SetMode.allCases)
    func aGameRestoredFromItsStatePlaysOnAsTheLiveOne(mode: SetMode) throws {
        for seed in UInt64(0)..<5 {
            var live = SetGame(options: SetGame.Options(mode: mode), seed: seed)
            while !live.isOver {
                var restored = try SetGame(state: live.state)
                #expect(restored.state == live.state)
                try claimFirst(&live)
                try claimFirst(&restored)
                #expect(restored.state == live.state, "\(mode) seed \(seed)")
            }
        }
    }

    @Test func aStateOfCardsFromAnotherDeckIsRefused() throws {
        var state = SetGame(options: SetGame.Options(mode: .normal), seed: 1).state
        state.board[0] = try Card(anyCode: "1RFTW")
        #expect(throws: SetGame.StateError.self) { try SetGame(state: state) }
        var puzzle = SetGame(options: SetGame.Options(mode: .puzzle), seed: 1).state
        puzzle.foundClaims = [Array(puzzle.board.prefix(3))]
        if !SetReference.isSet(puzzle.board[0], puzzle.board[1], puzzle.board[2]) {
            #expect {
                try SetGame(state: puzzle)
            } throws: { error in
                (error as? SetGame.StateError)?.description == "a found claim is not a claim on the board"
            }
        }
    }
}
