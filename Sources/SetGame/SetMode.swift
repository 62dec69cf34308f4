/// A variant of SET, chosen when a room is created.
///
/// A mode is a deck, a kind of claim (``SetKind``), how many cards are dealt, and a flow: the classic one
/// (take the claim, refill, deal three more while no claim is possible) or one of chain, puzzle, shuffle
/// and memory. The modes after `ultra` follow the rules of Set with Forks; rooms offer every one.
public enum SetMode: String, CaseIterable, Sendable {
    /// The classic game: 81 cards, claims of three.
    case normal
    /// The 27 solid cards only, for beginners.
    case junior
    /// Every set after the first must reuse exactly one card of the previous set.
    case chain
    /// Claims of four cards that split into two pairs completed by the same card.
    case ultra
    /// UltraSets where every one after the first reuses exactly two cards of the previous one.
    case ultrachain
    /// UltraSets with 9 cards dealt instead of 12.
    case ultra9
    /// Sets of three from 243 cards with a fifth attribute, the border; 16 cards dealt.
    case megaset
    /// Claims of six cards: three pairs whose missing third cards form a set; 10 cards dealt.
    case ghostset
    /// Claims of four from 256 cards with four values in each attribute; 15 cards dealt.
    case fourSet = "4set"
    /// 4Set with the 64 solid cards of four values; 11 cards dealt.
    case fourSetJunior = "4setjr"
    /// Every set on a board must be found before the board moves on to the next.
    case puzzle
    /// The board's cards change places after each set.
    case shuffle
    /// The cards lie face down; a claim turns three over, and a miss turns them back.
    case memory

    /// The modes a room may be created with: every one, now that the protocol shows their cards
    /// (MegaSet's and 4Set's codes, memory's `??`) and their flows (puzzle's `FOUND`, shuffle's new
    /// revision), in the order `STATS` lists them.
    public static let offered: [SetMode] = allCases

    /// Whether rooms may be created with this mode (see ``offered``).
    public var isOffered: Bool { Self.offered.contains(self) }

    /// The kind of claim the mode plays.
    public var kind: SetKind {
        switch self {
        case .normal, .junior, .chain, .megaset, .puzzle, .shuffle, .memory: return .set
        case .ultra, .ultrachain, .ultra9: return .ultraSet
        case .ghostset: return .ghostSet
        case .fourSet, .fourSetJunior: return .fourSet
        }
    }

    /// How many cards one claim names.
    public var cardsPerClaim: Int { kind.cardsPerClaim }

    /// The cards this mode plays with, in index order before shuffling.
    public var cards: [Card] {
        switch self {
        case .junior: return Card.solid
        case .megaset: return Card.bordered
        case .fourSet: return Card.fourValued
        case .fourSetJunior: return Card.fourValuedSolid
        case .normal, .chain, .ultra, .ultrachain, .ultra9, .ghostset, .puzzle, .shuffle, .memory:
            return Card.all
        }
    }

    /// How many cards are dealt, and the board is refilled to after a claim while the deck lasts.
    public var boardSize: Int {
        switch self {
        case .normal, .junior, .chain, .ultra, .ultrachain, .puzzle, .shuffle: return 12
        case .ultra9: return 9
        case .megaset: return 16
        case .ghostset: return 10
        case .fourSet: return 15
        case .fourSetJunior: return 11
        // Memory deals enough that a set is always there to be found: any 21 cards hold one.
        case .memory: return 21
        }
    }

    /// How many more cards are dealt at a time while no claim is possible: three, in every mode, as in
    /// the classic game.
    public var cardsPerDeal: Int { 3 }

