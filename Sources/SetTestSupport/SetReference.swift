import SetGame

/// The rules of SET written straight from their definitions, slow and obvious on purpose, for `SetRules`
/// and `SetGame` to be checked against by the tests and the fuzzers alike.
public enum SetReference {
    /// Each card's count, colour, fill and shape as 0, 1 or 2, read from its public properties, by index.
    private static let attributes: [(Int, Int, Int, Int)] = Card.all.map { card in
        (card.count - 1, card.colour.rawValue, card.fill.rawValue, card.shape.rawValue)
    }

    /// Whether three values are all the same or all different.
    private static func sameOrDifferent(_ a: Int, _ b: Int, _ c: Int) -> Bool {
        (a == b && b == c) || (a != b && b != c && a != c)
    }

    /// Whether `a`, `b` and `c` are a set, by the rules of SET: three different cards where each
    /// attribute (count, colour, fill, shape) is all the same or all different.
    public static func isSet(_ a: Card, _ b: Card, _ c: Card) -> Bool {
        guard a.index != b.index, b.index != c.index, a.index != c.index else { return false }
        let (x, y, z) = (attributes[a.index], attributes[b.index], attributes[c.index])
        return sameOrDifferent(x.0, y.0, z.0) && sameOrDifferent(x.1, y.1, z.1)
            && sameOrDifferent(x.2, y.2, z.2) && sameOrDifferent(x.3, y.3, z.3)
    }

    /// Whether the pair (`a`, `b`) and the pair (`c`, `d`) are made a set by the same third card: with
    /// attribute values 0–2, the card completing a pair has −(a + b) mod 3 in every attribute, so the
    /// pairs share it when a + b ≡ c + d (mod 3) in every attribute.
    public static func samePairSum(_ a: Card, _ b: Card, _ c: Card, _ d: Card) -> Bool {
        let (w, x, y, z) = (
            attributes[a.index], attributes[b.index], attributes[c.index], attributes[d.index]
        )
        return (w.0 + x.0) % 3 == (y.0 + z.0) % 3 && (w.1 + x.1) % 3 == (y.1 + z.1) % 3
            && (w.2 + x.2) % 3 == (y.2 + z.2) % 3 && (w.3 + x.3) % 3 == (y.3 + z.3) % 3
    }

    /// Whether `a`, `b`, `c` and `d` are an Ultra SET, by the rules of Ultra SET: four different cards
    /// that split into two pairs made a set by the same third card.
    public static func isUltra(_ a: Card, _ b: Card, _ c: Card, _ d: Card) -> Bool {
        let (a1, b1, c1, d1) = (a.index, b.index, c.index, d.index)
        guard a1 != b1, a1 != c1, a1 != d1, b1 != c1, b1 != d1, c1 != d1 else { return false }
        return samePairSum(a, b, c, d) || samePairSum(a, c, b, d) || samePairSum(a, d, b, c)
    }

    /// Whether `cards` are a valid claim in `mode`, as protocol.md describes the modes: a set (of the 27
    /// solid cards in junior), an Ultra SET in ultra, and in chain mode a set that, while there is a
    /// chain, reuses exactly one card of it.
    public static func isValidClaim(_ cards: [Card], mode: SetMode, chain: [Card]?) -> Bool {
        switch mode {
        case .normal, .junior: return cards.count == 3 && isSet(cards[0], cards[1], cards[2])
        case .ultra: return cards.count == 4 && isUltra(cards[0], cards[1], cards[2], cards[3])
        case .chain:
            guard cards.count == 3, isSet(cards[0], cards[1], cards[2]) else { return false }
            guard let chain else { return true }
            return cards.filter(chain.contains).count == 1
        case .ultrachain, .ultra9, .megaset, .ghostset, .fourSet, .fourSetJunior, .puzzle, .shuffle, .memory:
            return ModeReference.isValidClaim(cards, mode: mode, chain: chain)
        }
    }

    // MARK: Brute-force finders

    /// Every set among `cards`, found by trying every triple, as ascending positions in ascending order.
    public static func allSets(in cards: [Card]) -> [[Int]] {
        var sets: [[Int]] = []
        for i in cards.indices {
            for j in cards.indices where j > i {
                for k in cards.indices where k > j && isSet(cards[i], cards[j], cards[k]) {
                    sets.append([i, j, k])
                }
            }
        }
        return sets
    }

