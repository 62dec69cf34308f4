/// The rule of GhostSet and the searches built on it, for the classic deck.
///
/// Six different cards form a GhostSet when they split into three pairs whose missing cards (the card
/// that completes each pair to a set, the "ghosts", which need not be on the board) form a set. The ghost
/// of a pair is minus the sum of its two cards (attribute by attribute, mod 3), so the ghosts of any split
/// add up to minus the sum of all six cards: the six form a GhostSet exactly when their values add up to a
/// multiple of 3 in every attribute, and then every split of them works. Three ghosts that add up to zero
/// are all the same or all different in each attribute: a set, or one card three times (three pairs
/// completed by the same card, a three-pair UltraSet), which the rule accepts as the rules of Set with
/// Forks do.
public enum GhostSetRules {
    /// The ghost cards of `cards` split into pairs in the order given: (1, 2), (3, 4), (5, 6).
    public static func ghosts(of cards: [Card]) -> [Card] {
        precondition(cards.count == 6, "a GhostSet has six cards")
        return [0, 2, 4].map { SetRules.completing(cards[$0], cards[$0 + 1]) }
    }

    /// Returns whether `cards` are six different classic cards forming a GhostSet.
    public static func isGhostSet(_ cards: [Card]) -> Bool {
        guard cards.count == 6, Set(cards).count == 6, cards.allSatisfy(\.isClassic) else { return false }
        let g = ghosts(of: cards)
        // Three cards add up to zero exactly when the third completes the first two (for a card twice,
        // completing(x, x) is x itself, and x + x + x is zero too).
        return SetRules.completing(g[0], g[1]) == g[2]
    }

    /// Every GhostSet among `cards`, as ascending sextuples of positions, in ascending order.
    ///
    /// Runs in O(n⁵): for each five cards, the sixth that makes their sum zero is looked up.
    public static func allGhostSets(in cards: [Card]) -> [[Int]] {
        var found: [[Int]] = []
        forEachGhostSet(in: cards) { sextuple in
            found.append(sextuple)
            return true
        }
        return found
    }

    /// Returns whether there is at least one GhostSet among `cards`.
    public static func containsGhostSet(_ cards: [Card]) -> Bool {
        var found = false
        forEachGhostSet(in: cards) { _ in
            found = true
            return false
        }
        return found
    }

    /// Calls `body` with the ascending positions of each GhostSet until it returns `false`.
    static func forEachGhostSet(in cards: [Card], _ body: ([Int]) -> Bool) {
        let n = cards.count
        guard n >= 6 else { return }
        precondition(cards.allSatisfy(\.isClassic), "GhostSet is played with the classic deck")
        var position = [Int](repeating: -1, count: 81)
        for (i, card) in cards.enumerated() { position[card.index] = i }
        func ghost(_ x: Card, _ y: Card) -> Card { SetRules.completing(x, y) }
        for a in 0..<n - 5 {
            for b in (a + 1)..<n - 4 {
                let first = ghost(cards[a], cards[b])
                for c in (b + 1)..<n - 3 {
                    for d in (c + 1)..<n - 2 {
                        // The third ghost must complete the first two: the pair (e, f) it comes from has
                        // f = completing(e, that ghost).
                        let third = ghost(first, ghost(cards[c], cards[d]))
                        for e in (d + 1)..<n - 1 {
                            let f = position[ghost(cards[e], third).index]
                            if f > e, !body([a, b, c, d, e, f]) { return }
                        }
                    }
                }
            }
        }
    }

    /// Says in words why six cards are not a GhostSet, naming the ghosts of the pairs as named and the
    /// first attribute in which they are not all the same or all different, or returns `nil` when they are
    /// a GhostSet.
    public static func whyNotGhostSet(_ cards: [Card]) -> String? {
        guard cards.count == 6 else { return "a GhostSet has six cards, not \(cards.count)" }
        guard Set(cards).count == 6 else { return "the same card twice" }
        guard cards.allSatisfy(\.isClassic) else { return "GhostSet is played with the classic deck" }
        let g = ghosts(of: cards)
        guard let why = SetRules.whyNotAllSameOrDifferent(g[0], g[1], g[2]) else { return nil }
        return "the pairs' missing cards \(g.map(\.code).joined(separator: " ")) are not a set: \(why)"
    }
}
