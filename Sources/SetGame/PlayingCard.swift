/// The suit of a playing card.
public enum Suit: Int, CaseIterable, Sendable {
    case spades, hearts, diamonds, clubs

    /// The suit's letter in card codes: `S`, `H`, `D` or `C`.
    public var letter: Character { ["S", "H", "D", "C"][rawValue] }
    /// The suit's symbol: ♠ ♥ ♦ ♣.
    public var symbol: Character { ["♠", "♥", "♦", "♣"][rawValue] }
}

/// One of the 52 cards of a standard deck, used by Matchismo.
public struct PlayingCard: Hashable, Sendable, CustomStringConvertible {
    /// 1 (ace) to 13 (king).
    public let rank: Int
    /// The card's suit.
    public let suit: Suit

    /// The 52 cards, by suit then rank.
    public static let all: [PlayingCard] = Suit.allCases.flatMap { suit in
        (1...13).map { PlayingCard(rank: $0, suit: suit) }
    }

    private static let rankNames = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

    /// Creates a card; `rank` must be in `1...13`.
    public init(rank: Int, suit: Suit) {
        precondition((1...13).contains(rank), "a rank is 1 (ace) to 13 (king)")
        self.rank = rank
        self.suit = suit
    }

    /// Parses a code such as `AS`, `10H` or `qd` (rank A, 2–10, J, Q, K, then suit S, H, D, C).
    public init?(code: some StringProtocol) {
        let text = code.uppercased()
        guard let suitLetter = text.last,
            let suit = Suit.allCases.first(where: { $0.letter == suitLetter }),
            let rank = Self.rankNames.firstIndex(of: String(text.dropLast()))
        else { return nil }
        self.init(rank: rank + 1, suit: suit)
    }

    /// The code used in the protocol, such as `10H`.
    public var code: String { Self.rankNames[rank - 1] + String(suit.letter) }
    /// The card as people read it, such as `J♥`.
    public var symbol: String { Self.rankNames[rank - 1] + String(suit.symbol) }
    public var description: String { symbol }
}