    /// Every Ultra SET among `cards`, found by trying every quadruple, as ascending positions in
    /// ascending order.
    public static func allUltraSets(in cards: [Card]) -> [[Int]] {
        var found: [[Int]] = []
        for i in cards.indices {
            for j in cards.indices where j > i {
                for k in cards.indices where k > j {
                    for l in cards.indices where l > k && isUltra(cards[i], cards[j], cards[k], cards[l]) {
                        found.append([i, j, k, l])
                    }
                }
            }
        }
        return found
    }

    /// A claim as a value that ignores the order of its cards: one bit per card (81 bits in two words).
    public struct ClaimKey: Hashable, Sendable {
        /// The bits of the cards with index 0–63.
        public var low: UInt64 = 0
        /// The bits of the cards with index 64–80.
        public var high: UInt64 = 0

        /// Creates the key of the empty claim.
        public init() {}

        /// The cards of this claim, in index order.
        public var cards: [Card] {
            (0..<81).filter { ($0 < 64 ? low >> UInt64($0) : high >> UInt64($0 - 64)) & 1 == 1 }.map(
                Card.init(index:))
        }

        /// The key of this claim with `card` added.
        public func adding(_ card: Card) -> ClaimKey {
            var key = self
            if card.index < 64 {
                key.low |= 1 << UInt64(card.index)
            } else {
                key.high |= 1 << UInt64(card.index - 64)
            }
            return key
        }
    }

    /// The key of the claim made of `cards`, whatever their order.
    public static func key(_ cards: [Card]) -> ClaimKey {
        cards.reduce(ClaimKey()) { $0.adding($1) }
    }

    /// Every valid claim in `mode` on `board` (and, in chain mode, with the `chain` cards), found by trying
    /// every combination of cards with `isValidClaim`'s rules.
    public static func allClaims(board: [Card], mode: SetMode, chain: [Card]?) -> Set<ClaimKey> {
        let pool = board + (chain ?? [])
        // In chain mode the pool ends with the chain cards: a chained claim has exactly one of them.
        let chainStart = chain == nil ? pool.count : board.count
        var found = Set<ClaimKey>()
        let n = pool.count
        for i in 0..<n {
            for j in (i + 1)..<n {
                for k in (j + 1)..<n {
                    if mode == .ultra {
                        for l in (k + 1)..<n where isUltra(pool[i], pool[j], pool[k], pool[l]) {
                            found.insert(
                                ClaimKey().adding(pool[i]).adding(pool[j]).adding(pool[k]).adding(pool[l]))
                        }
                    } else if isSet(pool[i], pool[j], pool[k]),
                        chain == nil || [i, j, k].filter({ $0 >= chainStart }).count == 1
                    {
                        found.insert(ClaimKey().adding(pool[i]).adding(pool[j]).adding(pool[k]))
                    }
                }
            }
        }
        return found
    }

    // MARK: The board after a claim

    /// The board after removing the cards at `positions`, as `SetGame` documents it: holes are refilled
    /// in place, in ascending order, with the next cards of `deck` while the board would otherwise hold
    /// fewer than 12 cards; any holes left are closed by repeatedly moving the last card into the first
    /// hole (or dropping the last position when it is itself a hole). Returns the board and how many deck
    /// cards it used; the extra cards dealt afterwards are not included.
    public static func boardAfterTaking(positions: [Int], from board: [Card], deck: [Card]) -> (
        board: [Card], used: Int
    ) {
        var slots: [Card?] = board
        var holes = positions.sorted()
        var used = 0
        while let hole = holes.first, board.count - holes.count < SetGame.boardSize, used < deck.count {
            slots[hole] = deck[used]
            used += 1
            holes.removeFirst()
        }
        for hole in holes { slots[hole] = nil }
        while let firstHole = slots.firstIndex(where: { $0 == nil }) {
            let last = slots.removeLast()
            if let last, firstHole < slots.count { slots[firstHole] = last }
        }
        return (slots.map { $0! }, used)
    }

    /// The board after taking `cards` (those of them on `board`), as `boardAfterTaking(positions:from:deck:)`
    /// describes it.
    public static func boardAfterTaking(_ cards: [Card], from board: [Card], deck: [Card]) -> (
        board: [Card], used: Int
    ) {
        boardAfterTaking(
            positions: board.indices.filter { cards.contains(board[$0]) }, from: board, deck: deck)
    }
}
