/// One game of SET: the deck, the shared board, the scores, and the claims that change them.
///
/// A value type with no clock and no global randomness: the whole game follows from its options and
/// seed (and, for a timed game, the moment the server calls time), so it can be replayed, tested
/// exhaustively, and owned by whoever serialises access to it.
///
/// Every mode plays through ``claim(_:by:)``. The mode decides what a claim is (``SetMode/kind``), how
/// many cards are dealt, and the flow after a claim: the claimed cards leave and the board is refilled;
/// in the chain modes the claim becomes the chain; in puzzle the board stays until every claim on it was
/// found; in shuffle the board's cards change places; in memory the claim turns face-down cards over.
public struct SetGame: Sendable {
    /// The room options that shape a game.
    public struct Options: Equatable, Sendable {
        /// The variant played.
        public var mode: SetMode
        /// Points a wrong claim costs (0 or 1 in rooms); in memory, a miss.
        public var wrongClaimPenalty: Int
        /// Whether this is a practice game: unrated, hints free, and pausing allowed.
        public var isPractice: Bool
        /// The game ends as soon as a player has taken this many sets ("first to N"), or `nil`.
        public var setsToWin: Int?
        /// The play time after which the game ends ("most sets in M minutes"), or `nil`. Data only: the
        /// server keeps the clock and calls ``SetGame/callTime()`` when it has passed.
        public var timeLimit: Duration?

        /// Creates options; the defaults are the classic game with a 1-point penalty, rated, untimed.
        public init(
            mode: SetMode = .normal, wrongClaimPenalty: Int = 1, isPractice: Bool = false,
            setsToWin: Int? = nil,
            timeLimit: Duration? = nil
        ) {
            self.mode = mode
            self.wrongClaimPenalty = wrongClaimPenalty
            self.isPractice = isPractice
            self.setsToWin = setsToWin
            self.timeLimit = timeLimit
        }

        /// Whether the game's result counts towards ratings: every game but a practice one.
        public var isRated: Bool { !isPractice }
        /// Whether a hint is given at no cost even where the room turned hints off: in practice.
        public var hintsAreFree: Bool { isPractice }
        /// Whether the game may be paused: in practice only, where no rating is at stake.
        public var allowsPause: Bool { isPractice }
    }

    /// Why a game ended.
    public enum Ending: Equatable, Sendable {
        /// The deck is empty and no claim is possible: the end of every game that has no other.
        case noClaimsLeft
        /// `player` took the options' ``Options/setsToWin`` sets first.
        case reachedSetsToWin(player: String)
        /// The options' ``Options/timeLimit`` passed and the server called time.
        case timeUp
    }

    /// Why a game cannot be paused or resumed.
    public enum PauseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Only a practice game may be paused.
        case notPractice
        /// The game is over.
        case gameOver

