/// What ISO/IEC 18004 fixes for one version at error correction level M, the only level this encoder
/// makes: the block structure of table 9 and the alignment pattern centres of annex E.
struct SymbolVersion: Sendable {
    /// The version, 1 to 10.
    let number: Int
    /// Error correction codewords in every block.
    let correctionCodewordsPerBlock: Int
    /// Blocks of the first group, each with `shortBlockDataCodewords` data codewords.
    let shortBlocks: Int
    /// Data codewords in a block of the first group.
    let shortBlockDataCodewords: Int
    /// Blocks of the second group, each with one data codeword more than the first group's.
    let longBlocks: Int
    /// The rows (and columns) of the alignment patterns' centres.
    let alignmentCentres: [Int]

    /// Modules on a side.
    var size: Int { 17 + 4 * number }

    /// Data codewords in the symbol, over all blocks.
    var dataCodewords: Int {
        shortBlocks * shortBlockDataCodewords + longBlocks * (shortBlockDataCodewords + 1)
    }

    /// Codewords in the symbol, data and error correction.
    var totalCodewords: Int { dataCodewords + (shortBlocks + longBlocks) * correctionCodewordsPerBlock }

    /// Bits of the byte mode's character count indicator (table 3): 8 up to version 9, 16 from 10.
    var characterCountBits: Int { number <= 9 ? 8 : 16 }

    /// The most bytes byte mode fits: the data bits less the mode indicator and the character count.
    var byteCapacity: Int { (dataCodewords * 8 - 4 - characterCountBits) / 8 }

    /// Versions 1 to 10 at level M.
    static let all: [SymbolVersion] = [
        SymbolVersion(1, correction: 10, short: (1, 16), long: 0, alignment: []),
        SymbolVersion(2, correction: 16, short: (1, 28), long: 0, alignment: [6, 18]),
        SymbolVersion(3, correction: 26, short: (1, 44), long: 0, alignment: [6, 22]),
        SymbolVersion(4, correction: 18, short: (2, 32), long: 0, alignment: [6, 26]),
        SymbolVersion(5, correction: 24, short: (2, 43), long: 0, alignment: [6, 30]),
        SymbolVersion(6, correction: 16, short: (4, 27), long: 0, alignment: [6, 34]),
        SymbolVersion(7, correction: 18, short: (4, 31), long: 0, alignment: [6, 22, 38]),
        SymbolVersion(8, correction: 22, short: (2, 38), long: 2, alignment: [6, 24, 42]),
        SymbolVersion(9, correction: 22, short: (3, 36), long: 2, alignment: [6, 26, 46]),
        SymbolVersion(10, correction: 26, short: (4, 43), long: 1, alignment: [6, 28, 50]),
    ]

    private init(_ number: Int, correction: Int, short: (Int, Int), long: Int, alignment: [Int]) {
        self.number = number
        correctionCodewordsPerBlock = correction
        (shortBlocks, shortBlockDataCodewords) = short
        longBlocks = long
        alignmentCentres = alignment
    }

    /// The smallest version whose byte mode holds `byteCount` bytes, if any does.
    static func smallest(holding byteCount: Int) -> SymbolVersion? {
        all.first { $0.byteCapacity >= byteCount }
    }
}
