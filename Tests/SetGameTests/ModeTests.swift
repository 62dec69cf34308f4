import SetGame
import SetTestSupport
import Testing

@Suite("Junior mode")
struct JuniorTests {
    let junior = SetGame.Options(mode: .junior)

    @Test func theDeckIsTheTwentySevenSolidCards() {
        for seed in UInt64(0)..<200 {
            let game = SetGame(options: junior, seed: seed)
            #expect(Set(game.board + game.deck) == Set(Card.solid))
            #expect(game.board.count + game.deckCount == 27)
            #expect(game.board.allSatisfy { $0.fill == .solid })
        }
        #expect(SetMode.junior.cardsPerClaim == 3)
    }

    @Test func juniorGamesEndCorrectly() {
        var generator = SeededGenerator(seed: 3)
        for seed in UInt64(0)..<1_000 {
            let (game, _) = playChecked(
                options: junior, seed: seed, byPositions: seed % 2 == 0, choosing: &generator)
            #expect(game.takenSets.count == (27 - game.board.count) / 3)
            #expect(game.takenSets.allSatisfy { $0.cards.allSatisfy { $0.fill == .solid } })
        }
    }

    @Test func aCardOutsideTheJuniorDeckIsStale() throws {
        var game = SetGame(options: junior, seed: 1)
        let striped = try Card(code: "1RHT")
        let set = SetRules.allSets(in: game.board)[0]
        let result = game.claim(.cards([game.board[set[0]], game.board[set[1]], striped]), by: "ann")
        #expect(result == .failure(.stale("1RHT is not on the board")))
        #expect(game.wrongClaims == 0)
    }
}

@Suite("Chain mode")
struct ChainTests {
    let chain = SetGame.Options(mode: .chain)

    /// A chain game after its first set, with a set on the board that reuses no chain card.
    func chainGame() throws -> SetGame {
        for seed in UInt64(0)..<1_000 {
            var game = SetGame(options: chain, seed: seed)
            _ = try game.claim(.positions(SetRules.allSets(in: game.board)[0]), by: "ann").get()
            if game.chainCards != nil, SetRules.containsSet(game.board), !game.possibleClaims.isEmpty {
                return game
            }
        }
        throw ChainSetupError()
    }

    struct ChainSetupError: Error {}

