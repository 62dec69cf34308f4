import SetGame
import Testing

@Suite("Games of SET")
struct SetGameTests {
    @Test func thousandsOfGamesByCardPlayToTheEnd() {
        var generator = SeededGenerator(seed: 1)
        for seed in UInt64(0)..<1_500 {
            let (game, _) = playChecked(seed: seed, byPositions: false, choosing: &generator)
            #expect((81 - game.board.count) % 3 == 0)
            #expect(game.takenSets.count == (81 - game.board.count) / 3)
        }
    }

    @Test func thousandsOfGamesByPositionPlayToTheEnd() {
        var generator = SeededGenerator(seed: 2)
        for seed in UInt64(10_000)..<11_500 {
            let (game, _) = playChecked(seed: seed, byPositions: true, choosing: &generator)
            #expect(game.takenSets.count == (81 - game.board.count) / 3)
        }
    }

    @Test func aNewGameHasTwelveOrMoreCardsAndASet() {
        for seed in UInt64(0)..<500 {
            let game = SetGame(seed: seed)
            #expect(game.board.count >= 12 && game.board.count <= 21 && game.board.count % 3 == 0)
            #expect(SetRules.containsSet(game.board))
            #expect(!SetRules.containsSet(Array(game.board.dropLast(3))) || game.board.count == 12)
            #expect(game.revision == 1)
            #expect(game.deckCount == 81 - game.board.count)
            #expect(game.scores.isEmpty && game.takenSets.isEmpty && game.wrongClaims == 0)
            #expect(game.chainCards == nil)
            #expect(!game.isOver)
            #expect(game.hint.map { game.possibleClaims.first?.first == $0 } ?? false)
        }
    }

    @Test func theSameSeedReplaysIdentically() {
        for seed in UInt64(0)..<100 {
            var first = SeededGenerator(seed: seed &* 7)
            var second = SeededGenerator(seed: seed &* 7)
            let a = playChecked(seed: seed, byPositions: false, choosing: &first)
            let b = playChecked(seed: seed, byPositions: true, choosing: &second)
            #expect(a.boards == b.boards)
            #expect(a.game.takenSets == b.game.takenSets)
            #expect(a.game.revision == b.game.revision)
            #expect(SetGame(seed: seed).deck == SetGame(seed: seed).deck)
        }
    }

    @Test func differentSeedsDealDifferently() {
        var deals = Set<[Card]>()
        var boards = Set<[Card]>()
        for seed in UInt64(0)..<2_000 {
            let game = SetGame(seed: seed)
            deals.insert(game.board + game.deck)
            boards.insert(game.board)
        }
        #expect(deals.count == 2_000)
        #expect(boards.count == 2_000)
        #expect(SetGame(seed: 0).board != SetGame(seed: 1).board)
        #expect(SetGame(seed: .max).board != SetGame(seed: 0).board)
    }

    @Test func theBoardIsRefilledInPlaceAtTwelveCards() throws {
        var game = try #require(
            (UInt64(0)..<1_000).lazy.map { SetGame(seed: $0) }.first { $0.board.count == 12 })
        let board = game.board
        let deck = game.deck
        let set = try #require(SetRules.allSets(in: board).first)
        let result = game.claim(.positions(set, seenRevision: game.revision), by: "ann")
        #expect(result.map(\.cards) == .success(set.map { board[$0] }))
        for p in 0..<12 {
            if let k = set.firstIndex(of: p) {
                #expect(game.board[p] == deck[k])
            } else {
                #expect(game.board[p] == board[p])
            }
        }
        #expect(Array(game.board.dropFirst(12)) == Array(deck.dropFirst(3).prefix(game.board.count - 12)))
    }

    @Test func aGrownBoardIsCompactedLastCardIntoFirstGap() throws {
        // Find a game that starts with 15 cards, claim a set, and check each card's new place.
        var checked = 0
        for seed in UInt64(0)..<3_000 {
            var game = SetGame(seed: seed)
            guard game.board.count == 15 else { continue }
            let board = game.board
            for set in SetRules.allSets(in: board) {
                var copy = game
                guard case .success = copy.claim(.positions(set), by: "ann") else {
                    Issue.record("seed \(seed): \(set) refused")
                    continue
                }
                // Positions ≥ 12 that are not claimed are the movers, the last one into the first gap.
                var movers = (12..<15).filter { !set.contains($0) }
                var expected = board
                for hole in set where hole < 12 { expected[hole] = board[movers.removeLast()] }
                expected.removeLast(3)
                #expect(Array(copy.board.prefix(12)) == expected, "seed \(seed)")
                checked += 1
            }
            game = SetGame(seed: seed)
        }
        #expect(checked > 10)
        // From 15 cards, a set of two cards below 12 and the card at 13 moves the card at 14 into the
        // first gap and the card at 12 into the second.
        var example = try #require(
            (UInt64(0)..<3_000).lazy.map { SetGame(seed: $0) }.first { game in
                game.board.count == 15 && SetRules.allSets(in: game.board).contains { $0.contains(13) }
            })
        let board = example.board
        let set = SetRules.allSets(in: board).first { $0.contains(13) }!
        _ = example.claim(.positions(set), by: "ann")
        let low = set.filter { $0 < 12 }
        let stayers = (12..<15).filter { !set.contains($0) }
        #expect(low.count == 2 && stayers.count == 2)
        #expect(example.board[low[0]] == board[stayers[1]])
        #expect(example.board[low[1]] == board[stayers[0]])
    }

    @Test func revisionGoesUpOnEveryChangeAndOnlyThen() throws {
        var game = SetGame(seed: 42)
        var last = game.revision
        var generator = SeededGenerator(seed: 42)
        while !game.isOver {
            let before = game.board
            // A refused claim changes nothing.
            let notSet = (0..<game.board.count).lazy.compactMap { i -> [Int]? in
                let j = (i + 1) % before.count
                let k = (i + 2) % before.count
                return SetRules.isSet(before[i], before[j], before[k]) ? nil : [i, j, k]
            }.first
            if let notSet {
                _ = game.claim(.positions(notSet), by: "bob")
                #expect(game.revision == last && game.board == before)
            }
            _ = game.claim(.positions([0, 1], seenRevision: last), by: "bob")
            #expect(game.revision == last)
            let claims = game.possibleClaims
            let claim = claims[generator.next(below: claims.count)]
            _ = game.claim(.cards(claim), by: "ann")
            #expect(game.revision > last)
            #expect(game.board != before)
            last = game.revision
        }
        _ = game.claim(.positions([0, 1, 2]), by: "ann")
        #expect(game.revision == last)
    }
}

