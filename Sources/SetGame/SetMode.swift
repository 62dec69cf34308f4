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
}
