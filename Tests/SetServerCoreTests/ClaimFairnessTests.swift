import SetGame
import SetTestSupport
import Testing

/// Claims are judged on the cards the player saw: stale only when a named card changed under them, the
/// player's own mistakes before staleness, and the end of the game before everything else.
@Suite struct ClaimFairnessTests {
    @Test func aClaimForTheBoardBeforeNewIsStaleJustAfterIt() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "r")
        let old = try #require(BoardView.last(in: join.lines))
        let nonSet = try #require(old.nonSet)
        let restarted = try ann.request("NEW")
        #expect(restarted.isOK("NEW"), "\(restarted)")
        // Aimed at the old deal, without @rev, a moment after the new one: stale, free.
        let late = try ann.request(old.claim(nonSet, withRevision: false))
        #expect(late.error == .stale, "\(late)")
        #expect(!late.lines.contains { $0.hasPrefix("WRONG") })
        // A second later the new board is the one the player sees.
        server.advance(by: 1.5)
        let fresh = try #require(BoardView.last(in: restarted.lines))
        let judged = try ann.request(fresh.claim(try #require(fresh.nonSet), withRevision: false))
        #expect(judged.error == .notSet, "\(judged)")
    }

    @Test func positionsWhoseCardsDidNotChangeAreJudgedRightAfterASet() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "r")
        let (bob, _) = try server.player("bob", room: "r")
        _ = ann.readAvailable()
        let board = try #require(BoardView.last(in: join.lines))
        let set = try #require(board.sets.first)
        let taken = try ann.request(board.claim(set))
        try #require(taken.isOK("CHOOSE"))
        let after = try #require(BoardView.last(in: taken.lines))
        // Slots the set did not touch hold the same cards: bob named what he saw, and is judged.
        let untouched = board.cards.indices.filter { !set.contains($0) && after.cards[$0] == board.cards[$0] }
        let claim = try #require(
            SetReference.allSets(in: after.cards).first { $0.allSatisfy(untouched.contains) }
                .map { after.claim($0, withRevision: false) } ?? untouchedNonSet(untouched, after))
        let judged = try bob.request(claim)
        #expect(judged.error != .stale, "\(claim): \(judged)")
        // A slot whose card just changed makes it stale.
        let changed = set[0]
        let others = untouched.prefix(2)
        let stale = try bob.request(after.claim([changed] + others, withRevision: false))
        #expect(stale.error == .stale, "\(stale)")
    }

    private func untouchedNonSet(_ untouched: [Int], _ board: BoardView) -> String? {
        for i in untouched {
            for j in untouched where j > i {
                for k in untouched
                where k > j && !SetRules.isSet(board.cards[i], board.cards[j], board.cards[k]) {
                    return board.claim([i, j, k], withRevision: false)
                }
            }
        }
        return nil
    }

    @Test func mistakesComeBeforeStalenessAndTheEndBeforeEverything() throws {
        let server = EmbeddedServer { $0.seed = 3 }
        let (ann, join) = try server.named("ann")
        let created = try ann.request("JOIN r mode=junior")
        try #require(created.isOK("JOIN"))
        _ = join
        let board = try #require(BoardView.last(in: created.lines))
        // Named twice, or a position no board has: ARGS, whatever the revision.
        #expect(try ann.request("CHOOSE a a b @1").error == .args)
        #expect(try ann.request("CHOOSE a b zz @1").error == .args)
        // A revision the board has not reached: ARGS, saying so.
        let future = try ann.request("CHOOSE a b c @\(board.revision + 5)")
        #expect(future.error == .args && future.final.contains("no revision"), "\(future)")
        // Play junior to the end, then claim on the empty or final board: OVER.
        let (_, lastReply) = try ann.playToTheEnd(from: created.lines)
        let final = try #require(BoardView.last(in: lastReply.lines))
        // The loser of the last set, naming its cards, was late, not wrong.
        let setLine = try #require(lastReply.lines.first { $0.hasPrefix("SET ann ") })
        let lastSet = setLine.split(separator: " ").dropFirst(2).joined(separator: " ")
        #expect(try ann.request("CHOOSE " + lastSet).error == .stale)
        server.advance(by: 1.5)
        #expect(try ann.request("CHOOSE a b c").error == .over)
        #expect(try ann.request("CHOOSE a b c @\(final.revision)").error == .over)
    }
}