    /// The most cards a board of this mode ever shows. A board grows only while it holds no claim, so
    /// this is the largest claim-free board plus one deal (or the chain modes' limit plus one deal, or
    /// the board size when that is larger): normal, junior, puzzle, shuffle and memory 21, as a board of
    /// 21 always holds a set (the largest set-free collection has 20 cards, Pellegrino 1971, and boards of
    /// these modes are multiples of three until the deck runs out); ultra and ultra9 12 (the largest
    /// UltraSet-free collection has 9 cards); chain and ultrachain 23 (see
    /// ``SetGame/maximumChainBoardSize``); megaset 48 (the largest set-free collection of MegaSet's cards
    /// has 45, Edel, Ferret, Landjev and Storme 2002); ghostset 15 (the largest GhostSet-free collection
    /// has 12); 4set 21 (the largest 4Set-free collection of its cards has 18) and 4setjr 12 (9). The
    /// sizes without a citation were found by exhaustive search: `modes-sim --largest-claim-free`.
    public var maximumBoardSize: Int {
        switch self {
        case .normal, .junior, .puzzle, .shuffle, .memory: return SetGame.maximumBoardSize
        case .chain, .ultrachain: return SetGame.maximumChainBoardSize
        case .ultra, .ultra9: return 12
        case .megaset: return 48
        case .ghostset: return 15
        case .fourSet: return 21
        case .fourSetJunior: return 12
        }
    }

    /// How many cards of the previous claim every claim after the first must reuse: one in chain, two
    /// in ultrachain, `nil` in the modes without a chain.
    public var chainReuse: Int? {
        switch self {
        case .chain: return 1
        case .ultrachain: return 2
        default: return nil
        }
    }

    /// Whether a claim leaves the board as it is, the board moving on to the next only once every claim
    /// on it was found (puzzle).
    public var isPuzzle: Bool { self == .puzzle }

    /// Whether the board's cards change places after each claim (shuffle).
    public var shufflesAfterClaim: Bool { self == .shuffle }

    /// Whether the cards lie face down, so that a claim names positions and turns them over (memory).
    public var dealsFaceDown: Bool { self == .memory }

    /// Returns whether `cards` are a claim this mode accepts by its card rule: a set, an UltraSet, a
    /// GhostSet or a 4Set (whether they are in the mode's deck is the game's to say). The chain modes'
    /// rule (reuse cards of the previous claim) is about the board, not the cards, so it is left to
    /// ``claims(on:chain:)``; so is puzzle's (a set found once is not found again).
    public func isValidClaim(_ cards: [Card]) -> Bool {
        cards.count == cardsPerClaim && kind.isValid(cards)
    }

    /// Says in words why `cards` are not a claim by this mode's card rule (see ``isValidClaim(_:)``), or
    /// returns `nil` when they are one.
    public func whyNotValid(_ cards: [Card]) -> String? {
        kind.whyNotValid(cards)
    }

    /// Every valid claim on `board`, as lists of cards: the mode's kind of claim, and in the chain modes,
    /// while `chain` holds the previous claim, only those that reuse exactly ``chainReuse`` of its cards
    /// (those first, in `chain`'s order, then board cards in board order). `nil` or empty `chain` means
    /// any claim goes.
    public func claims(on board: [Card], chain: [Card]?) -> [[Card]] {
        func cards(_ positions: [[Int]]) -> [[Card]] { positions.map { $0.map { board[$0] } } }
        // Sets and UltraSets, the claims of most modes, go straight to cards: one array per claim, not a
        // list of positions first.
        func sets() -> [[Card]] {
            var claims: [[Card]] = []
            SetRules.forEachSet(in: board) { i, j, k in
                claims.append([board[i], board[j], board[k]])
                return true
            }
            return claims
        }
        func ultraSets() -> [[Card]] {
            SetRules.sortedUltraSets(in: board).map { [board[$0.0], board[$0.1], board[$0.2], board[$0.3]] }
        }
        switch self {
        case .normal, .junior, .megaset, .puzzle, .shuffle, .memory:
            return sets()
        case .ultra, .ultra9:
            return ultraSets()
        case .ghostset:
            return cards(GhostSetRules.allGhostSets(in: board))
        case .fourSet, .fourSetJunior:
            return cards(FourSetRules.allFourSets(in: board))
        case .chain:
            guard let chain, !chain.isEmpty else { return sets() }
            var position = [Int](repeating: -1, count: 81)
            for (i, card) in board.enumerated() { position[card.index] = i }
            var claims: [[Card]] = []
            for reused in chain {
                for (i, card) in board.enumerated() {
                    let third = SetRules.completing(reused, card)
                    if position[third.index] > i { claims.append([reused, card, third]) }
                }
            }
            return claims
        case .ultrachain:
            guard let chain, !chain.isEmpty else { return ultraSets() }
            return Self.chainedUltraSets(on: board, chain: chain)
        }
    }