    @Test func theFirstSetIsAnySetAndStartsTheChain() throws {
        var game = SetGame(options: chain, seed: 11)
        #expect(game.chainCards == nil)
        #expect(
            game.possibleClaims.map { Set($0) }
                == SetRules.allSets(in: game.board).map {
                    Set($0.map { game.board[$0] })
                })
        let set = SetRules.allSets(in: game.board)[0].map { game.board[$0] }
        _ = try game.claim(.cards(set), by: "ann").get()
        #expect(game.chainCards == set || game.chainCards == nil)
        #expect(set.allSatisfy { !game.board.contains($0) })
    }

    @Test func aChainSetReusesExactlyOneCard() throws {
        var game = try chainGame()
        let chainCards = try #require(game.chainCards)
        let board = game.board
        // Zero reused cards: a real set on the board is not enough.
        let plain = SetRules.allSets(in: board)[0].map { board[$0] }
        #expect(
            game.claim(.cards(plain), by: "ann")
                == .failure(.notSet("chain: a set must reuse exactly one card of the previous set, not 0")))
        #expect(game.score(of: "ann") == 0 && game.wrongClaims == 1)
        // Two reused cards (and a board card), and all three: refused and penalised.
        #expect(
            game.claim(.cards([chainCards[0], chainCards[1], board[0]]), by: "bob")
                == .failure(.notSet("chain: a set must reuse exactly one card of the previous set, not 2")))
        #expect(
            game.claim(.cards(chainCards), by: "bob")
                == .failure(.notSet("chain: a set must reuse exactly one card of the previous set, not 3")))
        #expect(game.score(of: "bob") == -2 && game.wrongClaims == 3 && game.board == board)
        // One reused card but not a set: the set rule's reason.
        let reused = chainCards[0]
        let x = board[0]
        let y = try #require(board.first { $0 != x && $0 != SetRules.completing(reused, x) })
        #expect(
            game.claim(.cards([reused, x, y]), by: "cat")
                == .failure(.notSet(SetRules.whyNotSet(reused, x, y)!)))
        // One reused card, named by code, and two board cards that complete it: accepted.
        let claim = try #require(game.possibleClaims.first)
        #expect(claim.filter(chainCards.contains) == [claim[0]])
        let taken = try game.claim(.cards(claim), by: "cat").get()
        #expect(taken.cards == claim)
        #expect(game.score(of: "cat") == 0)  // -1 for the wrong claim, +1 for the set
        #expect(game.chainCards == claim || game.chainCards == nil)
    }

    @Test func chainCardsMayBeNamedByCodeAlongsidePositions() throws {
        var game = try chainGame()
        let chainCards = try #require(game.chainCards)
        let claim = try #require(game.possibleClaims.first)
        let p = try #require(game.board.firstIndex(of: claim[1]))
        let q = try #require(game.board.firstIndex(of: claim[2]))
        #expect(chainCards.contains(claim[0]) && !game.board.contains(claim[0]))
        let selection = Selection([.position(p), .card(claim[0]), .position(q)], seenRevision: game.revision)
        let taken = try game.claim(selection, by: "ann").get()
        #expect(taken.cards == [claim[1], claim[0], claim[2]])
    }

    @Test func possibleChainClaimsEqualBruteForce() throws {
        var generator = SeededGenerator(seed: 8)
        for seed in UInt64(0)..<200 {
            var game = SetGame(options: chain, seed: seed)
            while !game.isOver {
                let claims = game.possibleClaims
                if let chainCards = game.chainCards {
                    var expected = Set<Set<Card>>()
                    for r in chainCards {
                        for i in game.board.indices {
                            for j in game.board.indices
                            where j > i && SetReference.isSet(r, game.board[i], game.board[j]) {
                                expected.insert([r, game.board[i], game.board[j]])
                            }
                        }
                    }
                    #expect(Set(claims.map { Set($0) }) == expected)
                    #expect(claims.count == expected.count)
                    #expect(claims.allSatisfy { chainCards.contains($0[0]) })
                } else {
                    #expect(claims.count == SetRules.allSets(in: game.board).count)
                }
                _ = try game.claim(.cards(claims[generator.next(below: claims.count)]), by: "ann").get()
            }
        }
    }

    @Test func chainGamesPlayToTheEnd() {
        var generator = SeededGenerator(seed: 4)
        var chained = 0
        var largestBoard = 0
        for seed in UInt64(0)..<1_000 {
            let (game, boards) = playChecked(
                options: chain, seed: seed, byPositions: seed % 2 == 1, choosing: &generator)
            largestBoard = max(largestBoard, boards.map(\.count).max() ?? 0)
            #expect(game.chainCards == nil)
            // Each chained set took two board cards, each other set three.
            let fromBoard = game.takenSets.indices.map { i in
                i > 0 && game.takenSets[i].cards.contains(where: game.takenSets[i - 1].cards.contains) ? 2 : 3
            }
            #expect(fromBoard.reduce(0, +) + game.board.count == 81)
            chained += fromBoard.filter { $0 == 2 }.count
        }
        #expect(chained > 1_000)
        // Chain boards do pass 21 cards (playChecked checks they never pass maximumChainBoardSize).
        #expect(largestBoard > SetGame.maximumBoardSize)
    }
}

@Suite("Ultra mode")
struct UltraGameTests {
    let ultra = SetGame.Options(mode: .ultra)

