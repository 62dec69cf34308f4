/// The colour of the shapes on a SET card. Blue is the fourth colour, on 4Set's cards only.
public enum Colour: Int, CaseIterable, Sendable {
    case red, green, purple, blue
}

/// How the shapes on a SET card are filled. Dotted is the fourth fill, on 4Set's cards only.
public enum Fill: Int, CaseIterable, Sendable {
    case solid, striped, open, dotted
}

/// The shape drawn on a SET card. The cross is the fourth shape, on 4Set's cards only.
public enum Shape: Int, CaseIterable, Sendable {
    case triangle, circle, square, cross
}

/// The border of a SET card, MegaSet's fifth attribute: every card of the other decks has a single border.
public enum Border: Int, CaseIterable, Sendable {
    case single, double, dotted
}

/// One SET card: a count of shapes, each with a colour, a fill and a shape, inside a border.
///
/// The classic deck is 81 cards of three values in each of four attributes (count 1–3, and a single
/// border). Two more decks extend it, each keeping the classic cards as they are: MegaSet's 243 cards
/// add a fifth attribute, the border (single, double or dotted); 4Set's 256 cards add a fourth value to
/// each of the four attributes (a count of 4, blue, dotted, a cross).
///
/// A card is stored as its index among every card of every deck, so that comparing, hashing and
/// finding the card that completes a set are table look-ups rather than arithmetic on the fields:
/// `0..<81` are the classic cards, `0..<243` MegaSet's (the index read as five base-3 digits: count,
/// colour, fill, shape, border), and `243..<418` the cards with a fourth value, in the order of their
/// four base-4 digits.
public struct Card: Hashable, Sendable, Comparable {
    /// The card's place in ``Card/universe``: `0..<81` for the classic cards, as it always was.
    public var index: Int { Int(storedIndex) }
    /// The index in 16 bits: a deck, a board and every claim hold cards by the dozen, and every room
    /// holds a deck.
    private let storedIndex: UInt16

    /// How many cards there are in all the decks together: 3⁵ three-valued cards and the 4⁴ − 3⁴
    /// four-valued cards that have a fourth value somewhere.
    static let universeCount = 243 + 256 - 81

    /// Every card in the classic deck, in index order.
    public static let all: [Card] = (0..<81).map(Card.init(index:))

    /// The 27 solid cards that make the junior deck.
    public static let solid: [Card] = all.filter { $0.fill == .solid }

    /// Every card of every deck, in index order.
    public static let universe: [Card] = (0..<universeCount).map(Card.init(index:))

    /// MegaSet's 243 cards: the classic ones (single border) and each of them with a double and a dotted
    /// border, in index order.
    public static let bordered: [Card] = (0..<243).map(Card.init(index:))

    /// 4Set's 256 cards: every combination of four values in each of the four attributes, with a single
    /// border, in index order (the classic cards first).
    public static let fourValued: [Card] = universe.filter { $0.border == .single }

    /// 4Set Junior's 64 cards: the solid four-valued cards.
    public static let fourValuedSolid: [Card] = fourValued.filter { $0.fill == .solid }

    /// The values of each card's attributes, by index: count − 1, colour, fill, shape, border.
    private static let attributeTable: [Attributes] = {
        var table: [Attributes] = []
        for index in 0..<243 {
            let digits: [Int] = [index % 3, index / 3 % 3, index / 9 % 3, index / 27 % 3, index / 81]
            let bytes = digits.map(UInt8.init)
            table.append(
                Attributes(
                    count: bytes[0], colour: bytes[1], fill: bytes[2], shape: bytes[3], border: bytes[4]))
        }
        for code in 0..<256 where Attributes(fourValueCode: code).hasFourthValue {
            table.append(Attributes(fourValueCode: code))
        }
        return table
    }()

