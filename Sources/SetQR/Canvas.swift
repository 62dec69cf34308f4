/// A symbol of one version with its function patterns drawn (ISO/IEC 18004, 6.3): finder patterns with
/// their separators, timing patterns, alignment patterns, the dark module, the version information, and
/// the format information's modules reserved; then the data placed around them and masked.
struct Canvas {
    /// The version being drawn.
    let version: SymbolVersion
    /// The function patterns; the format information's modules are left light until a mask is chosen.
    private(set) var modules: BitMatrix
    /// Which modules belong to function patterns (and so are neither data nor masked).
    private(set) var isFunction: BitMatrix

    /// The generator of the format information's BCH (15, 5) code (annex C).
    static let formatGenerator = 0b101_0011_0111
    /// What the format information is xor'ed with, so that it is never all light (annex C).
    static let formatMask = 0b101_0100_0001_0010
    /// The generator of the version information's BCH (18, 6) code (annex D).
    static let versionGenerator = 0b1_1111_0010_0101
    /// Level M's two bits in the format information (table 12).
    static let levelMBits = 0b00

    init(version: SymbolVersion) {
        self.version = version
        let size = version.size
        modules = BitMatrix(size: size)
        isFunction = BitMatrix(size: size)
        // Timing patterns first: the finders' separators then overwrite their ends.
        for index in 0..<size {
            set(row: 6, column: index, dark: index % 2 == 0)
            set(row: index, column: 6, dark: index % 2 == 0)
        }
        for (row, column) in [(3, 3), (3, size - 4), (size - 4, 3)] {
            drawFinder(centreRow: row, centreColumn: column)
        }
        let centres = version.alignmentCentres
        for row in centres {
            for column in centres {
                // None where a finder is: the top left, top right and bottom left corners.
                let first = centres.first!
                let last = centres.last!
                if (row, column) == (first, first) || (row, column) == (first, last)
                    || (row, column) == (last, first)
                {
                    continue
                }
                drawAlignment(centreRow: row, centreColumn: column)
            }
        }
        // Reserve the format information's two copies; `finished(_:mask:)` draws them.
        for index in 0...8 {
            set(row: 8, column: index, dark: false)
            set(row: index, column: 8, dark: false)
        }
        for index in 0..<8 {
            set(row: 8, column: size - 1 - index, dark: false)
            set(row: size - 1 - index, column: 8, dark: false)
        }
        // The dark module beside the bottom left format information is always dark (figure 25).
        set(row: size - 8, column: 8, dark: true)
        // Timing modules overwritten by the reservation above come back.
        set(row: 6, column: 8, dark: true)
        set(row: 8, column: 6, dark: true)
        if version.number >= 7 { drawVersionInformation() }
    }

    /// The format information's 15 bits for `mask` at level M, least significant bit first in placement
    /// order.
    static func formatBits(mask: QRCode.Mask) -> Int {
        let data = levelMBits << 3 | mask.reference
        return (data << 10 | bchRemainder(data, degree: 10, generator: formatGenerator)) ^ formatMask
    }

    /// The version information's 18 bits: the version in 6 bits, then its BCH (18, 6) remainder.
    static func versionBits(version: Int) -> Int {
        version << 12 | bchRemainder(version, degree: 12, generator: versionGenerator)
    }

    /// The remainder of `data` × x^`degree` divided by `generator`, polynomials over GF(2) as bits.
    static func bchRemainder(_ data: Int, degree: Int, generator: Int) -> Int {
        var value = data << degree
        for bit in stride(from: Int.bitWidth - 2, through: degree, by: -1) where value >> bit & 1 == 1 {
            value ^= generator << (bit - degree)
        }
        return value
    }

    /// The function patterns with `codewords` placed in the data modules (ISO/IEC 18004, 7.7.3): in
    /// columns two modules wide from the bottom right, upwards then downwards in turn, skipping the
    /// vertical timing pattern, each codeword's most significant bit first. Modules left over are the
    /// remainder bits, light before masking.
    func placing(_ codewords: [UInt8]) -> BitMatrix {
        var result = modules
        let size = version.size
        let bitCount = codewords.count * 8
        var index = 0
        var upward = true
        var right = size - 1
        while right > 0 {
            // The column pair that would hold the vertical timing pattern moves one left.
            if right == 6 { right = 5 }
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for column in [right, right - 1] where !isFunction[row, column] {
                    if index < bitCount {
                        result[row, column] = codewords[index / 8] >> UInt8(7 - index % 8) & 1 == 1
                    }
                    index += 1
                }
            }
            upward.toggle()
            right -= 2
        }
        precondition(
            index >= bitCount && index - bitCount < 8, "the version's codewords fill its data modules")
        return result
    }

    /// `placed` with `mask` applied to the data modules and the format information for `mask` drawn.
    func finished(_ placed: BitMatrix, mask: QRCode.Mask) -> BitMatrix {
        var result = placed
        let size = version.size
        for row in 0..<size {
            for column in 0..<size where !isFunction[row, column] && mask.flips(row: row, column: column) {
                result[row, column].toggle()
            }
        }
        let bits = Self.formatBits(mask: mask)
        for index in 0..<15 {
            let dark = bits >> index & 1 == 1
            // The copy beside the top left finder: down column 8, skipping the timing row, then left along
            // row 8, skipping the timing column.
            let first =
                switch index {
                case 0...5: (index, 8)
                case 6: (7, 8)
                case 7: (8, 8)
                case 8: (8, 7)
                default: (8, 14 - index)
                }
            result[first.0, first.1] = dark
            // The copy split between the top right (row 8) and bottom left (column 8) finders.
            let second = index < 8 ? (8, size - 1 - index) : (size - 15 + index, 8)
            result[second.0, second.1] = dark
        }
        return result
    }

    private mutating func set(row: Int, column: Int, dark: Bool) {
        modules[row, column] = dark
        isFunction[row, column] = true
    }

    /// A 7 × 7 finder pattern (dark ring, light ring, dark 3 × 3 centre) and its light separator, clipped
    /// to the symbol.
    private mutating func drawFinder(centreRow: Int, centreColumn: Int) {
        for row in centreRow - 4...centreRow + 4 {
            for column in centreColumn - 4...centreColumn + 4
            where (0..<version.size).contains(row) && (0..<version.size).contains(column) {
                let ring = max(abs(row - centreRow), abs(column - centreColumn))
                set(row: row, column: column, dark: ring != 2 && ring != 4)
            }
        }
    }

    /// A 5 × 5 alignment pattern: dark ring, light ring, dark centre.
    private mutating func drawAlignment(centreRow: Int, centreColumn: Int) {
        for row in centreRow - 2...centreRow + 2 {
            for column in centreColumn - 2...centreColumn + 2 {
                set(
                    row: row, column: column, dark: max(abs(row - centreRow), abs(column - centreColumn)) != 1
                )
            }
        }
    }

    /// The version information's two copies, 6 × 3 above the bottom left finder and 3 × 6 left of the top
    /// right one (annex D, figure D.1): bit i at row i / 3, column size − 11 + i % 3, and transposed.
    private mutating func drawVersionInformation() {
        let bits = Self.versionBits(version: version.number)
        let size = version.size
        for index in 0..<18 {
            let dark = bits >> index & 1 == 1
            set(row: index / 3, column: size - 11 + index % 3, dark: dark)
            set(row: size - 11 + index % 3, column: index / 3, dark: dark)
        }
    }
}