    @Test func claimsAreFourCardsThatPairUp() throws {
        var game = SetGame(options: ultra, seed: 3)
        #expect(SetMode.ultra.cardsPerClaim == 4)
        let board = game.board
        #expect(
            game.possibleClaims.map(Set.init)
                == SetRules.allUltraSets(in: board).map { Set($0.map { board[$0] }) })
        let set = SetRules.allSets(in: board).first
        if let set {
            #expect(
                game.claim(.positions(set), by: "ann") == .failure(.malformed("a claim names 4 cards, not 3"))
            )
        }
        let notUltra = try #require(
            (0..<board.count - 3).lazy.map { [$0, $0 + 1, $0 + 2, $0 + 3] }.first {
                !SetRules.isUltraSet($0.map { board[$0] })
            })
        #expect(
            game.claim(.positions(notUltra), by: "ann")
                == .failure(.notSet("no split into two pairs completed by the same card")))
        #expect(game.score(of: "ann") == -1 && game.board == board)
        let claim = try #require(SetRules.allUltraSets(in: board).first)
        let taken = try game.claim(.positions(claim, seenRevision: game.revision), by: "ann").get()
        #expect(taken.cards.count == 4 && SetRules.isUltraSet(taken.cards))
        #expect(game.score(of: "ann") == 0)
    }

    @Test func ultraGamesPlayToTheEnd() {
        var generator = SeededGenerator(seed: 5)
        for seed in UInt64(0)..<500 {
            let (game, _) = playChecked(
                options: ultra, seed: seed, byPositions: seed % 2 == 0, choosing: &generator)
            #expect((81 - game.board.count) % 4 == 0)
            #expect(game.takenSets.count == (81 - game.board.count) / 4)
            #expect(game.takenSets.allSatisfy { $0.cards.count == 4 && SetRules.isUltraSet($0.cards) })
        }
    }
}

/// The questions clients ask the rules instead of answering them themselves: is this a valid claim, and
/// what claims are on this board.
@Suite("Claims by mode")
struct ClaimsByModeTests {
    @Test func aValidClaimHasTheModesSizeAndRule() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<300 {
            let board = randomBoard(4, using: &generator)
            let isSet = SetReference.isSet(board[0], board[1], board[2])
            for mode in [SetMode.normal, .junior, .chain] {
                #expect(mode.isValidClaim(Array(board.prefix(3))) == isSet)
                #expect(!mode.isValidClaim(board))  // four cards are never a claim of three
            }
            let isUltra = SetReference.isUltra(board[0], board[1], board[2], board[3])
            #expect(SetMode.ultra.isValidClaim(board) == isUltra)
            #expect(!SetMode.ultra.isValidClaim(Array(board.prefix(3))))
        }
        #expect(!SetMode.normal.isValidClaim([]))
        let set = cards("1RFS 2GHT 3PEC")
        #expect(SetMode.normal.isValidClaim(set) && !SetMode.normal.isValidClaim([set[0], set[0], set[1]]))
    }

    @Test func theClaimsOnABoardAreTheBruteForceOnes() {
        var generator = SeededGenerator(seed: 12)
        for _ in 0..<200 {
            let board = randomBoard(12, using: &generator)
            let sets = SetReference.allSets(in: board).map { $0.map { board[$0] } }
            #expect(SetMode.normal.claims(on: board, chain: nil) == sets)
            #expect(SetMode.chain.claims(on: board, chain: nil) == sets)
            #expect(SetMode.chain.claims(on: board, chain: []) == sets)
            let ultra = SetReference.allUltraSets(in: board).map { $0.map { board[$0] } }
            #expect(SetMode.ultra.claims(on: board, chain: nil) == ultra)
        }
    }

    /// In chain mode every claim reuses exactly one chain card (first) and takes two from the board.
    @Test func chainClaimsReuseOneChainCard() {
        var generator = SeededGenerator(seed: 13)
        for _ in 0..<200 {
            let all = randomBoard(15, using: &generator)
            let chain = Array(all.prefix(3))
            let board = Array(all.dropFirst(3))
            let claims = SetMode.chain.claims(on: board, chain: chain)
            var expected: [Set<Card>] = []
            for reused in chain {
                for (i, a) in board.enumerated() {
                    for b in board[(i + 1)...] where SetReference.isSet(reused, a, b) {
                        expected.append([reused, a, b])
                    }
                }
            }
            #expect(Set(claims.map { Set($0) }) == Set(expected))
            #expect(claims.count == expected.count)
            for claim in claims {
                #expect(chain.contains(claim[0]) && board.contains(claim[1]) && board.contains(claim[2]))
                #expect(SetMode.chain.isValidClaim(claim))
            }
        }
    }
}
