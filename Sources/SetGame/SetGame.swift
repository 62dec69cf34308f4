/// One game of SET: the deck, the shared board, the scores, and the claims that change them.
///
/// A value type with no clock and no global randomness: the whole game follows from its options and
/// seed, so it can be replayed, tested exhaustively, and owned by whoever serialises access to it.
public struct SetGame: Sendable {
    /// The room options that shape a game.
    public struct Options: Equatable, Sendable {
        /// The variant played.
        public var mode: SetMode
        /// Points a wrong claim costs (0 or 1 in rooms).
        public var wrongClaimPenalty: Int

        /// Creates options; the defaults are the classic game with a 1-point penalty.
        public init(mode: SetMode = .normal, wrongClaimPenalty: Int = 1) {
            self.mode = mode
            self.wrongClaimPenalty = wrongClaimPenalty
        }
    }

    /// A set somebody took.
    public struct TakenSet: Equatable, Sendable {
        /// Who took it.
        public var player: String
        /// The cards, in the order the player named them.
        public var cards: [Card]
        /// The board revision after the set left the board.
        public var revision: Int

        /// Creates a record of a set taken.
        public init(player: String, cards: [Card], revision: Int) {
            self.player = player
            self.cards = cards
            self.revision = revision
        }
    }

    /// No board, in any mode, has more cards than this: positions beyond it name nothing, ever.
    static let largestBoard = maximumBoardSize + 2

    /// The number of cards the board is refilled to after a set.
    public static let boardSize = 12
    /// Extra cards are dealt only while the board has fewer than this many. 21 cards always hold a set
    /// (the largest set-free collection has 20), so normal and junior boards never pass it; chain mode
    /// lets the next claim break the chain instead of dealing at or past it, but a chained set takes
    /// only two cards from the board, so a chain board of 20 can still get three more: see
    /// ``maximumChainBoardSize``.
    public static let maximumBoardSize = 21
    /// The most cards a chain board ever shows: 20 (below ``maximumBoardSize``, after chained sets that
    /// took two cards each) plus the three dealt when no chained set is possible.
    public static let maximumChainBoardSize = maximumBoardSize + 2

    /// The options the game was started with.
    public let options: Options
    /// The seed the deck was shuffled with.
    public let seed: UInt64
    /// The cards face up, by position (0 is `a`).
    public internal(set) var board: [Card]
    /// The cards not yet dealt, the next one first.
    public var deck: [Card] { undealt.reversed() }
    /// How many cards are left in the deck.
    public var deckCount: Int { undealt.count }
    /// Goes up by one on every change to the board.
    public private(set) var revision: Int = 1
    /// Points by player name; a player who has not scored has no entry.
    public internal(set) var scores: [String: Int] = [:]
    /// Every set taken, in order.
    public internal(set) var takenSets: [TakenSet] = []
    /// How many wrong claims were made.
    public internal(set) var wrongClaims = 0
    /// In chain mode, the set the next claim must reuse exactly one card of; `nil` before the first set
    /// or after the chain broke.
    public internal(set) var chainCards: [Card]?

    /// The undealt cards with the next one last, so dealing is `popLast`.
    var undealt: [Card]

    /// Deals a new game: shuffles the mode's deck with `seed` and lays out the board at `firstRevision`
    /// (a room's next game starts after its last one, so a revision never names boards of two games).
    public init(options: Options = Options(), seed: UInt64, firstRevision: Int = 1) {
        self.options = options
        self.seed = seed
        var generator = SeededGenerator(seed: seed)
        var cards = options.mode.cards
        cards.stableShuffle(using: &generator)
        undealt = cards.reversed()
        board = []
        while board.count < Self.boardSize, let card = undealt.popLast() { board.append(card) }
        dealUntilPlayable()
        revision = firstRevision
    }

    /// Whether the game has ended: the deck is empty and no claim is possible.
    public var isOver: Bool { undealt.isEmpty && !hasClaim }

