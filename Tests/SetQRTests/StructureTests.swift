import Testing

@testable import SetQR

/// The function patterns, format and version information of symbols of every version, read back from
/// the module matrix.
@Suite struct StructureTests {
    /// One symbol of each version 1 to 10, and one for each of the eight masks.
    static let codes: [QRCode] = {
        var codes = QRCode.versions.map { version in
            try! QRCode(bytes: [UInt8](repeating: 0x41, count: QRCode.byteCapacity(ofVersion: version)))
        }
        codes += QRCode.Mask.allCases.map { try! QRCode(text: "http://192.168.1.20:7777/", mask: $0) }
        return codes
    }()

    /// Annex C, table C.1: the format information of level M for masks 0 to 7, after the xor with
    /// 101010000010010.
    static let publishedFormatBits = [
        0b101_0100_0001_0010, 0b101_0001_0010_0101, 0b101_1110_0111_1100, 0b101_1011_0100_1011,
        0b100_0101_1111_1001, 0b100_0000_1100_1110, 0b100_1111_1001_0111, 0b100_1010_1010_0000,
    ]
    /// Annex D, table D.1: the version information of versions 7 to 10.
    static let publishedVersionBits = [7: 0x07C94, 8: 0x085BC, 9: 0x09A99, 10: 0x0A4D3]

    @Test(arguments: codes) func finderPatternsAndSeparatorsAreInTheThreeCorners(code: QRCode) {
        let last = code.size - 1
        for (top, left) in [(0, 0), (0, last - 6), (last - 6, 0)] {
            for row in -1...7 {
                for column in -1...7 {
                    let (r, c) = (top + row, left + column)
                    guard (0...last).contains(r) && (0...last).contains(c) else { continue }
                    // Rings from the centre: 3 × 3 dark, then light, dark, and the light separator.
                    let ring = max(abs(row - 3), abs(column - 3))
                    #expect(code.isDark(row: r, column: c) == (ring <= 1 || ring == 3), "(\(r), \(c))")
                }
            }
        }
    }

    @Test(arguments: codes) func timingPatternsAlternate(code: QRCode) {
        for index in 8...code.size - 9 {
            #expect(code.isDark(row: 6, column: index) == (index % 2 == 0), "row 6, column \(index)")
            #expect(code.isDark(row: index, column: 6) == (index % 2 == 0), "column 6, row \(index)")
        }
    }

    /// Alignment patterns sit on a grid from 6 to size − 7 (annex E), except where a finder is.
    @Test(arguments: codes) func alignmentPatternsAreWhereAnnexESaysAndNowhereNearTheFinders(code: QRCode) {
        let centres = SymbolVersion.all[code.version - 1].alignmentCentres
        #expect(centres.count == (code.version == 1 ? 0 : code.version / 7 + 2))
        if let first = centres.first, let last = centres.last {
            #expect(first == 6 && last == code.size - 7)
        }
        var drawn = 0
        for row in centres {
            for column in centres {
                let nearFinder =
                    (row < 9 && column < 9) || (row < 9 && column > code.size - 10)
                    || (row > code.size - 10 && column < 9)
                if nearFinder { continue }
                drawn += 1
                for dr in -2...2 {
                    for dc in -2...2 {
                        let ring = max(abs(dr), abs(dc))
                        #expect(
                            code.isDark(row: row + dr, column: column + dc) == (ring != 1),
                            "at (\(row), \(column))")
                    }
                }
            }
        }
        #expect(drawn == max(0, centres.count * centres.count - 3))
    }

    @Test(arguments: codes) func formatInformationIsTheStandardsInBothCopies(code: QRCode) {
        let size = code.size
        // Bit 14 first, as read: row 8 from the left (skipping the timing column), then column 8 upwards.
        let firstPositions: [(Int, Int)] =
            [(8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 7), (8, 8), (7, 8)]
            + [(5, 8), (4, 8), (3, 8), (2, 8), (1, 8), (0, 8)]
        // Column 8 upwards from the bottom, then row 8 from size − 8 to the right edge.
        let secondPositions: [(Int, Int)] =
            (0..<7).map { (size - 1 - $0, 8) } + (0..<8).map { (8, size - 8 + $0) }
        func read(_ positions: [(Int, Int)]) -> Int {
            positions.reduce(0) { $0 << 1 | (code.isDark(row: $1.0, column: $1.1) ? 1 : 0) }
        }
        let first = read(firstPositions)
        #expect(first == Self.publishedFormatBits[code.mask.reference], "\(code.mask)")
        #expect(read(secondPositions) == first)
        // Level M (00) and the mask in the five data bits, and a BCH (15, 5) codeword once unmasked.
        #expect((first ^ 0x5412) >> 10 == code.mask.reference)
        #expect(
            Canvas.bchRemainder((first ^ 0x5412) >> 10, degree: 10, generator: 0x537) == (first ^ 0x5412)
                & 0x3FF)
        #expect(code.isDark(row: size - 8, column: 8), "the dark module")
    }

    @Test func formatBitsAreTheStandardsForEveryMask() {
        #expect(QRCode.Mask.allCases.map { Canvas.formatBits(mask: $0) } == Self.publishedFormatBits)
        #expect(QRCode.Mask(reference: 8) == nil && QRCode.Mask(reference: -1) == nil)
    }

    @Test(arguments: codes.filter { $0.version >= 7 }) func versionInformationIsTheStandardsInBothCopies(
        code: QRCode
    ) {
        let size = code.size
        var bottomLeft = 0
        var topRight = 0
        for index in (0..<18).reversed() {
            bottomLeft =
                bottomLeft << 1 | (code.isDark(row: size - 11 + index % 3, column: index / 3) ? 1 : 0)
            topRight = topRight << 1 | (code.isDark(row: index / 3, column: size - 11 + index % 3) ? 1 : 0)
        }
        #expect(bottomLeft == Self.publishedVersionBits[code.version])
        #expect(topRight == bottomLeft)
    }

    /// What is left after the function patterns holds every codeword, and the remainder bits of table 1
    /// (7 for versions 2 to 6, none otherwise).
    @Test func theDataModulesHoldTheCodewordsAndTheRemainderBits() {
        for version in SymbolVersion.all {
            let canvas = Canvas(version: version)
            let dataModules = version.size * version.size - canvas.isFunction.setCount
            let remainder = (2...6).contains(version.number) ? 7 : 0
            #expect(dataModules == version.totalCodewords * 8 + remainder, "version \(version.number)")
        }
    }
}
