import SetGame
import SetProtocol

/// A SET board as a `BOARD` line shows it: the revision and the cards in position order.
public struct BoardView: Equatable {
    public var revision: Int
    public var cards: [Card]

    /// Parses a `BOARD <rev> <pos>:<card> ...` line of a SET room; `nil` for anything else.
    public init?(line: String) {
        guard case .board(let revision, let pairs) = ServerLine(parsing: line) else { return nil }
        var cards: [Card] = []
        for (index, pair) in pairs.enumerated() {
            guard pair.position == Self.position(index), let card = try? Card(code: pair.card) else {
                return nil
            }
            cards.append(card)
        }
        self.revision = revision
        self.cards = cards
    }

    /// The last `BOARD` line among `lines`, parsed.
    public static func last(in lines: [String]) -> BoardView? {
        lines.last { $0.hasPrefix("BOARD ") }.flatMap(BoardView.init(line:))
    }

    /// The position letter of index `index`.
    public static func position(_ index: Int) -> String { String(UnicodeScalar(UInt8(97 + index))) }

    /// Every set on the board, as ascending position indices.
    public var sets: [[Int]] { SetRules.allSets(in: cards) }

    /// Three positions whose cards are not a set.
    public var nonSet: [Int]? {
        for i in cards.indices {
            for j in cards.indices where j > i {
                for k in cards.indices where k > j && !SetRules.isSet(cards[i], cards[j], cards[k]) {
                    return [i, j, k]
                }
            }
        }
        return nil
    }

    /// `CHOOSE <pos> <pos> <pos> @<rev>` for the positions.
    public func claim(_ positions: [Int], withRevision: Bool = true) -> String {
        let names = positions.map(Self.position).joined(separator: " ")
        return withRevision ? "CHOOSE \(names) @\(revision)" : "CHOOSE \(names)"
    }

    /// The codes of the cards at `positions`.
    public func codes(_ positions: [Int]) -> [String] { positions.map { cards[$0].code } }

    /// A card of the full deck that is not on this board.
    public var cardNotOnBoard: Card { Card.all.first { !cards.contains($0) }! }
}

/// The words of a line.
public func words(_ line: String) -> [String] { line.split(separator: " ").map(String.init) }