    /// Points of `player`, 0 if they have none.
    public func score(of player: String) -> Int { scores[player, default: 0] }

    /// Every valid claim right now, as lists of cards (chain cards first in chain mode).
    public var possibleClaims: [[Card]] { options.mode.claims(on: board, chain: chainCards) }

    /// Whether at least one valid claim exists right now.
    public var hasClaim: Bool {
        switch options.mode {
        case .normal, .junior: return SetRules.containsSet(board)
        case .chain:
            guard let chain = chainCards else { return SetRules.containsSet(board) }
            return !options.mode.claims(on: board, chain: chain).isEmpty
        case .ultra: return SetRules.containsUltraSet(board)
        }
    }

    /// A card that belongs to a valid claim, as a hint, or `nil` if there is none.
    public var hint: Card? { possibleClaims.first?.first }

    /// Applies a claim by `player`. An accepted claim scores 1 and changes the board; a claim that is not
    /// a valid set costs the penalty; a stale or malformed claim changes nothing.
    @discardableResult
    public mutating func claim(_ selection: Selection, by player: String) -> Result<TakenSet, ClaimError> {
        let cards: [Card]
        switch resolve(selection) {
        case .success(let resolved): cards = resolved
        case .failure(let error): return .failure(error)
        }
        if let why = whyInvalid(cards) {
            wrongClaims += 1
            scores[player, default: 0] -= options.wrongClaimPenalty
            return .failure(.notSet(why))
        }
        scores[player, default: 0] += 1
        take(cards)
        let taken = TakenSet(player: player, cards: cards, revision: revision)
        takenSets.append(taken)
        return .success(taken)
    }

    /// Turns a selection into the cards it names, or says why it is malformed, over or stale — in that
    /// order: a claim that could never be right (a card named twice, a position no board has) is the
    /// player's mistake whatever the board; a claim after the end is `gameOver`, unless it was aimed at
    /// the board the last set was taken from (the loser of the last set was late, not wrong).
    private func resolve(_ selection: Selection) -> Result<[Card], ClaimError> {
        let needed = options.mode.cardsPerClaim
        guard selection.picks.count == needed else {
            return .failure(.malformed("a claim names \(needed) cards, not \(selection.picks.count)"))
        }
        if let twice = selection.picks.first(where: { pick in selection.picks.filter { $0 == pick }.count > 1
        }) {
            let name: String
            switch twice {
            case .position(let position):
                name = board.indices.contains(position) ? board[position].code : Self.positionName(position)
            case .card(let card): name = card.code
            }
            return .failure(.malformed("\(name) is named twice"))
        }
        for case .position(let position) in selection.picks where !(0..<Self.largestBoard).contains(position)
        {
            return .failure(.malformed("there is no position \(Self.positionName(position)) on any board"))
        }
        if let seen = selection.seenRevision, seen > revision {
            return .failure(.malformed("there is no revision \(seen) yet; the board is at \(revision)"))
        }
        if isOver {
            let aimedAtLastBoard =
                selection.seenRevision.map { $0 != revision } ?? false
                || selection.picks.contains { pick in
                    guard case .card(let card) = pick else { return false }
                    return takenSets.last?.cards.contains(card) ?? false
                }
            guard aimedAtLastBoard else { return .failure(.gameOver) }
        }
        var cards: [Card] = []
        for pick in selection.picks {
            switch pick {
            case .position(let position):
                if let seen = selection.seenRevision, seen != revision {
                    return .failure(.stale("the board changed since revision \(seen); it is now \(revision)"))
                }
                guard board.indices.contains(position) else {
                    return .failure(.stale("there is no card at \(Self.positionName(position)) now"))
                }
                cards.append(board[position])
            case .card(let card):
                guard board.contains(card) || (chainCards?.contains(card) ?? false) else {
                    return .failure(.stale("\(card) is not on the board"))
                }
                cards.append(card)
            }
        }
        if let twice = cards.first(where: { card in cards.filter { $0 == card }.count > 1 }) {
            return .failure(.malformed("\(twice) is named twice"))
        }
        guard !isOver else { return .failure(.gameOver) }
        return .success(cards)
    }

