import SetGame

/// The rules of the later modes' claims written straight from the rules of Set with Forks' help page,
/// slow and obvious on purpose: MegaSet's sets of five attributes, GhostSets as three pairs whose
/// missing cards form a set, 4Sets of four values, and UltraSet-Chain's two reused cards. `SetMode`,
/// `FourSetRules` and `GhostSetRules` are checked against these by the tests.
public enum VariantReference {
    /// A card's attribute values as small integers, read from its public properties: count − 1, colour,
    /// fill, shape, border.
    public static func values(_ card: Card) -> [Int] { valueTable[card.index] }

    /// Every card's `values`, by index, read once.
    private static let valueTable: [[Int]] = Card.universe.map { card in
        [card.count - 1, card.colour.rawValue, card.fill.rawValue, card.shape.rawValue, card.border.rawValue]
    }

    /// Whether three values are all the same or all different.
    static func allSameOrAllDifferent(_ a: Int, _ b: Int, _ c: Int) -> Bool {
        (a == b && b == c) || (a != b && b != c && a != c)
    }

    /// The value of the third card of a set in an attribute where two cards have `x` and `y`: the same
    /// value where they agree, else the third value.
    static func missingValue(_ x: Int, _ y: Int) -> Int { x == y ? x : 3 - x - y }

    /// Whether `cards` are all different.
    static func allDifferent(_ cards: [Card]) -> Bool {
        let n = cards.count
        for i in 0..<n {
            for j in i + 1..<n where cards[i].index == cards[j].index { return false }
        }
        return true
    }

    // MARK: Decks

    /// The classic deck: every combination of three values in four attributes, with a single border.
    public static let classicDeck: [Card] = deck(values: 3, borders: 1)

    /// MegaSet's deck: "each card has a fifth feature, border style", three of them: 3⁵ = 243 cards.
    public static let megasetDeck: [Card] = deck(values: 3, borders: 3)

    /// 4Set's deck: "each feature has four variants": 4⁴ = 256 cards.
    public static let fourSetDeck: [Card] = deck(values: 4, borders: 1)

    /// 4Set Junior's deck: "only uses cards with solid shading": 4³ = 64 cards.
    public static let fourSetJuniorDeck: [Card] = fourSetDeck.filter { $0.fill == .solid }

    /// Every card with `values` values of count, colour, fill and shape and `borders` borders.
    static func deck(values: Int, borders: Int) -> [Card] {
        var cards: [Card] = []
        for count in 1...values {
            for colour in Colour.allCases.prefix(values) {
                for fill in Fill.allCases.prefix(values) {
                    for shape in Shape.allCases.prefix(values) {
                        for border in Border.allCases.prefix(borders) {
                            cards.append(
                                Card(count: count, colour: colour, fill: fill, shape: shape, border: border))
                        }
                    }
                }
            }
        }
        return cards
    }

    // MARK: The rules of the claims

    /// Whether three cards are a set by the rule of SET extended to every attribute a card has: three
    /// different cards, each attribute (MegaSet's border too) all the same or all different.
    public static func isSet(_ cards: [Card]) -> Bool {
        guard cards.count == 3, allDifferent(cards) else { return false }
        let (x, y, z) = (values(cards[0]), values(cards[1]), values(cards[2]))
        for a in 0..<5 {
            // Three values of four (4Set's cards) can be all different too, but a set is of three values.
            if x[a] == 3 || y[a] == 3 || z[a] == 3 || !allSameOrAllDifferent(x[a], y[a], z[a]) {
                return false
            }
        }
        return true
    }

    /// The card that completes two cards to a set: in each attribute, the same value where the two
    /// agree, else the third value. Cards of three values only.
    public static func missingCard(_ a: Card, _ b: Card) -> Card {
        let (x, y) = (values(a), values(b))
        let z = (0..<5).map { missingValue(x[$0], y[$0]) }
        return Card(
            count: z[0] + 1, colour: Colour(rawValue: z[1])!, fill: Fill(rawValue: z[2])!,
            shape: Shape(rawValue: z[3])!, border: Border(rawValue: z[4])!)
    }

    /// Whether six cards are a GhostSet: "3 disjoint pairs of cards (6 cards in total) ... the 3 cards
    /// that complete each of the pairs to sets should themselves form a set". The help page names "a
    /// 3-pair UltraSet (3 pairs of cards that form sets with the same additional card)" as a GhostSet, so
    /// three missing cards that are one card three times count: each attribute all the same.
    public static func isGhostSet(_ cards: [Card]) -> Bool {
        guard cards.count == 6, allDifferent(cards), cards.allSatisfy({ $0.isClassic }) else { return false }
        let rows = cards.map(values)
        for pairs in sixPairings {
            var ghostsFormASet = true
            for a in 0..<4 {
                let (p, q, r) = (pairs[0], pairs[1], pairs[2])
                let ghosts = (
                    missingValue(rows[p.0][a], rows[p.1][a]), missingValue(rows[q.0][a], rows[q.1][a]),
                    missingValue(rows[r.0][a], rows[r.1][a])
                )
                if !allSameOrAllDifferent(ghosts.0, ghosts.1, ghosts.2) {
                    ghostsFormASet = false
                    break
                }
            }
            if ghostsFormASet { return true }
        }
        return false
    }

    /// The 15 ways to split six cards into three pairs.
    static let sixPairings = pairings(of: 6)

