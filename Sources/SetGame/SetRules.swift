/// The rule of SET and the searches built on it.
///
/// Three cards form a set when, for each of the four attributes, their values are all the same or all
/// different. With values 0, 1, 2 that is exactly "the three values add up to a multiple of 3", so any two
/// cards determine the one card that completes them.
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

    /// Returns whether the three cards form a set.
    public static func isSet(_ a: Card, _ b: Card, _ c: Card) -> Bool {
        a != b && completing(a, b) == c
    }

    /// Returns the one card that makes a set with `a` and `b` (for `a == b` that is `a` itself).
    public static func completing(_ a: Card, _ b: Card) -> Card {
        Card(index: Int(completionTable[a.index &* 81 &+ b.index]))
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
        withUnsafeTemporaryAllocation(of: Int8.self, capacity: 81) { position in
            position.initialize(repeating: -1)
            for (i, card) in cards.enumerated() where i < 127 { position[card.index] = Int8(i) }
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
    }

    /// Says in words why three cards are not a set, naming the first attribute that fails
    /// (for example "colour: two red, one green"), or returns `nil` when they are a set.
    public static func whyNotSet(_ a: Card, _ b: Card, _ c: Card) -> String? {
        if a == b || b == c || a == c { return "the same card twice" }
        // The common case, every accepted claim, needs no words: a table look-up, not four string maps.
        if completing(a, b) == c { return nil }
        let attributes: [(String, (Card) -> String)] = [
            ("count", { "\($0.count)" }),
            ("colour", { $0.colour.description }),
            ("fill", { $0.fill.description }),
            ("shape", { $0.shape.description }),
        ]
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
        var found: [[Int]] = []
        forEachUltraSet(in: cards) { quad in
            found.append(quad.sorted())
            return true
        }
        return found.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Returns whether there is at least one Ultra SET among `cards`.
    public static func containsUltraSet(_ cards: [Card]) -> Bool {
        var found = false
        forEachUltraSet(in: cards) { _ in
            found = true
            return false
        }
        return found
    }

    /// Calls `body` with the positions of each Ultra SET (in no particular order) until it returns `false`.
    ///
    /// Groups all pairs by the card that completes them (O(n²), a counting sort into 81 groups); two pairs
    /// of four different cards in one group are an Ultra SET. Each one is found once: four different cards
    /// split into two pairs completed by the same card in at most one way (a + b ≡ c + d and
    /// a + c ≡ b + d mod 3 in every attribute would make b and c the same card).
    static func forEachUltraSet(in cards: [Card], _ body: ([Int]) -> Bool) {
        let n = cards.count
        guard n >= 4 else { return }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * 81 + 1) { table in
            withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: n * (n - 1) / 2) { pairs in
                // Group c's pairs are pairs[groupStart[c]..<groupStart[c + 1]], placed through next[c].
                let groupStart = UnsafeMutableBufferPointer(rebasing: table[0...81])
                let next = UnsafeMutableBufferPointer(rebasing: table[82...])
                groupStart.initialize(repeating: 0)
                for i in 0..<n {
                    for j in (i + 1)..<n { groupStart[completing(cards[i], cards[j]).index + 1] += 1 }
                }
                for c in 0..<81 { groupStart[c + 1] += groupStart[c] }
                for c in 0..<81 { next.initializeElement(at: c, to: groupStart[c]) }
                for i in 0..<n {
                    for j in (i + 1)..<n {
                        let c = completing(cards[i], cards[j]).index
                        pairs.initializeElement(at: next[c], to: (i, j))
                        next[c] += 1
                    }
                }
                for c in 0..<81 {
                    for x in groupStart[c]..<groupStart[c + 1] {
                        for y in (x + 1)..<groupStart[c + 1] {
                            let quad = [pairs[x].0, pairs[x].1, pairs[y].0, pairs[y].1]
                            // Two pairs with one completion share a card only when `cards` repeats one.
                            let distinct = quad.indices.allSatisfy { i in
                                quad[(i + 1)...].allSatisfy { cards[$0].index != cards[quad[i]].index }
                            }
                            if distinct, !body(quad) { return }
                        }
                    }
                }
            }
        }
    }
}
