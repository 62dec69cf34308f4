import SetGame

/// Every mode's rules and flow written from the rules (Set with Forks' help page and protocol.md's
/// "More ways to play"), not from `SetGame`: what each mode deals and what its claims are, the brute-force
/// list of the claims on a board, and a reference game that deals, takes claims and moves boards on as
/// the rules say, for `SetGame` to be replayed against, step by step.
public enum ModeReference {
    /// How a mode goes on after a claim.
    public enum Flow: Sendable {
        /// The claimed cards leave and the board is refilled.
        case classic
        /// The claim is marked found; the board leaves whole once every claim on it was found.
        case puzzle
        /// As classic, then "all cards on the board are shuffled".
        case shuffle
        /// As classic, with the cards face down (a claim names positions).
        case memory
    }

    /// What the rules say of one mode.
    public struct Rules: Sendable {
        /// The cards it plays with.
        public var deck: [Card]
        /// How many cards are dealt and refilled to.
        public var dealt: Int
        /// How many cards a claim has.
        public var claimSize: Int
        /// How many cards of the previous claim a claim reuses (0: no chain).
        public var chainReuse: Int
        /// What comes after a claim.
        public var flow: Flow
        /// The rule of a claim, of `claimSize` cards.
        public var isClaim: @Sendable ([Card]) -> Bool
    }

    /// Each mode's rules, from the help page's descriptions (junior's 12 cards are ours: the page deals 9).
    public static func rules(_ mode: SetMode) -> Rules { table[mode]! }

    /// The rules of every mode, written out once.
    private static let table = Dictionary(uniqueKeysWithValues: SetMode.allCases.map { ($0, makeRules($0)) })

    /// The rules of `mode`.
    private static func makeRules(_ mode: SetMode) -> Rules {
        let classic = VariantReference.classicDeck
        let set: @Sendable ([Card]) -> Bool = { VariantReference.isSet($0) }
        let ultra: @Sendable ([Card]) -> Bool = { VariantReference.isUltraSet($0) }
        let four: @Sendable ([Card]) -> Bool = { VariantReference.isFourSet($0) }
        switch mode {
        case .normal:
            return Rules(deck: classic, dealt: 12, claimSize: 3, chainReuse: 0, flow: .classic, isClaim: set)
        case .junior:
            let solid = classic.filter { $0.fill == .solid }
            return Rules(deck: solid, dealt: 12, claimSize: 3, chainReuse: 0, flow: .classic, isClaim: set)
        case .chain:
            return Rules(deck: classic, dealt: 12, claimSize: 3, chainReuse: 1, flow: .classic, isClaim: set)
        case .ultra:
            return Rules(
                deck: classic, dealt: 12, claimSize: 4, chainReuse: 0, flow: .classic, isClaim: ultra)
        case .ultrachain:
            return Rules(
                deck: classic, dealt: 12, claimSize: 4, chainReuse: 2, flow: .classic, isClaim: ultra)
        case .ultra9:
            return Rules(deck: classic, dealt: 9, claimSize: 4, chainReuse: 0, flow: .classic, isClaim: ultra)
        case .megaset:
            return Rules(
                deck: VariantReference.megasetDeck, dealt: 16, claimSize: 3, chainReuse: 0, flow: .classic,
                isClaim: set)
        case .ghostset:
            return Rules(
                deck: classic, dealt: 10, claimSize: 6, chainReuse: 0, flow: .classic,
                isClaim: { VariantReference.isGhostSet($0) })
        case .fourSet:
            return Rules(
                deck: VariantReference.fourSetDeck, dealt: 15, claimSize: 4, chainReuse: 0, flow: .classic,
                isClaim: four)
        case .fourSetJunior:
            return Rules(
                deck: VariantReference.fourSetJuniorDeck, dealt: 11, claimSize: 4, chainReuse: 0,
                flow: .classic,
                isClaim: four)
        case .puzzle:
            return Rules(deck: classic, dealt: 12, claimSize: 3, chainReuse: 0, flow: .puzzle, isClaim: set)
        case .shuffle:
            return Rules(deck: classic, dealt: 12, claimSize: 3, chainReuse: 0, flow: .shuffle, isClaim: set)
        case .memory:
            return Rules(deck: classic, dealt: 21, claimSize: 3, chainReuse: 0, flow: .memory, isClaim: set)
        }
    }

    /// Whether `cards` are a valid claim in `mode`: the mode's claim, of cards of its deck, and while a
    /// chain goes on, one that reuses exactly the mode's number of cards of `chain`.
    public static func isValidClaim(_ cards: [Card], mode: SetMode, chain: [Card]?) -> Bool {
        let rules = rules(mode)
        guard cards.count == rules.claimSize, cards.allSatisfy(rules.deck.contains), rules.isClaim(cards)
        else {
            return false
        }
        guard let chain, rules.chainReuse > 0 else { return true }
        return cards.filter(chain.contains).count == rules.chainReuse
    }

