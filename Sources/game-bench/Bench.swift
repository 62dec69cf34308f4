import SetGame

/// The median and 90th percentile of a benchmark's samples, in nanoseconds per iteration.
struct Measurement {
    var name: String
    var unit: String
    var median: Double
    var p90: Double
    var goal: Double?
}

/// Runs `body` `iterations` times per sample, `samples` times, after a warm-up sample, and returns the
/// per-iteration times. `body` gets the iteration number and returns a value folded into `checksum`.
func measure(
    _ name: String, samples: Int, iterations: Int, unit: String = "ns", goal: Double? = nil,
    checksum: inout Int, _ body: (Int) -> Int
) -> Measurement {
    let clock = ContinuousClock()
    var perIteration: [Double] = []
    perIteration.reserveCapacity(samples)
    for sample in -1..<samples {
        var sum = 0
        let start = clock.now
        for i in 0..<iterations { sum &+= body(i) }
        let elapsed = clock.now - start
        checksum = checksum &* 31 &+ sum
        guard sample >= 0 else { continue }  // The first sample only warms up.
        let (seconds, attoseconds) = elapsed.components
        let ns = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        perIteration.append(ns / Double(iterations))
    }
    perIteration.sort()
    let scale = unit == "µs" ? 1e-3 : 1
    return Measurement(
        name: name, unit: unit, median: percentile(perIteration, 50) * scale,
        p90: percentile(perIteration, 90) * scale, goal: goal)
}

/// The `percent` percentile of sorted values (nearest rank).
func percentile(_ sorted: [Double], _ percent: Int) -> Double {
    let rank = (percent * sorted.count + 99) / 100 - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// `count` boards of `size` distinct random cards each, from a fixed seed.
func randomBoards(count: Int, size: Int, seed: UInt64) -> [[Card]] {
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { _ in
        var deck = Card.all
        for i in 0..<size { deck.swapAt(i, i + generator.next(below: deck.count - i)) }
        return Array(deck.prefix(size))
    }
}

/// Plays one game of SET to the end by always claiming the first possible set; returns a checksum.
func playWholeGame(seed: UInt64) -> Int {
    var game = SetGame(seed: seed)
    var claims = 0
    while !game.isOver, let claim = game.possibleClaims.first {
        if case .success = game.claim(.cards(claim), by: "bench") { claims += 1 }
    }
    return claims &* 100 &+ game.board.count &+ game.revision
}

/// Formats a number right-aligned in `width` columns with `decimals` places.
func pad(_ value: Double, decimals: Int, width: Int) -> String {
    let scaled = value * pow10(decimals)
    let negative = scaled < 0
    var digits = String(Int(abs(scaled) + 0.5))
    if decimals > 0 {
        while digits.count <= decimals { digits = "0" + digits }
        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
    }
    return pad((negative ? "-" : "") + digits, width: width)
}

func pad(_ text: String, width: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + fill : fill + text
}

private func pow10(_ n: Int) -> Double { (0..<n).reduce(1) { x, _ in x * 10 } }

/// Prints the measurements as a table, with whether each goal was met.
func printTable(_ rows: [Measurement]) {
    let nameWidth = max(28, rows.map(\.name.count).max() ?? 0)
    print(
        pad("benchmark", width: nameWidth, left: true), "unit", pad("median", width: 10),
        pad("p90", width: 10), pad("goal", width: 10), " ok")
    print(String(repeating: "-", count: nameWidth + 44))
    for row in rows {
        let goal = row.goal.map { pad($0, decimals: 0, width: 10) } ?? pad("-", width: 10)
        let ok = row.goal.map { row.median < $0 ? "yes" : "NO" } ?? "  -"
        print(
            pad(row.name, width: nameWidth, left: true), pad(row.unit, width: 4, left: true),
            pad(row.median, decimals: 1, width: 10), pad(row.p90, decimals: 1, width: 10), goal, ok)
    }
}
