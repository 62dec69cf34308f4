/// A game of Matchismo, the card-matching game of the course notes, shared by several players in turn.
///
/// Players turn cards face up one at a time. When `matchCount` unmatched cards are face up they are
/// scored together: every pair of the same rank is worth 4 and every pair of the same suit 1. A non-zero
/// total is a match worth `total × matchBonus × n`, and those cards leave play; a zero total is a mismatch
/// costing `mismatchPenalty × n`, and all but the last card turn back down. Every choice costs
/// `costToChoose × n`. A match keeps the turn; a mismatch passes it.
public struct MatchismoGame: Sendable {
    /// The course's constants, before scaling by the match count.
    public static let matchBonus = 4
    public static let mismatchPenalty = 2
    public static let costToChoose = 1
    /// How many cards are dealt face down.
    public static let boardSize = 30

    /// A position on the board.
    public struct Slot: Equatable, Sendable {
        /// The card in this position.
        public var card: PlayingCard
        /// Whether the card shows its face.
        public var isFaceUp = false
        /// Whether the card was matched and is out of play (it stays face up).
        public var isMatched = false

        /// Creates a slot.
        public init(card: PlayingCard, isFaceUp: Bool = false, isMatched: Bool = false) {
            self.card = card
            self.isFaceUp = isFaceUp
            self.isMatched = isMatched
        }
    }

    /// What one choice did, with the history entry in the course's words.
    public struct Choice: Equatable, Sendable {
        /// Who chose.
        public var player: String
        /// The history entry: "Matched J♥ J♠ for 32 points", "6♦ J♣ don't match! 4 point penalty!" or "8♦".
        public var text: String
        /// The player's score change, including the cost of choosing.
        public var points: Int
        /// The cards scored together, if `matchCount` were face up.
        public var scored: [PlayingCard]
        /// Whether the scored cards matched.
        public var isMatch: Bool

        /// Creates a record of a choice.
        public init(player: String, text: String, points: Int, scored: [PlayingCard], isMatch: Bool) {
            self.player = player
            self.text = text
            self.points = points
            self.scored = scored
            self.isMatch = isMatch
        }
    }

    /// How many cards are scored together; locked once the first card is chosen.
    public internal(set) var matchCount: Int
    /// The board, by position.
    public internal(set) var slots: [Slot]
    /// Cards left undealt.
    public internal(set) var deckCount: Int
    /// Goes up by one on every change to the board.
    public private(set) var revision = 1
    /// Players in turn order.
    public internal(set) var players: [String] = []
    /// Points by player.
    public internal(set) var scores: [String: Int] = [:]
    /// Whose turn it is, or `nil` with no player present.
    public internal(set) var turn: String?
    /// The choices made, in order: all of them, or the latest ones once the owner let the oldest go
    /// (``forgetChoices(keepingLast:)``), so that a game of endless flipping holds bounded memory.
    public internal(set) var history: [Choice] = []
    /// How many of the first choices ``history`` no longer holds.
    public internal(set) var forgottenChoices = 0
    /// Players who are away and skipped when the turn passes.
    var absent: Set<String> = []
    /// The face-up, unmatched positions in the order they were turned up: a match lists its cards in the
    /// order they were chosen, not in board order.
    var faceUpOrder: [Int] = []

    /// Deals 30 cards face down from a deck shuffled with `seed`, at board revision `firstRevision`.
    public init(matchCount: Int = 2, seed: UInt64, firstRevision: Int = 1) {
        precondition(matchCount >= 2, "a match needs at least two cards")
        self.matchCount = matchCount
        revision = firstRevision
        var generator = SeededGenerator(seed: seed)
        var deck = PlayingCard.all
        deck.stableShuffle(using: &generator)
        slots = deck.prefix(Self.boardSize).map { Slot(card: $0) }
        deckCount = deck.count - Self.boardSize
    }

    /// Whether choosing has started, which locks the match count.
    public var hasStarted: Bool { choiceCount > 0 }

    /// How many choices were made in this game, forgotten ones included.
    public var choiceCount: Int { forgottenChoices + history.count }

    /// Lets the oldest choices go, keeping the latest `count` in ``history``: the scores, the board and
    /// the turn do not depend on them, and the order the face-up cards were turned is kept apart.
    public mutating func forgetChoices(keepingLast count: Int) {
        let dropped = history.count - max(0, count)
        guard dropped > 0 else { return }
        history.removeFirst(dropped)
        forgottenChoices += dropped
    }

    /// Changes the match count before the first choice; afterwards it is locked until a new game.
    public mutating func setMatchCount(_ n: Int) throws(MatchismoError) {
        guard !hasStarted else { throw .modeLocked(matchCount) }
        guard n >= 2, n <= Self.boardSize else { throw .badMatchCount(n) }
        matchCount = n
    }

    /// Whether no further match is possible: fewer than n cards are left, or no two share a rank or suit.
    public var isOver: Bool {
        // One pass, no copies: it is asked before every choice. Two cards share a rank or a suit exactly
        // when a card's rank or suit was already seen among the cards before it.
        var left = 0
        var ranksSeen: UInt16 = 0
        var suitsSeen: UInt8 = 0
        var sharing = false
        for slot in slots where !slot.isMatched {
            left += 1
            let rank: UInt16 = 1 << UInt16(slot.card.rank)
            let suit: UInt8 = 1 << UInt8(slot.card.suit.rawValue)
            if ranksSeen & rank != 0 || suitsSeen & suit != 0 { sharing = true }
            ranksSeen |= rank
            suitsSeen |= suit
        }
        return left < matchCount || !sharing
    }