    /// The UltraSets made of two cards of `chain` (first, in `chain`'s order) and two of `board`.
    ///
    /// For each two chain cards p, q and board card a, each of the three ways to pair the four cards
    /// settles the fourth: (p q)(a b) needs b to complete a to p and q's missing card; (p a)(q b) needs b
    /// to complete q to p and a's; (p b)(q a) needs b to complete p to q and a's.
    static func chainedUltraSets(on board: [Card], chain: [Card]) -> [[Card]] {
        var position = [Int](repeating: -1, count: 81)
        for (i, card) in board.enumerated() { position[card.index] = i }
        var claims: [[Card]] = []
        for x in chain.indices {
            for y in chain.indices where y > x {
                let (p, q) = (chain[x], chain[y])
                let chainGhost = SetRules.completing(p, q)
                for (i, a) in board.enumerated() {
                    let candidates = [
                        SetRules.completing(a, chainGhost),
                        SetRules.completing(q, SetRules.completing(p, a)),
                        SetRules.completing(p, SetRules.completing(q, a)),
                    ]
                    var seen: [Card] = []
                    for b in candidates where position[b.index] > i && !seen.contains(b) {
                        seen.append(b)
                        claims.append([p, q, a, b])
                    }
                }
            }
        }
        return claims
    }
}

/// The kinds of claim the modes play: what cards make one, and how many.
public enum SetKind: String, CaseIterable, Sendable {
    /// Three cards, each attribute all the same or all different.
    case set
    /// Four cards that split into two pairs completed by the same card.
    case ultraSet
    /// Six cards that split into three pairs whose missing cards form a set.
    case ghostSet
    /// Four cards of four values, each attribute all the same, all different or two pairs.
    case fourSet

    /// How many cards one claim names.
    public var cardsPerClaim: Int {
        switch self {
        case .set: return 3
        case .ultraSet, .fourSet: return 4
        case .ghostSet: return 6
        }
    }

    /// The kind's name in the rules: "set", "UltraSet", "GhostSet", "4Set".
    public var name: String {
        switch self {
        case .set: return "set"
        case .ultraSet: return "UltraSet"
        case .ghostSet: return "GhostSet"
        case .fourSet: return "4Set"
        }
    }

    /// Returns whether `cards` are a claim of this kind.
    public func isValid(_ cards: [Card]) -> Bool {
        switch self {
        case .set: return cards.count == 3 && SetRules.isSet(cards[0], cards[1], cards[2])
        case .ultraSet: return SetRules.isUltraSet(cards)
        case .ghostSet: return GhostSetRules.isGhostSet(cards)
        case .fourSet: return FourSetRules.isFourSet(cards)
        }
    }

    /// Says in words why `cards` are not a claim of this kind, or returns `nil` when they are one.
    public func whyNotValid(_ cards: [Card]) -> String? {
        // Most claims are valid: the table look-ups of `isValid` settle them before any words are made.
        if isValid(cards) { return nil }
        guard cards.count == cardsPerClaim else {
            return "a \(name) has \(cardsPerClaim) cards, not \(cards.count)"
        }
        switch self {
        case .set: return SetRules.whyNotSet(cards[0], cards[1], cards[2])
        case .ultraSet:
            return SetRules.isUltraSet(cards) ? nil : "no split into two pairs completed by the same card"
        case .ghostSet: return GhostSetRules.whyNotGhostSet(cards)
        case .fourSet: return FourSetRules.whyNotFourSet(cards)
        }
    }
}