    /// The reason resolved cards are not a valid claim in this mode, or `nil` if they are one.
    private func whyInvalid(_ cards: [Card]) -> String? {
        switch options.mode {
        case .normal, .junior:
            return SetRules.whyNotSet(cards[0], cards[1], cards[2])
        case .ultra:
            return SetRules.isUltraSet(cards)
                ? nil : "no split into two pairs completed by the same card"
        case .chain:
            if let chain = chainCards {
                let reused = cards.filter(chain.contains).count
                if reused != 1 {
                    return "chain: a set must reuse exactly one card of the previous set, not \(reused)"
                }
            } else if let offBoard = cards.first(where: { !board.contains($0) }) {
                return "\(offBoard) is not on the board"
            }
            return SetRules.whyNotSet(cards[0], cards[1], cards[2])
        }
    }

    /// Removes the board cards of an accepted claim, refills or compacts, and deals until playable.
    private mutating func take(_ cards: [Card]) {
        let holes = cards.compactMap { board.firstIndex(of: $0) }.sorted()
        if options.mode == .chain { chainCards = cards }
        var open = holes[...]
        // Refill in place only up to the normal board size: a board that had grown shrinks back.
        while board.count - open.count < Self.boardSize, let hole = open.first, let card = undealt.popLast() {
            board[hole] = card
            open = open.dropFirst()
        }
        compact(removing: Array(open))
        revision += 1
        dealUntilPlayable()
    }

    /// Closes the gaps left by `holes` (ascending positions): the card in the last position moves into
    /// the first gap, the next-to-last into the next, and so on, so as few cards move as possible.
    private mutating func compact(removing holes: [Int]) {
        guard !holes.isEmpty else { return }
        let finalCount = board.count - holes.count
        var movers = (finalCount..<board.count).filter { !holes.contains($0) }
        for hole in holes where hole < finalCount {
            board[hole] = board[movers.removeLast()]
        }
        board.removeLast(holes.count)
    }

    /// Deals three more cards at a time while no claim is possible and the deck has cards.
    private mutating func dealUntilPlayable() {
        while !hasClaim {
            if options.mode == .chain, chainCards != nil,
                undealt.isEmpty || board.count >= Self.maximumBoardSize
            {
                chainCards = nil  // No way to continue the chain: the next set starts a new one.
                continue
            }
            guard !undealt.isEmpty else { return }
            for _ in 0..<3 { if let card = undealt.popLast() { board.append(card) } }
            revision += 1
        }
    }

    /// The protocol name of a board position: `a`…`z`, then `za`…`zz` for positions 26–51 (Matchismo's
    /// board has 30 cards; no SET board reaches 27: normal and junior stop at 21, chain at 23, and an
    /// Ultra-free board has at most 12 cards). No card code starts with `z`, so the names never clash.
    public static func positionName(_ position: Int) -> String {
        func letter(_ n: Int) -> String { String(UnicodeScalar(UInt8(97 + n))) }
        switch position {
        case 0..<26: return letter(position)
        case 26..<52: return "z" + letter(position - 26)
        default: return "#\(position)"
        }
    }

    /// The position a protocol name (`a`…`z`, `za`…`zz`, either case) stands for, or `nil`.
    public static func position(named name: some StringProtocol) -> Int? {
        func letter(_ byte: UInt8) -> Int? {
            let lower = byte | 0x20
            return (97...122).contains(lower) ? Int(lower) - 97 : nil
        }
        let bytes = Array(name.utf8)
        switch bytes.count {
        case 1: return letter(bytes[0])
        case 2 where bytes[0] | 0x20 == 0x7A: return letter(bytes[1]).map { 26 + $0 }
        default: return nil
        }
    }
}
