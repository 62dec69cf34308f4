/// The penalty of a masked symbol by the four rules of ISO/IEC 18004 (7.8.3, table 11); the encoder
/// keeps the mask with the lowest, so that readers find no false finder patterns and a balance of dark
/// and light.
enum Penalty {
    /// Rule 1: a run of five modules of one colour in a row or column, plus one per module longer.
    static let sameColourRun = 3
    /// Rule 2: every 2 × 2 block of one colour (an m × n block counts as (m − 1)(n − 1) of them).
    static let sameColourBlock = 3
    /// Rule 3: a 1:1:3:1:1 dark:light:dark:light:dark run with four units of light before or after,
    /// which a reader could take for a finder pattern.
    static let finderLike = 40
    /// Rule 4: every 5% that the share of dark modules strays from 50%, past the first 5%.
    static let imbalance = 10

    /// The total penalty of `modules`.
    static func score(_ modules: BitMatrix) -> Int {
        let size = modules.size
        var total = 0
        var line = [Bool](repeating: false, count: size)
        for row in 0..<size {
            for column in 0..<size { line[column] = modules[row, column] }
            total += lineScore(line)
        }
        for column in 0..<size {
            for row in 0..<size { line[row] = modules[row, column] }
            total += lineScore(line)
        }
        for row in 0..<size - 1 {
            for column in 0..<size - 1 {
                let colour = modules[row, column]
                if modules[row, column + 1] == colour && modules[row + 1, column] == colour
                    && modules[row + 1, column + 1] == colour
                {
                    total += sameColourBlock
                }
            }
        }
        // k is the smallest whole number with (45 − 5k)% ≤ dark share ≤ (55 + 5k)%.
        let dark = modules.setCount
        let all = size * size
        let k = (abs(dark * 20 - all * 10) + all - 1) / all - 1
        return total + k * imbalance
    }

    /// Rules 1 and 3 along one row or column.
    static func lineScore(_ line: [Bool]) -> Int {
        var runs: [(dark: Bool, length: Int)] = []
        for module in line {
            if let last = runs.last, last.dark == module {
                runs[runs.count - 1].length += 1
            } else {
                runs.append((module, 1))
            }
        }
        var total = 0
        for run in runs where run.length >= 5 { total += sameColourRun + run.length - 5 }
        // Outside the symbol is the quiet zone: light, and as wide as any pattern here needs.
        let outside = line.count
        if runs.first?.dark != false { runs.insert((false, 0), at: 0) }
        if runs.last?.dark != false { runs.append((false, 0)) }
        runs[0].length += outside
        runs[runs.count - 1].length += outside
        // Runs alternate in colour, so a dark run's neighbours at distance 1 and 3 are light, at 2 dark.
        for index in stride(from: 3, to: runs.count - 3, by: 1) where runs[index].dark {
            let unit = runs[index].length / 3
            guard unit > 0, runs[index].length == 3 * unit,
                [runs[index - 2], runs[index - 1], runs[index + 1], runs[index + 2]].allSatisfy({
                    $0.length == unit
                })
            else { continue }
            let before = runs[index - 3].length
            let after = runs[index + 3].length
            // Light of four units on one side, and of at least one on the other so that the
            // pattern's last dark unit ends there.
            if before >= 4 * unit && after >= unit { total += finderLike }
            if after >= 4 * unit && before >= unit { total += finderLike }
        }
        return total
    }
}
