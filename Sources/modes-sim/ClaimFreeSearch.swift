/// The largest collections of cards holding no claim of a kind, by exhaustive search: the figures behind
/// each mode's largest board (`SetMode.maximumBoardSize`), which grows only while it holds no claim.
///
/// A deck is the vectors of (Z_b)^d: three values (b = 3) or, for 4Set, two bits per attribute (b = 2,
/// exclusive or). A claim of k cards is k different cards adding up to zero (a set: k = 3; a GhostSet:
/// k = 6; a 4Set: k = 4 with exclusive or); an UltraSet is two pairs with the same sum. Every kind is
/// unchanged by moving all cards by one vector and by any invertible linear map, so the search may take
/// 0 to be in the collection, and each card that leaves the span of the cards before it to be the next
/// unit vector (the next power of b); it counts the candidates still allowed to prune.
struct ClaimFreeSearch {
    let base: Int
    let size: Int
    let claimSize: Int
    let isUltra: Bool
    private var sums: [Int]
    private var negation: [Int]
    /// `reach[j * size + v]`: some j cards of the collection add up to v (j < claimSize).
    private var reach: [Bool]
    private var pairSums: [Bool]
    private var chosen: [Int] = []
    private(set) var best: [Int] = []

    /// A search over (Z_base)^digits for claims of `claimSize` cards adding up to zero, or UltraSets.
    init(base: Int, digits: Int, claimSize: Int, isUltra: Bool = false) {
        self.base = base
        var size = 1
        for _ in 0..<digits { size *= base }
        self.size = size
        self.claimSize = claimSize
        self.isUltra = isUltra
        var sums = [Int](repeating: 0, count: size * size)
        for a in 0..<size {
            for b in 0..<size {
                var (x, y, sum, place) = (a, b, 0, 1)
                for _ in 0..<digits {
                    let digit = base == 2 ? (x % 2) ^ (y % 2) : (x % base + y % base) % base
                    sum += digit * place
                    (x, y, place) = (x / base, y / base, place * base)
                }
                sums[a * size + b] = sum
            }
        }
        self.sums = sums
        negation = (0..<size).map { a in (0..<size).first { sums[a * size + $0] == 0 }! }
        reach = [Bool](repeating: false, count: 7 * size)
        reach[0] = true
        pairSums = [Bool](repeating: false, count: size)
    }

    /// The largest claim-free collection (one of them).
    static func largest(base: Int, digits: Int, claimSize: Int, isUltra: Bool = false) -> [Int] {
        var search = ClaimFreeSearch(base: base, digits: digits, claimSize: claimSize, isUltra: isUltra)
        search.add(0)
        search.extend(after: 0)
        return search.best
    }

    private func allows(_ x: Int) -> Bool {
        if isUltra { return !chosen.contains { pairSums[sums[x * size + $0]] } }
        return !reach[(claimSize - 1) * size + negation[x]]
    }

    private mutating func add(_ x: Int) {
        if isUltra {
            for c in chosen { pairSums[sums[x * size + c]] = true }
        } else {
            for j in stride(from: claimSize - 1, through: 1, by: -1) {
                for v in 0..<size where reach[(j - 1) * size + v] {
                    reach[j * size + sums[v * size + x]] = true
                }
            }
        }
        chosen.append(x)
    }

    private mutating func extend(after last: Int) {
        if chosen.count > best.count { best = chosen }
        let candidates = (last + 1..<size).filter(allows)
        guard chosen.count + candidates.count > best.count else { return }
        for (i, x) in candidates.enumerated() {
            guard chosen.count + candidates.count - i > best.count else { return }
            // Symmetry: the first card outside the span of those below base^k may be base^k itself.
            var power = 1
            var isSpanJump = false
            while power < size {
                if last < power && x > power { isSpanJump = true }
                power *= base
            }
            guard !isSpanJump, allows(x) else { continue }
            let (savedReach, savedPairs) = (reach, pairSums)
            add(x)
            extend(after: x)
            chosen.removeLast()
            (reach, pairSums) = (savedReach, savedPairs)
        }
    }
}
