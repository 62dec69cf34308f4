/// The rule of SET and the searches built on it, for the cards of three values: the classic deck and
/// MegaSet's (whose fifth attribute, the border, follows the same rule; a classic card's is single).
///
/// Three cards form a set when, for each attribute, their values are all the same or all different. With
/// values 0, 1, 2 that is exactly "the three values add up to a multiple of 3", so any two cards determine
/// the one card that completes them. Cards with a fourth value (4Set's) are never in a set of three:
/// ``FourSetRules`` has their rule.
public enum SetRules {
    /// `completionTable[a * 81 + b]` is the index of the card that makes a set with cards `a` and `b`.
    private static let completionTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 81 * 81)
        for a in Card.all {
            for b in Card.all {
                var index = 0
                var place = 1
                for (x, y) in zip(a.digits, b.digits) {
                    index += (6 - x - y) % 3 * place
                    place *= 3
                }
                table[a.index * 81 + b.index] = UInt8(index)
            }
        }
        return table
    }()

    /// `borderedCompletionTable[a * 243 + b]` is the index of the card that makes a set with cards `a` and
    /// `b` of MegaSet's deck, where the index is five base-3 digits.
    private static let borderedCompletionTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 243 * 243)
        for a in 0..<243 {
            for b in 0..<243 {
                var index = 0
                var place = 1
                var (x, y) = (a, b)
                for _ in 0..<5 {
                    index += (6 - x % 3 - y % 3) % 3 * place
                    (x, y, place) = (x / 3, y / 3, place * 3)
                }
                table[a * 243 + b] = UInt8(index)
            }
        }
        return table
    }()

    /// Returns whether the three cards form a set (never, when one has a fourth value).
    public static func isSet(_ a: Card, _ b: Card, _ c: Card) -> Bool {
        guard !a.hasFourthValue, !b.hasFourthValue, !c.hasFourthValue else { return false }
        return a != b && completing(a, b) == c
    }

    /// Returns the one card that makes a set with `a` and `b` (for `a == b` that is `a` itself); neither
    /// may have a fourth value, since with four values two cards do not settle a third.
    public static func completing(_ a: Card, _ b: Card) -> Card {
        if a.index < 81, b.index < 81 { return Card(index: Int(completionTable[a.index &* 81 &+ b.index])) }
        precondition(
            !a.hasFourthValue && !b.hasFourthValue, "a card with a fourth value completes no set of three")
        return Card(index: Int(borderedCompletionTable[a.index &* 243 &+ b.index]))
    }

    /// Every set among `cards`, as ascending triples of positions in `cards`, in ascending order.
    ///
    /// Runs in O(n²): for each pair, the completing card is looked up in a position table.
    public static func allSets(in cards: [Card]) -> [[Int]] {
        var sets: [[Int]] = []
        forEachSet(in: cards) { i, j, k in
            sets.append([i, j, k])
            return true
        }
        return sets
    }

    /// Returns whether there is at least one set among `cards`.
    public static func containsSet(_ cards: [Card]) -> Bool {
        var found = false
        forEachSet(in: cards) { _, _, _ in
            found = true
            return false
        }
        return found
    }

    /// Calls `body` with the ascending positions of each set until it returns `false`.
    static func forEachSet(in cards: [Card], _ body: (Int, Int, Int) -> Bool) {
        guard cards.count >= 3 else { return }
        var isClassic = true
        withUnsafeTemporaryAllocation(of: Int8.self, capacity: 81) { position in
            position.initialize(repeating: -1)
            for (i, card) in cards.enumerated() where i < 127 {
                // MegaSet's cards are past the classic table: they take the 243-card search below. Checked
                // while the positions are written, as this runs for every board the game looks at.
                guard card.isClassic else {
                    isClassic = false
                    return
                }
                position[card.index] = Int8(i)
            }
            completionTable.withUnsafeBufferPointer { table in
                for i in 0..<cards.count - 2 {
                    let row = cards[i].index &* 81
                    for j in (i + 1)..<cards.count - 1 {
                        let k = Int(position[Int(table[row &+ cards[j].index])])
                        if k > j, !body(i, j, k) { return }
                    }
                }
            }
        }
        if !isClassic { forEachBorderedSet(in: cards, body) }
    }

    /// `forEachSet` for boards with MegaSet's cards: the same search over the 243-card table.
    private static func forEachBorderedSet(in cards: [Card], _ body: (Int, Int, Int) -> Bool) {
        precondition(
            !cards.contains(where: \.hasFourthValue), "a card with a fourth value is in no set of three")
        var position = [Int](repeating: -1, count: 243)
        for (i, card) in cards.enumerated() { position[card.index] = i }
        for i in 0..<cards.count - 2 {
            let row = cards[i].index &* 243
            for j in (i + 1)..<cards.count - 1 {
                let k = position[Int(borderedCompletionTable[row &+ cards[j].index])]
                if k > j, !body(i, j, k) { return }
            }
        }
    }

    /// The attributes the rules compare, by name, with each card's value in words.
    static let attributes: [(name: String, value: @Sendable (Card) -> String)] = [
        ("count", { "\($0.count)" }),
        ("colour", { $0.colour.description }),
        ("fill", { $0.fill.description }),
        ("shape", { $0.shape.description }),
        ("border", { $0.border.description }),
    ]

    /// Says in words why three cards are not a set, naming the first attribute that fails
    /// (for example "colour: two red, one green"), or returns `nil` when they are a set.
    public static func whyNotSet(_ a: Card, _ b: Card, _ c: Card) -> String? {
        if a == b || b == c || a == c { return "the same card twice" }
        if a.hasFourthValue || b.hasFourthValue || c.hasFourthValue {
            return "4Set's cards make sets of four, not three"
        }
        return whyNotAllSameOrDifferent(a, b, c)
    }

    /// The first attribute in which three cards (not necessarily different) are neither all the same nor
    /// all different, in words, or `nil` if there is none: the rule of a set, said of ghost cards too.
    static func whyNotAllSameOrDifferent(_ a: Card, _ b: Card, _ c: Card) -> String? {
        // The common case, every accepted claim, needs no words: a table look-up, not five string maps.
        if !a.hasFourthValue, !b.hasFourthValue, completing(a, b) == c { return nil }
        for (name, value) in attributes {
            let values = [a, b, c].map(value)
            guard Set(values).count == 2 else { continue }
            let pair = values.first { v in values.filter { $0 == v }.count == 2 }!
            let odd = values.first { $0 != pair }!
            return "\(name): two \(pair), one \(odd)"
        }
        return nil
    }

    /// Returns whether four distinct cards split into two pairs that are completed by the same card
    /// (an Ultra SET).
    public static func isUltraSet(_ cards: [Card]) -> Bool {
        ultraPairing(cards) != nil
    }

    /// The pairing of four cards into two pairs with the same completing card, as two pairs of
    /// positions in `cards`, or `nil` if there is none.
    public static func ultraPairing(_ cards: [Card]) -> ((Int, Int), (Int, Int))? {
        guard cards.count == 4, Set(cards).count == 4 else { return nil }
        let pairings = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
        return pairings.first { p, q in
            completing(cards[p.0], cards[p.1]) == completing(cards[q.0], cards[q.1])
        }
    }

    /// Every Ultra SET among `cards`, as ascending quadruples of positions, in ascending order.
    public static func allUltraSets(in cards: [Card]) -> [[Int]] {
        sortedUltraSets(in: cards).map { [$0.0, $0.1, $0.2, $0.3] }
    }

    /// Every Ultra SET among `cards`, as ascending quadruples of positions in ascending order, as tuples:
    /// sorted without an array per quadruple (hints and puzzle boards ask for every claim of a board).
    static func sortedUltraSets(in cards: [Card]) -> [(Int, Int, Int, Int)] {
        var found: [(Int, Int, Int, Int)] = []
        forEachUltraSet(in: cards) { a, b, c, d in
            // A sorting network for four: each pair in order, then the smallest and largest settled,
            // then the middle two.
            var (a, b, c, d) = (min(a, b), max(a, b), min(c, d), max(c, d))
            (a, c) = (min(a, c), max(a, c))
            (b, d) = (min(b, d), max(b, d))
            (b, c) = (min(b, c), max(b, c))
            found.append((a, b, c, d))
            return true
        }
        found.sort { $0 < $1 }
        return found
    }

    /// Returns whether there is at least one Ultra SET among `cards`.
    public static func containsUltraSet(_ cards: [Card]) -> Bool {
        var found = false
        forEachUltraSet(in: cards) { _, _, _, _ in
            found = true
            return false
        }
        return found
    }

    /// Calls `body` with the positions of each Ultra SET (in no particular order) until it returns `false`.
    ///
    /// Groups all pairs by the card that completes them (O(n²), a counting sort into 81 groups, 243 with
    /// MegaSet's borders); two pairs
    /// of four different cards in one group are an Ultra SET. Each one is found once: four different cards
    /// split into two pairs completed by the same card in at most one way (a + b ≡ c + d and
    /// a + c ≡ b + d mod 3 in every attribute would make b and c the same card).
    static func forEachUltraSet(in cards: [Card], _ body: (Int, Int, Int, Int) -> Bool) {
        let n = cards.count
        guard n >= 4 else { return }
        // MegaSet's bordered cards complete into 243 cards; the classic deck into 81.
        let groups = cards.allSatisfy(\.isClassic) ? 81 : 243
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * groups + 1) { table in
            withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: n * (n - 1) / 2) { pairs in
                // Group c's pairs are pairs[groupStart[c]..<groupStart[c + 1]], placed through next[c].
                let groupStart = UnsafeMutableBufferPointer(rebasing: table[0...groups])
                let next = UnsafeMutableBufferPointer(rebasing: table[(groups + 1)...])
                groupStart.initialize(repeating: 0)
                for i in 0..<n {
                    for j in (i + 1)..<n { groupStart[completing(cards[i], cards[j]).index + 1] += 1 }
                }
                for c in 0..<groups { groupStart[c + 1] += groupStart[c] }
                for c in 0..<groups { next.initializeElement(at: c, to: groupStart[c]) }
                for i in 0..<n {
                    for j in (i + 1)..<n {
                        let c = completing(cards[i], cards[j]).index
                        pairs.initializeElement(at: next[c], to: (i, j))
                        next[c] += 1
                    }
                }
                for c in 0..<groups {
                    for x in groupStart[c]..<groupStart[c + 1] {
                        for y in (x + 1)..<groupStart[c + 1] {
                            let (first, second) = pairs[x]
                            let (third, fourth) = pairs[y]
                            // Two pairs with one completion share a card only when `cards` repeats one.
                            // Compared before the quadruple is made: most pairs of pairs are not sets.
                            let (ia, ib, ic, id) = (
                                cards[first].index, cards[second].index, cards[third].index,
                                cards[fourth].index
                            )
                            let distinct =
                                ia != ib && ia != ic && ia != id && ib != ic && ib != id && ic != id
                            if distinct, !body(first, second, third, fourth) { return }
                        }
                    }
                }
            }
        }
    }
}
