/// A variant of SET, chosen when a room is created.
public enum SetMode: String, CaseIterable, Sendable {
    /// The classic game: 81 cards, claims of three.
    case normal
    /// The 27 solid cards only, for beginners.
    case junior
    /// Every set after the first must reuse exactly one card of the previous set.
    case chain
    /// Claims of four cards that split into two pairs completed by the same card.
    case ultra

    /// How many cards one claim names.
    public var cardsPerClaim: Int { self == .ultra ? 4 : 3 }

    /// The cards this mode plays with, in index order before shuffling.
    public var cards: [Card] { self == .junior ? Card.solid : Card.all }

    /// Returns whether `cards` are a claim this mode accepts: three cards that are a set, or in ultra
    /// mode four that split into two pairs completed by the same card. Chain mode's rule (reuse one
    /// card of the previous set) is about the board, not the cards, so it is left to ``claims(on:chain:)``.
    public func isValidClaim(_ cards: [Card]) -> Bool {
        guard cards.count == cardsPerClaim else { return false }
        switch self {
        case .ultra: return SetRules.isUltraSet(cards)
        case .normal, .junior, .chain: return SetRules.isSet(cards[0], cards[1], cards[2])
        }
    }

    /// Every valid claim on `board`, as lists of cards: sets (ultra sets in ultra mode), and in chain
    /// mode, while `chain` holds the previous set, only the sets that reuse exactly one of its cards
    /// (that card first). `nil` or empty `chain` means any set goes.
    public func claims(on board: [Card], chain: [Card]?) -> [[Card]] {
        switch self {
        case .normal, .junior:
            return SetRules.allSets(in: board).map { $0.map { board[$0] } }
        case .ultra:
            return SetRules.allUltraSets(in: board).map { $0.map { board[$0] } }
        case .chain:
            guard let chain, !chain.isEmpty else {
                return SetRules.allSets(in: board).map { $0.map { board[$0] } }
            }
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
        }
    }
}
