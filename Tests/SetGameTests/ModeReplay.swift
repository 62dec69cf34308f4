import SetGame
import SetTestSupport
import Testing

/// What one replayed game went through.
struct ReplayTally {
    /// Boards compared with the reference (one per claim or deal, and the first).
    var boards = 0
    /// Claims taken.
    var claims = 0
    /// Wrong claims tried and refused.
    var refused = 0
}

/// Plays `mode` from `seed` to the end, choosing each claim among the reference's with `generator`, and
/// checks `SetGame` against `ModeReference.Game` (dealt from the same order of the deck) at every step:
/// the board, the deck, the chain, the found claims, the revision, the claims on the board (as sets and
/// as a count, so a claim listed twice shows), `hasClaim`, `isOver`, and the promise that a claim is on the
/// board while the deck has cards. With `mistakes`, a claim the reference refuses is tried first now and
/// then, and must be refused as not valid, costing the penalty and changing nothing else.
@discardableResult
func replayAgainstReference(
    _ mode: SetMode, seed: UInt64, mistakes: Bool = true, choosing generator: inout SeededGenerator
) -> ReplayTally {
    var game = SetGame(options: SetGame.Options(mode: mode), seed: seed)
    let rules = ModeReference.rules(mode)
    #expect(
        Set(game.board + game.deck) == Set(rules.deck)
            && game.board.count + game.deckCount == rules.deck.count)
    var reference = ModeReference.Game(mode: mode, deck: game.board + game.deck)
    var tally = ReplayTally()
    while true {
        tally.boards += 1
        let context = "\(mode) seed \(seed) step \(tally.claims)"
        #expect(game.board == reference.board, "\(context): the board")
        #expect(game.deck == reference.deck, "\(context): the deck")
        #expect(game.chainCards == reference.chain, "\(context): the chain")
        #expect(game.foundClaims == reference.found, "\(context): the found claims")
        #expect(game.revision == 1 + reference.changes, "\(context): the revision")
        #expect(game.board.count <= mode.maximumBoardSize, "\(context): \(game.board.count) cards")
        let claims = reference.claims
        let possible = game.possibleClaims
        #expect(Set(possible.map(Set.init)) == claims, "\(context): the claims")
        #expect(possible.count == claims.count, "\(context): \(possible.count) claims, not \(claims.count)")
        #expect(possible.allSatisfy { $0.count == rules.claimSize })
        #expect(game.hasClaim == !claims.isEmpty, "\(context): hasClaim")
        #expect(game.isOver == reference.isOver, "\(context): isOver")
        if game.deckCount > 0 { #expect(!claims.isEmpty, "\(context): no claim while the deck has cards") }
        if let hint = game.hint { #expect(possible.contains { $0.contains(hint) }) }
        if game.board != reference.board || reference.isOver || claims.isEmpty { break }

        if mistakes, generator.next(below: 3) == 0 {
            tally.refused += tryWrongClaim(on: &game, reference: reference, using: &generator)
        }
        let ordered = claims.map { $0.sorted() }.sorted { $0.lexicographicallyPrecedes($1) }
        var claim = ordered[generator.next(below: ordered.count)]
        for i in claim.indices.reversed() { claim.swapAt(i, generator.next(below: i + 1)) }
        let selection = selectionNaming(claim, on: game, using: &generator)
        let before = game
        guard case .success(let taken) = game.claim(selection, by: "p") else {
            Issue.record(
                "\(context): the valid claim \(claim) was refused: \(game.claim(selection, by: "q"))")
            break
        }
        tally.claims += 1
        #expect(taken.cards == claim && taken.player == "p" && taken.revision == game.revision)
        #expect(game.score(of: "p") == before.score(of: "p") + 1)
        reference.take(claim) { expected in
            // Shuffle: the board after the claim is a shuffle of the one the rules leave.
            let arranged = Array(game.board.prefix(expected.count))
            #expect(arranged.sorted() == expected.sorted(), "\(context): the shuffled board")
            return arranged
        }
    }
    #expect(game.isOver && game.ending == .noClaimsLeft)
    #expect(game.takenSets.count == tally.claims)
    #expect(game.wrongClaims == tally.refused)
    #expect(game.score(of: "p") == tally.claims - tally.refused)
    return tally
}

/// Names `claim` as a player could: by positions seen at the current revision (always in memory, where
/// the cards are face down), by codes, or mixed; a chain card, off the board, always by its code.
func selectionNaming(_ claim: [Card], on game: SetGame, using generator: inout SeededGenerator) -> Selection {
    let style = game.options.mode.dealsFaceDown ? 0 : generator.next(below: 3)
    let picks = claim.map { card -> Selection.Pick in
        guard let position = game.board.firstIndex(of: card) else { return .card(card) }
        switch style {
        case 0: return .position(position)
        case 1: return .card(card)
        default: return generator.next(below: 2) == 0 ? .position(position) : .card(card)
        }
    }
    return Selection(picks, seenRevision: game.revision)
}

/// Tries a claim of board cards (and chain cards) that the reference refuses; returns 1 if one was tried
/// (it must be refused as not valid, with the penalty, the board unchanged), 0 if none was found.
func tryWrongClaim(
    on game: inout SetGame, reference: ModeReference.Game, using generator: inout SeededGenerator
) -> Int {
    let mode = game.options.mode
    let pool = game.board + (game.chainCards ?? [])
    let size = mode.cardsPerClaim
    guard pool.count >= size else { return 0 }
    for _ in 0..<10 {
        var cards = pool
        for i in 0..<size { cards.swapAt(i, i + generator.next(below: cards.count - i)) }
        let wrong = Array(cards.prefix(size))
        guard !ModeReference.isValidClaim(wrong, mode: mode, chain: game.chainCards) else { continue }
        let before = game.state
        let result = game.claim(selectionNaming(wrong, on: game, using: &generator), by: "p")
        guard case .failure(.notSet(let why)) = result else {
            Issue.record("\(mode) seed \(game.seed): \(wrong) was not refused as wrong: \(result)")
            return 0
        }
        #expect(!why.isEmpty)
        if mode.dealsFaceDown {
            #expect(why.hasPrefix("turned over " + wrong.map(\.code).joined(separator: " ")))
        }
        #expect(game.board == before.board && game.deck == before.deck && game.revision == before.revision)
        #expect(game.wrongClaims == before.wrongClaims + 1)
        return 1
    }
    return 0
}