    /// `fourValueTable[code]` is the index of the single-bordered card whose count − 1, colour, fill and
    /// shape are the base-4 digits of `code` (see ``fourValueCode``).
    static let fourValueTable: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for (index, attributes) in attributeTable.enumerated() where attributes.border == 0 {
            table[attributes.fourValueCode] = index
        }
        return table
    }()

    /// Creates the card at `index` in ``universe``; `index` must be in `0..<418` (`0..<81` for a classic
    /// card).
    public init(index: Int) {
        precondition((0..<Self.universeCount).contains(index), "a card index is in 0..<418")
        storedIndex = UInt16(index)
    }

    /// Creates the card with the given attributes; `count` must be 1–4, and a card with a fourth value
    /// (a count of 4, blue, dotted or a cross) has a single border, since no deck has such a card.
    public init(count: Int, colour: Colour, fill: Fill, shape: Shape, border: Border = .single) {
        precondition((1...4).contains(count), "a card shows 1, 2, 3 or 4 shapes")
        let digits = [count - 1, colour.rawValue, fill.rawValue, shape.rawValue]
        if digits.allSatisfy({ $0 < 3 }) {
            self.init(
                index: digits[0] + 3 * digits[1] + 9 * digits[2] + 27 * digits[3] + 81 * border.rawValue)
        } else {
            precondition(border == .single, "a card with a fourth value has a single border")
            self.init(index: Self.fourValueTable[digits[0] + 4 * digits[1] + 16 * digits[2] + 64 * digits[3]])
        }
    }

    private var attributes: Attributes { Self.attributeTable[index] }

    /// How many shapes the card shows, 1–3 (4 on some of 4Set's cards).
    public var count: Int { Int(attributes.count) + 1 }
    /// The colour of the card's shapes.
    public var colour: Colour { Colour(rawValue: Int(attributes.colour))! }
    /// How the card's shapes are filled.
    public var fill: Fill { Fill(rawValue: Int(attributes.fill))! }
    /// The card's shape.
    public var shape: Shape { Shape(rawValue: Int(attributes.shape))! }
    /// The card's border: single on every card but MegaSet's.
    public var border: Border { Border(rawValue: Int(attributes.border))! }

    /// Whether the card is one of the classic deck's 81.
    public var isClassic: Bool { index < 81 }

    /// Whether some attribute of the card has a fourth value, so that only 4Set's decks hold it.
    public var hasFourthValue: Bool { index >= 243 }

    /// The value (0, 1 or 2) of each attribute in the order count, colour, fill, shape; for classic cards.
    var digits: [Int] { [index % 3, index / 3 % 3, index / 9 % 3, index / 27] }

    /// The card's count − 1, colour, fill and shape as four base-4 digits (2 bits each, count lowest), for
    /// the cards of 4Set's decks (single border).
    var fourValueCode: Int { attributes.fourValueCode }

    public static func < (lhs: Card, rhs: Card) -> Bool { lhs.storedIndex < rhs.storedIndex }

    /// Hashes the index as the `Int` it was, so that hashes do not change with the stored width.
    public func hash(into hasher: inout Hasher) { hasher.combine(index) }
}

/// A card's attribute values, 0-based, in the order count, colour, fill, shape, border.
private struct Attributes {
    var count: UInt8
    var colour: UInt8
    var fill: UInt8
    var shape: UInt8
    var border: UInt8

    init(count: UInt8, colour: UInt8, fill: UInt8, shape: UInt8, border: UInt8) {
        self.count = count
        self.colour = colour
        self.fill = fill
        self.shape = shape
        self.border = border
    }

    /// The single-bordered attributes whose base-4 digits are `code`'s.
    init(fourValueCode code: Int) {
        self.init(
            count: UInt8(code & 3), colour: UInt8(code >> 2 & 3), fill: UInt8(code >> 4 & 3),
            shape: UInt8(code >> 6 & 3), border: 0)
    }

    var hasFourthValue: Bool { count == 3 || colour == 3 || fill == 3 || shape == 3 }

    var fourValueCode: Int { Int(count) | Int(colour) << 2 | Int(fill) << 4 | Int(shape) << 6 }
}
