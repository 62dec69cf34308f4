extension SetGame {
    /// Everything a game is, as plain values: what a journal snapshot keeps, so that restoring costs
    /// the size of the game, not the length of its history.
    public struct State: Equatable, Sendable {
        /// The game's options.
        public var options: Options
        /// The seed its deck was shuffled with.
        public var seed: UInt64
        /// The cards face up, by position.
        public var board: [Card]
        /// The cards not yet dealt, the next one first.
        public var deck: [Card]
        /// The board's revision.
        public var revision: Int
        /// Points by player.
        public var scores: [String: Int]
        /// Every set taken, in order.
        public var takenSets: [TakenSet]
        /// Wrong claims made.
        public var wrongClaims: Int
        /// The claim the next chain claim must reuse cards of.
        public var chainCards: [Card]?
        /// In puzzle, the claims found on the board so far.
        public var foundClaims: [[Card]]
        /// Whether the game is paused.
        public var isPaused: Bool
        /// Whether time was called.
        public var isTimeUp: Bool

        /// Creates a state from its parts.
        public init(
            options: Options, seed: UInt64, board: [Card], deck: [Card], revision: Int, scores: [String: Int],
            takenSets: [TakenSet], wrongClaims: Int, chainCards: [Card]?, foundClaims: [[Card]] = [],
            isPaused: Bool = false, isTimeUp: Bool = false
        ) {
            self.options = options
            self.seed = seed
            self.board = board
            self.deck = deck
            self.revision = revision
            self.scores = scores
            self.takenSets = takenSets
            self.wrongClaims = wrongClaims
            self.chainCards = chainCards
            self.foundClaims = foundClaims
            self.isPaused = isPaused
            self.isTimeUp = isTimeUp
        }
    }

    /// Why a state cannot be a game.
    public struct StateError: Error, CustomStringConvertible, Equatable {
        /// What is wrong with it.
        public var description: String
    }

    /// The game's state.
    public var state: State {
        State(
            options: options, seed: seed, board: board, deck: deck, revision: revision, scores: scores,
            takenSets: takenSets, wrongClaims: wrongClaims, chainCards: chainCards, foundClaims: foundClaims,
            isPaused: isPaused, isTimeUp: isTimeUp)
    }

    /// The game in `state`; refuses a state no game can reach: a card twice, cards of another mode, a
    /// board too large for its mode, or found claims that are not claims on the board.
    public init(state: State) throws(StateError) {
        let cards = state.board + state.deck
        // Cards are marked by index, not hashed into sets: a restore reads every room's game through here.
        var isDealt = [Bool](repeating: false, count: Card.universeCount)
        for card in cards {
            guard !isDealt[card.index] else { throw StateError(description: "a card is dealt twice") }
            isDealt[card.index] = true
        }
        var isAllowed = [Bool](repeating: false, count: Card.universeCount)
        for card in state.options.mode.cards { isAllowed[card.index] = true }
        guard cards.allSatisfy({ isAllowed[$0.index] }) else {
            throw StateError(description: "a card is not in a \(state.options.mode) deck")
        }
        guard state.board.count <= max(Self.maximumBoardSize + 3, state.options.mode.maximumBoardSize),
            state.revision >= 1
        else {
            throw StateError(
                description: "a board of \(state.board.count) cards at revision \(state.revision)")
        }
        self.init(options: state.options, seed: state.seed, firstRevision: state.revision)
        board = state.board
        undealt = state.deck.reversed()
        scores = state.scores
        takenSets = state.takenSets
        wrongClaims = state.wrongClaims
        chainCards = state.chainCards
        var isOnBoard = [Bool](repeating: false, count: Card.universeCount)
        for card in state.board { isOnBoard[card.index] = true }
        guard
            state.foundClaims.allSatisfy({ claim in
                state.options.mode.isValidClaim(claim) && claim.allSatisfy { isOnBoard[$0.index] }
            })
        else { throw StateError(description: "a found claim is not a claim on the board") }
        foundClaims = state.foundClaims
        isPaused = state.isPaused
        isTimeUp = state.isTimeUp
    }
}