    /// Every claim in `mode` on `board`, as sets of cards, found by trying every combination: with a
    /// `chain`, those of exactly `chainReuse` of its cards and the rest from the board; without, those of
    /// board cards; never one in `found`.
    public static func allClaims(board: [Card], mode: SetMode, chain: [Card]?, found: [[Card]] = [])
        -> Set<Set<Card>>
    {
        let rules = rules(mode)
        var claims = Set<Set<Card>>()
        if let chain, !chain.isEmpty, rules.chainReuse > 0 {
            for reused in VariantReference.combinations(of: chain.count, size: rules.chainReuse) {
                let fresh = rules.claimSize - rules.chainReuse
                for others in VariantReference.combinations(of: board.count, size: fresh) {
                    let cards = reused.map { chain[$0] } + others.map { board[$0] }
                    if rules.isClaim(cards) { claims.insert(Set(cards)) }
                }
            }
        } else {
            for positions in VariantReference.allClaims(in: board, size: rules.claimSize, rules.isClaim) {
                claims.insert(Set(positions.map { board[$0] }))
            }
        }
        return claims.subtracting(found.map(Set.init))
    }

    /// The board after the cards at `positions` leave it: holes are refilled in place, in ascending
    /// order, with the next cards of `deck` while the board would otherwise hold fewer than `dealt`
    /// cards; any holes left are closed by moving the last card into the first hole, again and again (or
    /// dropping the last position when it is itself a hole). Returns the board and how many deck cards
    /// it used.
    public static func boardAfterTaking(positions: [Int], from board: [Card], deck: [Card], dealt: Int) -> (
        board: [Card], used: Int
    ) {
        var slots: [Card?] = board
        var holes = positions.sorted()
        var used = 0
        while let hole = holes.first, board.count - holes.count < dealt, used < deck.count {
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

    /// A game played by the rules, from a given order of the deck, for `SetGame` to be compared with.
    public struct Game {
        /// The mode played.
        public let mode: SetMode
        /// The mode's rules.
        public let rules: Rules
        /// The cards face up (or face down, in memory), by position.
        public private(set) var board: [Card] = []
        /// The cards not dealt yet, the next first.
        public private(set) var deck: [Card]
        /// The previous claim, while a chain goes on.
        public private(set) var chain: [Card]?
        /// In puzzle, the claims found on this board.
        public private(set) var found: [[Card]] = []
        /// How many times the board changed: a claim leaving, a board moving on, each deal.
        public private(set) var changes = 0
        /// The claims possible now, worked out after every change.
        public private(set) var claims: Set<Set<Card>> = []

        /// Deals from `deck` (in that order): the mode's number of cards, then three more at a time while
        /// no claim is possible.
        public init(mode: SetMode, deck: [Card]) {
            self.mode = mode
            rules = ModeReference.rules(mode)
            self.deck = deck
            dealFresh()
            changes = 0
        }

        /// Works out the claims on the board as it is now.
        private mutating func recount() {
            claims = ModeReference.allClaims(board: board, mode: mode, chain: chain, found: found)
        }

        /// Whether the game is over: no claim, and no card left to deal.
        public var isOver: Bool { deck.isEmpty && claims.isEmpty }

        /// Applies a valid claim, as the rules say. In shuffle, `arrange` is given the board after the
        /// claim (refilled, before any extra deal) and returns the order the cards were shuffled into,
        /// which the caller checks is a shuffle of it.
        public mutating func take(_ claim: [Card], arrange: ([Card]) -> [Card] = { $0 }) {
            if rules.flow == .puzzle {
                found.append(claim)
                recount()
                guard claims.isEmpty else { return }
                // Every claim on the board was found: it leaves whole, and the next board is dealt.
                board = []
                found = []
                changes += 1
                dealFresh()
                return
            }
            let positions = board.indices.filter { claim.contains(board[$0]) }
            let (after, used) = ModeReference.boardAfterTaking(
                positions: positions, from: board, deck: deck, dealt: rules.dealt)
            board = rules.flow == .shuffle ? arrange(after) : after
            deck.removeFirst(used)
            if rules.chainReuse > 0 { chain = claim }
            changes += 1
            dealMore()
        }

        /// Deals the mode's number of cards onto an empty board, then more while needed.
        private mutating func dealFresh() {
            let n = min(rules.dealt, deck.count)
            board += deck.prefix(n)
            deck.removeFirst(n)
            dealMore()
        }

        /// Deals three cards at a time while no claim is possible; a chain that cannot go on (the deck is
        /// empty, or the board has 21 cards) breaks instead, and any claim goes next.
        private mutating func dealMore() {
            recount()
            while claims.isEmpty {
                if chain != nil, deck.isEmpty || board.count >= 21 {
                    chain = nil
                    recount()
                    continue
                }
                guard !deck.isEmpty else { return }
                let n = min(3, deck.count)
                board += deck.prefix(n)
                deck.removeFirst(n)
                changes += 1
                recount()
            }
        }
    }
}
