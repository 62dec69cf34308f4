import SetGame

/// The rules of Matchismo written straight from protocol.md's scoring section, for `MatchismoGame` to be
/// checked against.
public enum MatchismoReference {
    /// The score of `cards` turned up together: 4 for every pair of the same rank and 1 for every pair of
    /// the same suit.
    public static func score(_ cards: [PlayingCard]) -> Int {
        var total = 0
        for i in cards.indices {
            for j in cards.indices where j > i {
                total += (cards[i].rank == cards[j].rank ? 4 : 0) + (cards[i].suit == cards[j].suit ? 1 : 0)
            }
        }
        return total
    }

    /// Whether a game on `slots` with `matchCount` cards per match is over: fewer than `matchCount`
    /// unmatched cards are left, or no two of them share a rank or a suit, so no match can score.
    public static func isOver(slots: [MatchismoGame.Slot], matchCount: Int) -> Bool {
        let left = slots.filter { !$0.isMatched }.map(\.card)
        guard left.count >= matchCount else { return true }
        for i in left.indices {
            for j in left.indices
            where j > i && (left[i].rank == left[j].rank || left[i].suit == left[j].suit) {
                return false
            }
        }
        return true
    }
}