@Suite("Claims")
struct ClaimTests {
    /// A fresh game and a set on its board, by positions.
    func gameWithSet(_ options: SetGame.Options = SetGame.Options(), seed: UInt64 = 7) -> (SetGame, [Int]) {
        let game = SetGame(options: options, seed: seed)
        return (game, SetRules.allSets(in: game.board)[0])
    }

    /// Positions of three board cards that are not a set.
    func notASet(on board: [Card]) -> [Int]? {
        for i in board.indices {
            for j in board.indices where j > i {
                for k in board.indices where k > j && !SetRules.isSet(board[i], board[j], board[k]) {
                    return [i, j, k]
                }
            }
        }
        return nil
    }

    @Test func aValidClaimScoresOne() throws {
        var (game, set) = gameWithSet()
        let cards = set.map { game.board[$0] }
        let taken = try game.claim(.cards(cards.reversed()), by: "ann").get()
        #expect(taken.player == "ann" && taken.cards == cards.reversed())
        #expect(game.score(of: "ann") == 1 && game.scores == ["ann": 1])
        #expect(game.takenSets == [taken])
        #expect(cards.allSatisfy { !game.board.contains($0) && !game.deck.contains($0) })
    }

    @Test func staleByCodeIsNotPenalised() {
        var (game, set) = gameWithSet()
        let board = game.board
        let offBoard = game.deck[0]
        let result = game.claim(.cards([board[set[0]], board[set[1]], offBoard]), by: "ann")
        #expect(result == .failure(.stale("\(offBoard) is not on the board")))
        #expect(game.score(of: "ann") == 0 && game.scores["ann"] == nil)
        #expect(game.wrongClaims == 0 && game.board == board && game.revision == 1)
        // A card that was taken is stale afterwards too.
        let taken = set.map { board[$0] }
        #expect((try? game.claim(.cards(taken), by: "bob").get()) != nil)
        guard case .failure(.stale) = game.claim(.cards(taken), by: "ann") else {
            Issue.record("a taken set claimed again is not stale")
            return
        }
        #expect(game.score(of: "ann") == 0 && game.wrongClaims == 0)
    }

