/// The colour of the shapes on a SET card.
public enum Colour: Int, CaseIterable, Sendable {
    case red, green, purple
}

/// How the shapes on a SET card are filled.
public enum Fill: Int, CaseIterable, Sendable {
    case solid, striped, open
}

/// The shape drawn on a SET card.
public enum Shape: Int, CaseIterable, Sendable {
    case triangle, circle, square
}

/// One of the 81 SET cards: a count of 1–3 shapes, each with a colour, a fill and a shape.
///
/// A card is stored as its index in the full deck, so that comparing, hashing and finding the card
/// that completes a set are table look-ups rather than arithmetic on four fields.
public struct Card: Hashable, Sendable, Comparable {
    /// The card's place in ``Card/all``, `0..<81`.
    public let index: Int

    /// Every card in the deck, in index order.
    public static let all: [Card] = (0..<81).map(Card.init(index:))

    /// The 27 solid cards that make the junior deck.
    public static let solid: [Card] = all.filter { $0.fill == .solid }

    /// Creates the card at `index` in the full deck; `index` must be in `0..<81`.
    public init(index: Int) {
        precondition((0..<81).contains(index), "a card index is in 0..<81")
        self.index = index
    }

    /// Creates the card with the given attributes; `count` must be 1, 2 or 3.
    public init(count: Int, colour: Colour, fill: Fill, shape: Shape) {
        precondition((1...3).contains(count), "a card shows 1, 2 or 3 shapes")
        self.init(index: (count - 1) + 3 * colour.rawValue + 9 * fill.rawValue + 27 * shape.rawValue)
    }

    /// How many shapes the card shows, 1–3.
    public var count: Int { index % 3 + 1 }
    /// The colour of the card's shapes.
    public var colour: Colour { Colour(rawValue: index / 3 % 3)! }
    /// How the card's shapes are filled.
    public var fill: Fill { Fill(rawValue: index / 9 % 3)! }
    /// The card's shape.
    public var shape: Shape { Shape(rawValue: index / 27)! }

    /// The value (0, 1 or 2) of each attribute in the order count, colour, fill, shape.
    var digits: [Int] { [index % 3, index / 3 % 3, index / 9 % 3, index / 27] }

    public static func < (lhs: Card, rhs: Card) -> Bool { lhs.index < rhs.index }
}