    /// Every way to split positions `0..<n` (n even) into pairs.
    static func pairings(of n: Int) -> [[(Int, Int)]] {
        func split(_ rest: [Int]) -> [[(Int, Int)]] {
            guard let first = rest.first else { return [[]] }
            var result: [[(Int, Int)]] = []
            for partner in rest.dropFirst() {
                let others = rest.dropFirst().filter { $0 != partner }
                for tail in split(others) { result.append([(first, partner)] + tail) }
            }
            return result
        }
        return split(Array(0..<n))
    }

    /// Whether four cards are a 4Set: "for each of the four features, the variants are either all the
    /// same, all different, or form two pairs" (`AAAA`, `ABCD`, `AABB`; never `ABBB` or `ABCC`).
    public static func isFourSet(_ cards: [Card]) -> Bool {
        guard cards.count == 4, allDifferent(cards) else { return false }
        let (w, x, y, z) = (values(cards[0]), values(cards[1]), values(cards[2]), values(cards[3]))
        guard w[4] == 0, x[4] == 0, y[4] == 0, z[4] == 0 else { return false }  // 4Set's cards: single border
        for a in 0..<4 {
            // How many of the four cards share each card's value: all 1 (all different), all 2 (two
            // pairs) or all 4 (all the same); a 3, or a 1 beside a 2, breaks the rule.
            let column = (w[a], x[a], y[a], z[a])
            func shared(_ v: Int) -> Int {
                (column.0 == v ? 1 : 0) + (column.1 == v ? 1 : 0) + (column.2 == v ? 1 : 0)
                    + (column.3 == v ? 1 : 0)
            }
            let first = shared(column.0)
            guard first != 3, shared(column.1) == first, shared(column.2) == first, shared(column.3) == first
            else { return false }
        }
        return true
    }

    /// Whether four cards are an UltraSet: "the first pair and the second pair of these four cards should
    /// form a set with the same additional card", in any order.
    public static func isUltraSet(_ cards: [Card]) -> Bool {
        guard cards.count == 4, allDifferent(cards) else { return false }
        let (w, x, y, z) = (values(cards[0]), values(cards[1]), values(cards[2]), values(cards[3]))
        guard w[4] == 0, x[4] == 0, y[4] == 0, z[4] == 0 else { return false }
        for a in 0..<4 where w[a] == 3 || x[a] == 3 || y[a] == 3 || z[a] == 3 { return false }
        /// Whether the pair (a, b) and the pair (c, d) miss the same card.
        func sameMissingCard(_ a: [Int], _ b: [Int], _ c: [Int], _ d: [Int]) -> Bool {
            for i in 0..<4 where missingValue(a[i], b[i]) != missingValue(c[i], d[i]) { return false }
            return true
        }
        // The three ways to split four cards into two pairs.
        return sameMissingCard(w, x, y, z) || sameMissingCard(w, y, x, z) || sameMissingCard(w, z, x, y)
    }

    // MARK: Brute-force finders

    /// Every `size`-card combination of positions in `0..<n`, ascending, in ascending order.
    public static func combinations(of n: Int, size: Int) -> [[Int]] {
        var result: [[Int]] = []
        forEachCombination(of: n, size: size) { result.append($0) }
        return result
    }

    /// Calls `body` with every `size`-card combination of positions in `0..<n`, ascending, in ascending
    /// order (one array, changed in place between calls).
    public static func forEachCombination(of n: Int, size: Int, _ body: ([Int]) -> Void) {
        guard size <= n else { return }
        var positions = Array(0..<size)
        while true {
            body(positions)
            // The next combination: raise the last position that can still go up, and reset those after.
            var i = size - 1
            while i >= 0 && positions[i] == n - size + i { i -= 1 }
            guard i >= 0 else { return }
            positions[i] += 1
            for j in (i + 1)..<size { positions[j] = positions[j - 1] + 1 }
        }
    }

    /// Every claim of `size` cards among `cards` that `isClaim` accepts, as ascending positions in
    /// ascending order, found by trying every combination.
    public static func allClaims(in cards: [Card], size: Int, _ isClaim: ([Card]) -> Bool) -> [[Int]] {
        var found: [[Int]] = []
        guard let first = cards.first else { return size == 0 && isClaim([]) ? [[]] : [] }
        var chosen = [Card](repeating: first, count: size)
        forEachCombination(of: cards.count, size: size) { positions in
            // Index loops, not `enumerated()`: in a debug build every step of a generic iterator looks up
            // its type's metadata, and this loop runs millions of times in the mode tests.
            for i in 0..<size { chosen[i] = cards[positions[i]] }
            if isClaim(chosen) { found.append(positions) }
        }
        return found
    }

    /// Every UltraSet-Chain claim with the previous UltraSet `chain`: an UltraSet with "exactly two cards
    /// from the previous UltraSet" and two from `board`, as sets of cards.
    public static func chainedUltraSets(board: [Card], chain: [Card]) -> Set<Set<Card>> {
        var found = Set<Set<Card>>()
        for reused in combinations(of: chain.count, size: 2) {
            for fresh in combinations(of: board.count, size: 2) {
                let cards = reused.map { chain[$0] } + fresh.map { board[$0] }
                if isUltraSet(cards) { found.insert(Set(cards)) }
            }
        }
        return found
    }
}