    @Test func staleByRevisionIsNotPenalised() throws {
        var (game, set) = gameWithSet()
        let seen = game.revision
        let board = game.board
        #expect(
            game.claim(.positions(set, seenRevision: seen - 1), by: "ann")
                == .failure(.stale("the board changed since revision \(seen - 1); it is now \(seen)")))
        #expect(game.board == board && game.score(of: "ann") == 0 && game.wrongClaims == 0)
        _ = try game.claim(.positions(set, seenRevision: seen), by: "ann").get()
        // Another player who saw the old board names positions that now hold other cards.
        let next = SetRules.allSets(in: game.board)[0]
        guard case .failure(.stale) = game.claim(.positions(next, seenRevision: seen), by: "bob") else {
            Issue.record("a claim against an old revision is not stale")
            return
        }
        #expect(game.score(of: "bob") == 0 && game.wrongClaims == 0)
        // Without a revision, positions mean the current board.
        _ = try game.claim(.positions(next), by: "bob").get()
        #expect(game.score(of: "bob") == 1)
    }

    @Test func aPositionOffTheBoardIsStale() {
        var (game, _) = gameWithSet()
        let n = game.board.count
        #expect(
            game.claim(.positions([0, 1, n]), by: "ann")
                == .failure(.stale("there is no card at \(SetGame.positionName(n)) now")))
        #expect(game.wrongClaims == 0 && game.score(of: "ann") == 0)
    }

    @Test func aWrongSetCostsThePenalty() {
        var (game, _) = gameWithSet()
        let board = game.board
        let wrong = notASet(on: board)!
        let reason = SetRules.whyNotSet(board[wrong[0]], board[wrong[1]], board[wrong[2]])!
        #expect(game.claim(.positions(wrong), by: "ann") == .failure(.notSet(reason)))
        #expect(game.score(of: "ann") == -1 && game.wrongClaims == 1)
        #expect(game.board == board && game.revision == 1)
        #expect(game.claim(.cards(wrong.map { board[$0] }), by: "ann") == .failure(.notSet(reason)))
        #expect(game.score(of: "ann") == -2 && game.wrongClaims == 2)
    }

    @Test func penaltyZeroCostsNothing() {
        var (game, _) = gameWithSet(SetGame.Options(wrongClaimPenalty: 0))
        let wrong = notASet(on: game.board)!
        guard case .failure(.notSet) = game.claim(.positions(wrong), by: "ann") else {
            Issue.record("a wrong claim was not refused as not a set")
            return
        }
        #expect(game.score(of: "ann") == 0 && game.wrongClaims == 1)
    }

    @Test func malformedClaims() {
        var (game, set) = gameWithSet()
        let board = game.board
        let a = board[set[0]]
        #expect(
            game.claim(.positions([0, 1]), by: "ann") == .failure(.malformed("a claim names 3 cards, not 2")))
        #expect(
            game.claim(.positions([0, 1, 2, 3]), by: "ann")
                == .failure(.malformed("a claim names 3 cards, not 4")))
        #expect(game.claim(.cards([]), by: "ann") == .failure(.malformed("a claim names 3 cards, not 0")))
        #expect(
            game.claim(.cards([a, a, board[set[1]]]), by: "ann")
                == .failure(.malformed("\(a) is named twice")))
        #expect(
            game.claim(.positions([set[0], set[1], set[0]]), by: "ann")
                == .failure(.malformed("\(a) is named twice")))
        // The same card by position and by code.
        #expect(
            game.claim(Selection([.position(set[0]), .card(a), .position(set[1])]), by: "ann")
                == .failure(.malformed("\(a) is named twice")))
        #expect(game.score(of: "ann") == 0 && game.wrongClaims == 0 && game.board == board)
        // A mix of positions and codes that is a set is fine.
        let mixed = Selection([.card(board[set[2]]), .position(set[0]), .position(set[1])])
        #expect((try? game.claim(mixed, by: "ann").get())?.cards == [board[set[2]], a, board[set[1]]])
    }

    @Test func scoresAddUp() {
        var game = SetGame(seed: 99)
        var generator = SeededGenerator(seed: 99)
        let players = ["ann", "bob", "cat"]
        var expected: [String: Int] = [:]
        var wrong = 0
        while !game.isOver {
            let player = players[generator.next(below: players.count)]
            if generator.next(below: 3) == 0, let wrongClaim = notASet(on: game.board) {
                _ = game.claim(.positions(wrongClaim), by: player)
                expected[player, default: 0] -= 1
                wrong += 1
            } else {
                let claims = game.possibleClaims
                _ = game.claim(.cards(claims[generator.next(below: claims.count)]), by: player)
                expected[player, default: 0] += 1
            }
        }
        #expect(game.scores == expected)
        #expect(game.wrongClaims == wrong)
        #expect(game.scores.values.reduce(0, +) == game.takenSets.count - wrong)
        for player in players {
            #expect(game.takenSets.filter { $0.player == player }.count - game.score(of: player) >= 0)
        }
    }

    @Test func afterTheEndEveryClaimIsGameOver() {
        var generator = SeededGenerator(seed: 5)
        var (game, _) = playChecked(seed: 5, byPositions: false, choosing: &generator)
        let board = game.board
        #expect(game.isOver)
        #expect(game.claim(.positions([0, 1, 2]), by: "ann") == .failure(.gameOver))
        #expect(game.claim(.cards(Array(board.prefix(3))), by: "ann") == .failure(.gameOver))
        #expect(
            game.claim(.positions([0]), by: "ann") == .failure(.malformed("a claim names 3 cards, not 1")))
        #expect(game.score(of: "ann") == 0 && game.wrongClaims == 0 && game.board == board)
        #expect(ClaimError.gameOver.description == "the game is over")
    }

    @Test func positionNames() {
        #expect(SetGame.positionName(0) == "a" && SetGame.positionName(25) == "z")
        #expect(SetGame.positionName(26) == "za" && SetGame.positionName(29) == "zd")
        #expect(SetGame.positionName(52) == "#52")
        #expect(SetGame.position(named: "a") == 0 && SetGame.position(named: "U") == 20)
        #expect(SetGame.position(named: "") == nil && SetGame.position(named: "ab") == nil)
        #expect(SetGame.position(named: "1") == nil && SetGame.position(named: "z1") == nil)
        #expect(SetGame.position(named: "ZB") == 27 && SetGame.position(named: "zzz") == nil)
        for p in 0..<52 { #expect(SetGame.position(named: SetGame.positionName(p)) == p) }
    }
}
