extension MatchismoGame {
    /// Everything a game is, as plain values: what a journal snapshot keeps.
    public struct State: Equatable, Sendable {
        /// How many cards are scored together.
        public var matchCount: Int
        /// The board, by position.
        public var slots: [Slot]
        /// Cards left undealt.
        public var deckCount: Int
        /// The board's revision.
        public var revision: Int
        /// Players in turn order.
        public var players: [String]
        /// Points by player.
        public var scores: [String: Int]
        /// Whose turn it is.
        public var turn: String?
        /// The choices the game holds, in order: every one, or the latest after `forgottenChoices`.
        public var history: [Choice]
        /// Players away, skipped by the turn.
        public var absent: Set<String>
        /// How many of the first choices `history` no longer holds.
        public var forgottenChoices: Int
        /// The face-up, unmatched positions in the order they were turned up, given once choices were
        /// forgotten (`nil`: read back from a history that holds every choice).
        public var faceUpOrder: [Int]?

        /// Creates a state from its parts.
        public init(
            matchCount: Int, slots: [Slot], deckCount: Int, revision: Int, players: [String],
            scores: [String: Int], turn: String?, history: [Choice], absent: Set<String>,
            forgottenChoices: Int = 0, faceUpOrder: [Int]? = nil
        ) {
            self.forgottenChoices = forgottenChoices
            self.faceUpOrder = faceUpOrder
            self.matchCount = matchCount
            self.slots = slots
            self.deckCount = deckCount
            self.revision = revision
            self.players = players
            self.scores = scores
            self.turn = turn
            self.history = history
            self.absent = absent
        }
    }

    /// The game's state.
    public var state: State {
        State(
            matchCount: matchCount, slots: slots, deckCount: deckCount, revision: revision, players: players,
            scores: scores, turn: turn, history: history, absent: absent, forgottenChoices: forgottenChoices,
            faceUpOrder: forgottenChoices > 0 ? faceUpOrder : nil)
    }

    /// The game in `state`; refuses a state no game can reach.
    public init(state: State) throws(SetGame.StateError) {
        guard state.slots.count == Self.boardSize, Set(state.slots.map(\.card)).count == Self.boardSize else {
            throw SetGame.StateError(description: "a Matchismo board is \(Self.boardSize) different cards")
        }
        guard (2...Self.boardSize).contains(state.matchCount), state.revision >= 1 else {
            throw SetGame.StateError(description: "n=\(state.matchCount) at revision \(state.revision)")
        }
        guard state.turn.map(state.players.contains) ?? true else {
            throw SetGame.StateError(description: "the turn is with someone not playing")
        }
        self.init(matchCount: state.matchCount, seed: 0, firstRevision: state.revision)
        slots = state.slots
        deckCount = state.deckCount
        players = state.players
        scores = state.scores
        turn = state.turn
        history = state.history
        absent = state.absent
        forgottenChoices = max(0, state.forgottenChoices)
        if let order = state.faceUpOrder {
            let up = slots.indices.filter { slots[$0].isFaceUp && !slots[$0].isMatched }
            guard order.sorted() == up else {
                throw SetGame.StateError(description: "the face-up order names cards that are not face up")
            }
            faceUpOrder = order
        } else {
            faceUpOrder = Self.faceUpOrder(slots: slots, history: history)
        }
    }

    /// The order the face-up cards were turned up in, read back from the history (a snapshot keeps
    /// only which cards are up); a card the history does not account for goes first, in board order.
    static func faceUpOrder(slots: [Slot], history: [Choice]) -> [Int] {
        var order: [PlayingCard] = []
        let bySymbol = Dictionary(slots.map { ($0.card.symbol, $0.card) }, uniquingKeysWith: { a, _ in a })
        for choice in history {
            if let last = choice.scored.last {
                order = choice.isMatch ? [] : [last]
            } else if let card = bySymbol[choice.text] {
                if let at = order.firstIndex(of: card) { order.remove(at: at) } else { order.append(card) }
            }
        }
        let up = slots.indices.filter { slots[$0].isFaceUp && !slots[$0].isMatched }
        let known = order.compactMap { card in up.first { slots[$0].card == card } }
        return up.filter { !known.contains($0) } + known
    }
}
