import SetGame
import Testing

/// What `scripts/fuzz.sh game` (Fuzz/GameFuzzer.swift) pinned down in the game core.
///
/// The game target found no failure in SetGame or MatchismoGame. Its one failing input was a Matchismo
/// game whose last choice made the last match: the fuzzer's model checked "is the game over?" after the
/// choice instead of before, and expected `gameOver` for a choice the game rightly accepted. These tests
/// keep that edge, in the order of checks the fixed model uses.
@Suite("Fuzz regressions: game")
struct GameFuzzRegressionTests {
    /// Plays a one-player Matchismo game to the end, always turning a card that matches one already face
    /// up, and returns the game and the last choice.
    static func playToTheEnd(seed: UInt64) -> (MatchismoGame, MatchismoGame.Choice?) {
        var game = MatchismoGame(matchCount: 2, seed: seed)
        game.addPlayer("ann")
        var last: MatchismoGame.Choice?
        var steps = 0
        while !game.isOver, steps < 200 {
            steps += 1
            let open = game.slots.indices.filter { !game.slots[$0].isMatched }
            let up = open.first { game.slots[$0].isFaceUp }
            let pick: Int
            if let up {
                let card = game.slots[up].card
                pick =
                    open.first { i in
                        i != up
                            && (game.slots[i].card.rank == card.rank || game.slots[i].card.suit == card.suit)
                    } ?? open.first { $0 != up }!
            } else {
                // Start with a card that has a partner, so the game ends by matching.
                pick =
                    open.first { i in
                        open.contains { j in
                            j != i
                                && (game.slots[j].card.rank == game.slots[i].card.rank
                                    || game.slots[j].card.suit == game.slots[i].card.suit)
                        }
                    } ?? open[0]
            }
            guard case .success(let choice) = game.choose(pick, by: "ann", seenRevision: game.revision) else {
                Issue.record("seed \(seed): a choice on a running game was refused")
                break
            }
            last = choice
        }
        return (game, last)
    }

    @Test(arguments: [UInt64(0), 1, 7, 42, 2026])
    func theChoiceThatMakesTheLastMatchScoresAndThenTheGameIsOver(seed: UInt64) throws {
        let (game, last) = Self.playToTheEnd(seed: seed)
        #expect(game.isOver)
        let choice = try #require(last)
        #expect(choice.isMatch, "seed \(seed): the game ended on \(choice.text)")
        #expect(choice.points == -2 + MatchismoGame.matchScore(choice.scored) * MatchismoGame.matchBonus * 2)
        #expect(game.score(of: "ann") == game.history.map(\.points).reduce(0, +))
        #expect(game.revision == 1 + game.history.count)

        // Every choice after that is refused as over, before any other check, and changes nothing.
        var after = game
        for position in [0, 29, 30, -1] {
            for player in ["ann", "bob"] {
                #expect(after.choose(position, by: player) == .failure(.gameOver))
                #expect(after.choose(position, by: player, seenRevision: 0) == .failure(.gameOver))
            }
        }
        #expect(after.slots == game.slots && after.revision == game.revision)
        #expect(after.history == game.history && after.score(of: "ann") == game.score(of: "ann"))
    }

    @Test func aRunningGameChecksThePlayerThenTheTurnThenTheRevisionThenThePosition() {
        var game = MatchismoGame(matchCount: 2, seed: 3)
        game.addPlayer("ann")
        game.addPlayer("bob")
        #expect(game.choose(99, by: "cy", seenRevision: 0) == .failure(.notPlaying))
        #expect(game.choose(99, by: "bob", seenRevision: 0) == .failure(.notYourTurn("ann")))
        #expect(game.choose(99, by: "ann", seenRevision: 0) == .failure(.stale(0, 1)))
        #expect(game.choose(99, by: "ann", seenRevision: 1) == .failure(.noSuchPosition(99)))
        #expect(game.revision == 1 && game.history.isEmpty)
    }
}