        public var description: String {
            switch self {
            case .notPractice: return "only a practice game may be paused"
            case .gameOver: return "the game is over"
            }
        }
    }

    /// A set somebody took.
    public struct TakenSet: Equatable, Sendable {
        /// Who took it.
        public var player: String
        /// The cards, in the order the player named them.
        public var cards: [Card]
        /// The board revision after the set left the board (in puzzle, after it was found: the board
        /// stays, and changes only when it moves on).
        public var revision: Int

        /// Creates a record of a set taken.
        public init(player: String, cards: [Card], revision: Int) {
            self.player = player
            self.cards = cards
            self.revision = revision
        }
    }

    /// No board of the first four modes (normal, junior, chain, ultra) has more cards than this: positions
    /// beyond it name nothing, ever. The later modes use their ``SetMode/maximumBoardSize``.
    static let largestBoard = maximumBoardSize + 2

    /// The number of cards the board is refilled to after a set in the classic modes (each mode's is
    /// ``SetMode/boardSize``).
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
    public var deck: [Card] {
        // Written back to front into a list made at its size: every snapshot of a room reads it, and the
        // generic `reversed()` went card by card through an iterator.
        let count = undealt.count
        // An empty deck is the shared empty list: made with a capacity of 0, the list's count is written
        // into the one empty storage every empty list shares, which ThreadSanitizer reports as a race
        // between threads that each make an empty deck.
        guard count > 0 else { return [] }
        return undealt.withUnsafeBufferPointer { cards in
            Array(unsafeUninitializedCapacity: count) { buffer, initialized in
                for i in 0..<count { buffer.initializeElement(at: count - 1 - i, to: cards[i]) }
                initialized = count
            }
        }
    }
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
    /// In the chain modes, the claim the next claim must reuse cards of (one in chain, two in ultrachain);
    /// `nil` before the first claim or after the chain broke.
    public internal(set) var chainCards: [Card]?
    /// In puzzle, the claims found on the board so far; emptied when the board moves on.
    public internal(set) var foundClaims: [[Card]] = []
    /// Whether the game is paused (practice only): claims are refused until it resumes.
    public internal(set) var isPaused = false
    /// Whether the server called time on a timed game.
    public internal(set) var isTimeUp = false

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
        while board.count < options.mode.boardSize, let card = undealt.popLast() { board.append(card) }
        dealUntilPlayable()
        revision = firstRevision
    }

    /// Whether the game has ended: the deck is empty and no claim is possible, a player reached the sets
    /// to win, or time was called.
    public var isOver: Bool { isTimeUp || winnerBySets != nil || (undealt.isEmpty && !hasClaim) }

    /// Why the game ended, or `nil` while it goes on.
    public var ending: Ending? {
        if let player = winnerBySets { return .reachedSetsToWin(player: player) }
        if isTimeUp { return .timeUp }
        return undealt.isEmpty && !hasClaim ? .noClaimsLeft : nil
    }

    /// The first player to take the options' sets to win, if any has.
    private var winnerBySets: String? {
        guard let target = options.setsToWin else { return nil }
        var taken: [String: Int] = [:]
        for set in takenSets {
            taken[set.player, default: 0] += 1
            if taken[set.player] == target { return set.player }
        }
        return nil
    }

    /// How many sets `player` has taken (their score without the penalties).
    public func sets(of player: String) -> Int { takenSets.filter { $0.player == player }.count }

    /// What players may see of the board, by position: every card, or in memory `nil` for each one, as
    /// the cards lie face down.
    public var faceUpBoard: [Card?] { options.mode.dealsFaceDown ? board.map { _ in nil } : board }

    /// Returns whether the options' time limit has passed after `elapsed` play time (the server's clock,
    /// which leaves out pauses): the moment to ``callTime()``. Never, in an untimed game.
    public func isOutOfTime(after elapsed: Duration) -> Bool {
        options.timeLimit.map { elapsed >= $0 } ?? false
    }

    /// Ends a timed game because its time limit passed; the server calls it (and journals that it did) when
    /// ``isOutOfTime(after:)`` turns true. An untimed game, or one already over, is left as it is.
    public mutating func callTime() {
        guard options.timeLimit != nil, !isOver else { return }
        isTimeUp = true
    }

    /// Pauses a practice game: claims are refused until ``resume()``.
    public mutating func pause() throws(PauseError) {
        guard options.allowsPause else { throw .notPractice }
        guard !isOver else { throw .gameOver }
        isPaused = true
    }

    /// Resumes a paused game.
    public mutating func resume() throws(PauseError) {
        guard !isOver else { throw .gameOver }
        isPaused = false
    }

    /// Points of `player`, 0 if they have none.
    public func score(of player: String) -> Int { scores[player, default: 0] }

    /// Every valid claim right now, as lists of cards (chain cards first in the chain modes; in puzzle,
    /// those not found yet).
    public var possibleClaims: [[Card]] {
        let claims = options.mode.claims(on: board, chain: chainCards)
        guard options.mode.isPuzzle, !foundClaims.isEmpty else { return claims }
        let found = Set(foundClaims.map(Set.init))
        return claims.filter { !found.contains(Set($0)) }
    }

    /// Whether at least one valid claim exists right now.
    public var hasClaim: Bool {
        switch options.mode {
        case .normal, .junior, .megaset, .shuffle, .memory: return SetRules.containsSet(board)
        case .chain:
            guard let chain = chainCards else { return SetRules.containsSet(board) }
            return !options.mode.claims(on: board, chain: chain).isEmpty
        case .ultra, .ultra9: return SetRules.containsUltraSet(board)
        case .ultrachain:
            guard let chain = chainCards else { return SetRules.containsUltraSet(board) }
            return !options.mode.claims(on: board, chain: chain).isEmpty
        case .ghostset: return GhostSetRules.containsGhostSet(board)
        case .fourSet, .fourSetJunior: return FourSetRules.containsFourSet(board)
        // Every found claim is a set on this board, so one is left while the board has more sets.
        case .puzzle: return SetRules.allSets(in: board).count > foundClaims.count
        }
    }

    /// A card that belongs to a valid claim, as a hint, or `nil` if there is none: the first card of the
    /// first of ``possibleClaims``.
    public var hint: Card? {
        // Sets and UltraSets are found without listing every claim: the first set's first card is its
        // first position, and the first UltraSet (its positions sorted, the list sorted) starts at the
        // lowest position of any.
        let isUnchained = chainCards?.isEmpty ?? true
        switch options.mode {
        case .normal, .junior, .megaset, .shuffle, .memory:
            return firstSetCard
        case .chain where isUnchained:
            return firstSetCard
        case .ultra, .ultra9:
            return firstUltraSetCard
        case .ultrachain where isUnchained:
            return firstUltraSetCard
        default:
            return possibleClaims.first?.first
        }
    }

    /// The first card of the first set on the board (in the order of ``SetRules/allSets(in:)``), or `nil`.
    private var firstSetCard: Card? {
        var first: Card?
        SetRules.forEachSet(in: board) { i, _, _ in
            first = board[i]
            return false
        }
        return first
    }

    /// The first card of the first UltraSet on the board (in the order of
    /// ``SetRules/allUltraSets(in:)``), or `nil`.
    private var firstUltraSetCard: Card? {
        var lowest: Int?
        SetRules.forEachUltraSet(in: board) { a, b, c, d in
            lowest = min(lowest ?? a, a, b, c, d)
            return true
        }
        return lowest.map { board[$0] }
    }

    /// Applies a claim by `player`. An accepted claim scores 1 and changes the board (in puzzle, it is
    /// marked found, and the board moves on once all its claims are); a claim that is not valid costs the
    /// penalty (in memory, the reason names the cards turned over, which then lie face down again); a
    /// stale or malformed claim, a claim found before in puzzle, and a claim while paused change nothing.
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
        if options.mode.isPuzzle {
            // A claim found before on this board was right, but late: like a set already taken, it is
            // stale, not wrong.
            let claimed = Set(cards)
            guard !foundClaims.contains(where: { Set($0) == claimed }) else {
                return .failure(.stale("that \(options.mode.kind.name) was already found on this board"))
            }
            foundClaims.append(cards)
            if !hasClaim { moveOnToNextBoard() }
        } else {
            take(cards)
        }
        scores[player, default: 0] += 1
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
        let isFaceDown = options.mode.dealsFaceDown
        if let twice = Self.firstRepeated(selection.picks) {
            let name: String
            switch twice {
            case .position(let position):
                // A face-down card is named by its position: its code would give it away.
                name =
                    board.indices.contains(position) && !isFaceDown
                    ? board[position].code : Self.positionName(position)
            case .card(let card): name = card.code
            }
            return .failure(.malformed("\(name) is named twice"))
        }
        for case .position(let position) in selection.picks where !(0..<positionLimit).contains(position) {
            return .failure(.malformed("there is no position \(Self.positionName(position)) on any board"))
        }
        // Face-down cards are turned over where they lie: naming one by its code would be a guess that the
        // answer (stale or not) confirms.
        if isFaceDown, selection.picks.contains(where: { if case .card = $0 { true } else { false } }) {
            return .failure(.malformed("the cards lie face down: name them by position"))
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
        if let twice = Self.firstRepeated(cards) {
            return .failure(.malformed("\(twice) is named twice"))
        }
        guard !isOver else { return .failure(.gameOver) }
        // Nobody sees the board of a paused game: a claim then is not the player's mistake.
        guard !isPaused else { return .failure(.stale("the game is paused")) }
        return .success(cards)
    }

    /// The first element of `list` that appears in it more than once, or `nil`. Its repeat comes after
    /// it (an earlier one would have been found first), so only the rest of the list is searched; with
    /// no array made per element, as every claim asks this twice.
    private static func firstRepeated<Element: Equatable>(_ list: [Element]) -> Element? {
        for (i, element) in list.enumerated() where list[(i + 1)...].contains(element) { return element }
        return nil
    }

    /// Positions at or past this name nothing on any board of the mode: the first four modes keep the
    /// limit they always had; the later ones use their largest board.
    private var positionLimit: Int {
        switch options.mode {
        case .normal, .junior, .chain, .ultra: return Self.largestBoard
        default: return options.mode.maximumBoardSize
        }
    }

    /// The reason resolved cards are not a valid claim in this mode, or `nil` if they are one.
    private func whyInvalid(_ cards: [Card]) -> String? {
        let mode = options.mode
        if let reuse = mode.chainReuse {
            if let chain = chainCards {
                let reused = cards.reduce(0) { $0 + (chain.contains($1) ? 1 : 0) }
                if reused != reuse {
                    return mode == .chain
                        ? "chain: a set must reuse exactly one card of the previous set, not \(reused)"
                        : "chain: an UltraSet must reuse exactly two cards of the previous one, not \(reused)"
                }
            } else if let offBoard = cards.first(where: { !board.contains($0) }) {
                return "\(offBoard) is not on the board"
            }
        }
        guard let why = mode.kind.whyNotValid(cards) else { return nil }
        // In memory the cards were face down: the reason shows them, for everyone to remember.
        return mode.dealsFaceDown ? "turned over \(cards.map(\.code).joined(separator: " ")): \(why)" : why
    }

    /// Removes the board cards of an accepted claim, refills or compacts, and deals until playable.
    private mutating func take(_ cards: [Card]) {
        var holes = cards.compactMap { board.firstIndex(of: $0) }
        holes.sort()
        if options.mode.chainReuse != nil { chainCards = cards }
        var open = holes[...]
        // Refill in place only up to the mode's board size: a board that had grown shrinks back.
        while board.count - open.count < options.mode.boardSize, let hole = open.first,
            let card = undealt.popLast()
        {
            board[hole] = card
            open = open.dropFirst()
        }
        compact(removing: open)
        if options.mode.shufflesAfterClaim {
            // Shuffle: the cards change places after every set. The n-th set's shuffle draws from a
            // generator of its own, seeded with the game's seed and n, so that a game restored from its
            // state shuffles as the live one did without keeping a generator in its state.
            var generator = SeededGenerator(
                seed: seed ^ (UInt64(takenSets.count + 1) &* 0xD1B5_4A32_D192_ED03))
            board.stableShuffle(using: &generator)
        }
        revision += 1
        dealUntilPlayable()
    }

    /// Puzzle: every claim on the board was found, so the board leaves play whole and the next one is
    /// dealt (from what the deck has left, which may be nothing: then the game is over).
    private mutating func moveOnToNextBoard() {
        board.removeAll()
        foundClaims.removeAll()
        while board.count < options.mode.boardSize, let card = undealt.popLast() { board.append(card) }
        revision += 1
        dealUntilPlayable()
    }

    /// Closes the gaps left by `holes` (ascending positions): the card in the last position moves into
    /// the first gap, the next-to-last into the next, and so on, so as few cards move as possible.
    private mutating func compact(removing holes: ArraySlice<Int>) {
        guard !holes.isEmpty else { return }
        let finalCount = board.count - holes.count
        // The movers are the positions past the final count that are not holes, taken last first; as
        // many as there are holes before the final count.
        var mover = board.count - 1
        for hole in holes where hole < finalCount {
            while holes.contains(mover) { mover -= 1 }
            board[hole] = board[mover]
            mover -= 1
        }
        board.removeLast(holes.count)
    }

    /// Deals more cards (three at a time, ``SetMode/cardsPerDeal``) while no claim is possible and the
    /// deck has cards; in the chain modes, breaks the chain instead once the deck is empty or the board
    /// has reached ``maximumBoardSize`` cards.
    private mutating func dealUntilPlayable() {
        while !hasClaim {
            if options.mode.chainReuse != nil, chainCards != nil,
                undealt.isEmpty || board.count >= Self.maximumBoardSize
            {
                chainCards = nil  // No way to continue the chain: the next claim starts a new one.
                continue
            }
            guard !undealt.isEmpty else { return }
            for _ in 0..<options.mode.cardsPerDeal { if let card = undealt.popLast() { board.append(card) } }
            revision += 1
        }
    }

    /// The protocol name of a board position: `a`…`z`, then `za`…`zz` for positions 26–51 (Matchismo's
    /// board has 30 cards; of the SET modes normal and junior stop at 21, chain at 23, and an
    /// Ultra-free board has at most 12 cards; MegaSet's boards, at most 48, are the only ones past `z`).
    /// No card code starts with `z`, so the names never clash.
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
        position(spelledBy: ArraySlice(name.utf8))
    }

    /// ``position(named:)`` of the name whose UTF-8 is `bytes` (a word of a line, read where it is).
    public static func position(spelledBy bytes: ArraySlice<UInt8>) -> Int? {
        func letter(_ byte: UInt8) -> Int? {
            let lower = byte | 0x20
            return (97...122).contains(lower) ? Int(lower) - 97 : nil
        }
        switch bytes.count {
        case 1: return letter(bytes[bytes.startIndex])
        case 2 where bytes[bytes.startIndex] | 0x20 == 0x7A:
            return letter(bytes[bytes.startIndex + 1]).map { 26 + $0 }
        default: return nil
        }
    }
}
