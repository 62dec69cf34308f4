/// The rule of 4Set and the searches built on it, for the cards of four values (4Set's and 4Set Junior's
/// decks).
///
/// Four cards form a 4Set when, for each attribute, their values are all the same, all different, or two
/// pairs (`AAAA`, `ABCD`, `AABB`; never `AAAB` or `AABC`). Written as two bits, those are exactly the four
/// values whose exclusive or is zero, so any three different cards determine the one card that makes a
/// 4Set with them (their exclusive or), and it is different from all three.
public enum FourSetRules {
    /// Returns whether `cards` are four different cards of four values forming a 4Set.
    public static func isFourSet(_ cards: [Card]) -> Bool {
        guard cards.count == 4, Set(cards).count == 4, cards.allSatisfy(\.isFourValued) else { return false }
        return cards.reduce(0) { $0 ^ $1.fourValueCode } == 0
    }

    /// Returns the one card that makes a 4Set with the three different cards `a`, `b` and `c`.
    public static func completing(_ a: Card, _ b: Card, _ c: Card) -> Card {
        precondition(a.isFourValued && b.isFourValued && c.isFourValued, "4Set's cards have a single border")
        return Card(index: Card.fourValueTable[a.fourValueCode ^ b.fourValueCode ^ c.fourValueCode])
    }

    /// Every 4Set among `cards`, as ascending quadruples of positions, in ascending order.
    ///
    /// Runs in O(n³): for each triple, the completing card is looked up in a position table.
    public static func allFourSets(in cards: [Card]) -> [[Int]] {
        var found: [[Int]] = []
        forEachFourSet(in: cards) { quadruple in
            found.append(quadruple)
            return true
        }
        return found
    }

    /// Returns whether there is at least one 4Set among `cards`.
    public static func containsFourSet(_ cards: [Card]) -> Bool {
        var found = false
        forEachFourSet(in: cards) { _ in
            found = true
            return false
        }
        return found
    }

    /// Calls `body` with the ascending positions of each 4Set until it returns `false`.
    static func forEachFourSet(in cards: [Card], _ body: ([Int]) -> Bool) {
        guard cards.count >= 4 else { return }
        precondition(cards.allSatisfy(\.isFourValued), "4Set's cards have a single border")
        var position = [Int](repeating: -1, count: 256)
        let codes = cards.map(\.fourValueCode)
        for (i, code) in codes.enumerated() { position[code] = i }
        for i in 0..<cards.count - 3 {
            for j in (i + 1)..<cards.count - 2 {
                let pair = codes[i] ^ codes[j]
                for k in (j + 1)..<cards.count - 1 {
                    let l = position[pair ^ codes[k]]
                    if l > k, !body([i, j, k, l]) { return }
                }
            }
        }
    }

    /// Says in words why four cards are not a 4Set, naming the first attribute that fails (for example
    /// "colour: three red, one blue"), or returns `nil` when they are one.
    public static func whyNotFourSet(_ cards: [Card]) -> String? {
        guard cards.count == 4 else { return "a 4Set has four cards, not \(cards.count)" }
        guard Set(cards).count == 4 else { return "the same card twice" }
        guard cards.allSatisfy(\.isFourValued) else { return "MegaSet's bordered cards are not 4Set's" }
        for (name, value) in SetRules.attributes {
            let values = cards.map(value)
            // Each value appearing once, twice or four times is all different, two pairs or all the same.
            let counts = values.map { v in values.filter { $0 == v }.count }
            guard counts.contains(where: { $0 == 1 }) && counts.contains(where: { $0 > 1 }) else { continue }
            // The values most cards share first, then in the order the cards were named.
            var distinct: [(value: String, count: Int)] = []
            for (v, n) in zip(values, counts) where !distinct.contains(where: { $0.value == v }) {
                distinct.append((v, n))
            }
            let ordered = distinct.enumerated().sorted {
                ($0.element.count, $1.offset) > ($1.element.count, $0.offset)
            }
            let words = ["", "one", "two", "three"]
            return "\(name): "
                + ordered.map { "\(words[$0.element.count]) \($0.element.value)" }.joined(separator: ", ")
        }
        return nil
    }
}

extension Card {
    /// Whether the card is in 4Set's deck: it has a single border (every card but MegaSet's others).
    public var isFourValued: Bool { border == .single }
}