    /// Points of `player`, 0 if they have none.
    public func score(of player: String) -> Int { scores[player, default: 0] }

    /// Adds a player at the end of the turn order (nothing happens if they are already in it); the
    /// first player present gets the turn.
    public mutating func addPlayer(_ name: String) {
        if !players.contains(name) { players.append(name) }
        absent.remove(name)
        if turn == nil { turn = name }
    }

    /// Marks a player away (skipped by the turn) or back. A player who goes away with the turn passes
    /// it to the next player present; with nobody else present they keep it (so a restart, which finds
    /// everyone away, gives the turn back to whoever had it). A player who comes back takes the turn
    /// only when it is nobody's.
    public mutating func setPresent(_ name: String, _ isPresent: Bool) {
        guard players.contains(name) else { return }
        if isPresent {
            absent.remove(name)
            if turn == nil { turn = name }
        } else {
            absent.insert(name)
            if turn == name, players.contains(where: { !absent.contains($0) }) { passTurn() }
        }
    }

    /// Takes a player who left the room out of the turn: their score stays, and the turn passes to the
    /// next player present, or to nobody (`nil`) when nobody is.
    public mutating func removeFromTurn(_ name: String) {
        guard players.contains(name) else { return }
        absent.insert(name)
        if turn == name { passTurn() }
    }

    /// Gives the turn to the next present player after the current one, or `nil` if none is present.
    public mutating func passTurn() {
        guard let current = turn, let at = players.firstIndex(of: current) else {
            turn = players.first { !absent.contains($0) }
            return
        }
        let order = players[(at + 1)...] + players[...at]
        turn = order.first { !absent.contains($0) }
    }

    /// Chooses the card at `position` for `player`: turns it up (or back down if it is up) and, when
    /// `matchCount` unmatched cards are up, scores them.
    @discardableResult
    public mutating func choose(_ position: Int, by player: String, seenRevision: Int? = nil)
        -> Result<Choice, MatchismoError>
    {
        guard !isOver else { return .failure(.gameOver) }
        guard players.contains(player) else { return .failure(.notPlaying) }
        guard turn == player else { return .failure(.notYourTurn(turn)) }
        if let seen = seenRevision, seen != revision { return .failure(.stale(seen, revision)) }
        guard slots.indices.contains(position) else { return .failure(.noSuchPosition(position)) }
        guard !slots[position].isMatched else { return .failure(.alreadyMatched(slots[position].card)) }

        let cost = Self.costToChoose * matchCount
        revision += 1
        var choice = Choice(
            player: player, text: slots[position].card.symbol, points: -cost, scored: [], isMatch: false)
        if slots[position].isFaceUp {
            slots[position].isFaceUp = false
            faceUpOrder.removeAll { $0 == position }
        } else {
            slots[position].isFaceUp = true
            faceUpOrder.append(position)
            let up = faceUpOrder
            if up.count == matchCount {
                // The cards in the order they were turned up, the one just chosen last, as the course's
                // history reads.
                let cards = up.map { slots[$0].card }
                let total = Self.matchScore(cards)
                let names = cards.map(\.symbol).joined(separator: " ")
                choice.scored = cards
                if total > 0 {
                    let points = total * Self.matchBonus * matchCount
                    for i in up { slots[i].isMatched = true }
                    faceUpOrder = []
                    choice.points += points
                    choice.isMatch = true
                    choice.text = "Matched \(names) for \(points) points"
                } else {
                    let penalty = Self.mismatchPenalty * matchCount
                    for i in up where i != position { slots[i].isFaceUp = false }
                    faceUpOrder = [position]
                    choice.points -= penalty
                    choice.text = "\(names) don't match! \(penalty) point penalty!"
                }
            }
        }
        scores[player, default: 0] += choice.points
        history.append(choice)
        if !choice.scored.isEmpty, !choice.isMatch { passTurn() }
        return .success(choice)
    }

    /// The raw score of cards turned up together: 4 for every pair of one rank, 1 for every pair of one
    /// suit.
    public static func matchScore(_ cards: [PlayingCard]) -> Int {
        var total = 0
        for i in cards.indices {
            for j in cards.indices where j > i {
                if cards[i].rank == cards[j].rank { total += 4 }
                if cards[i].suit == cards[j].suit { total += 1 }
            }
        }
        return total
    }
}

/// Why a Matchismo choice or setting was refused.
public enum MatchismoError: Error, Equatable, Sendable, CustomStringConvertible {
    case notPlaying
    case notYourTurn(String?)
    case stale(Int, Int)
    case noSuchPosition(Int)
    case alreadyMatched(PlayingCard)
    case modeLocked(Int)
    case badMatchCount(Int)
    case gameOver

    public var description: String {
        switch self {
        case .notPlaying: return "you are not playing in this room"
        case .notYourTurn(let who): return "it is \(who ?? "nobody")'s turn"
        case .stale(let seen, let now): return "the board changed since revision \(seen); it is now \(now)"
        case .noSuchPosition(let p): return "there is no card at \(SetGame.positionName(p))"
        case .alreadyMatched(let card): return "\(card) is already matched"
        case .modeLocked(let n): return "the match count is locked at \(n) until a new game"
        case .badMatchCount(let n): return "a match is 2 to \(MatchismoGame.boardSize) cards, not \(n)"
        case .gameOver: return "the game is over"
        }
    }
}
