import Testing

@testable import SetQR

/// The four penalty rules of ISO/IEC 18004 (table 11), on lines and matrices made by hand, and the mask
/// choice they drive.
@Suite struct PenaltyTests {
    static func line(_ pattern: String) -> [Bool] { pattern.map { $0 == "#" } }

    @Test func runsOfFiveOrMoreCostThreePlusOnePerExtraModule() {
        #expect(Penalty.lineScore(Self.line("#.#.#.#.#.")) == 0)
        #expect(Penalty.lineScore(Self.line("####.#.#.#")) == 0)
        #expect(Penalty.lineScore(Self.line("#####.#.#.")) == 3)
        #expect(Penalty.lineScore(Self.line(".#.#.######")) == 4)
        #expect(Penalty.lineScore(Self.line("......#.#.#.#.#####")) == 4 + 3)
    }

    /// 1:1:3:1:1 with four light units on a side, at any scale; outside the symbol is light.
    @Test func finderLikePatternsCostFortyForEachSideWithFourLightUnits() {
        #expect(Penalty.lineScore(Self.line("....#.###.#.#")) == 40)
        #expect(Penalty.lineScore(Self.line("#.#.###.#....")) == 40)
        // At the edge of the symbol the quiet zone is the light on both sides.
        #expect(Penalty.lineScore(Self.line("#.###.#")) == 80)
        // Twice the scale, with four doubled units of light before (and runs of 8 light and 6 dark).
        #expect(Penalty.lineScore(Self.line("........##..######..##..#")) == 40 + 6 + 4)
        // Not the ratio, or not enough light.
        #expect(Penalty.lineScore(Self.line("#.#.##.#.#.#")) == 0)
        #expect(Penalty.lineScore(Self.line("#.#...#.###.#...#.#")) == 0)
    }

    @Test func twoByTwoBlocksAndImbalanceAreCounted() {
        // All light: each of the 20 × 20 two-by-two blocks, 21 runs of 21 in each direction, and a share
        // of dark 50% away from half, k = 9.
        let light = BitMatrix(size: 21)
        #expect(Penalty.score(light) == 400 * 3 + 42 * (3 + 16) + 9 * 10)
        // A checkerboard: no runs, no blocks, no finder-like patterns, and 221 of 441 dark (50.1%).
        var checkerboard = BitMatrix(size: 21)
        for row in 0..<21 {
            for column in 0..<21 where (row + column) % 2 == 0 { checkerboard[row, column] = true }
        }
        #expect(Penalty.score(checkerboard) == 0)
    }

    /// The encoder keeps the mask of lowest penalty, the lowest reference on a tie.
    @Test func theChosenMaskHasTheLowestPenalty() throws {
        var generator = SeededBytes(seed: 18004)
        for count in [0, 5, 14, 30, 60, 100, 150, 213] {
            let bytes = generator.bytes(count)
            let chosen = try QRCode(bytes: bytes)
            let scores = try QRCode.Mask.allCases.map {
                Penalty.score(try QRCode(bytes: bytes, mask: $0).modules)
            }
            #expect(
                scores.firstIndex(of: scores.min()!) == chosen.mask.reference, "\(count) bytes: \(scores)")
        }
    }
}
