/// A QR code (ISO/IEC 18004) holding bytes in byte mode at error correction level M, in the smallest of
/// versions 1 to 10 that fits them: the matrix of dark and light modules, without the quiet zone.
///
/// Level M restores up to about 15% of damaged codewords, which is what a phone held up to a laptop's
/// screen or a terminal needs. Version 10 holds 213 bytes, several times setd's longest link; a longer
/// input is refused with ``QRError/tooLong(byteCount:maximum:)`` rather than drawn as a bigger symbol
/// that a terminal could not show.
public struct QRCode: Hashable, Sendable {
    /// The versions this encoder makes.
    public static let versions = 1...10

    /// The most bytes a QR code of this encoder holds (version 10, level M).
    public static var maximumByteCount: Int { byteCapacity(ofVersion: versions.upperBound) }

    /// The version, 1 to 10: the symbol is 17 + 4 × version modules on a side.
    public let version: Int
    /// The data mask chosen by the standard's penalty rules (or the one asked for).
    public let mask: Mask
    /// The modules, `true` for dark, without the quiet zone.
    public let modules: BitMatrix

    /// Modules on a side, without the quiet zone.
    public var size: Int { modules.size }

    /// The most bytes a symbol of `version` (1 to 10) holds in byte mode at level M.
    public static func byteCapacity(ofVersion version: Int) -> Int {
        precondition(versions.contains(version), "versions \(versions) only")
        return SymbolVersion.all[version - 1].byteCapacity
    }

    /// Encodes `bytes` in the smallest version that holds them, with the mask of lowest penalty unless
    /// `mask` is given.
    public init(bytes: some Collection<UInt8>, mask: Mask? = nil) throws(QRError) {
        guard let version = SymbolVersion.smallest(holding: bytes.count) else {
            throw .tooLong(byteCount: bytes.count, maximum: QRCode.maximumByteCount)
        }
        self.init(version: version, dataCodewords: Self.dataCodewords(bytes, version: version), mask: mask)
    }

    /// Encodes the UTF-8 bytes of `text` (without an ECI header: readers take byte mode as UTF-8 when it
    /// is valid UTF-8, and URLs are ASCII anyway).
    public init(text: String, mask: Mask? = nil) throws(QRError) {
        try self.init(bytes: Array(text.utf8), mask: mask)
    }

    /// Whether the module at `row` and `column` (from 0 at the top left, quiet zone not counted) is dark.
    public func isDark(row: Int, column: Int) -> Bool { modules[row, column] }

    /// A symbol of `version` from its data codewords, already padded to the version's count: the
    /// error correction is added, the codewords placed, and the mask applied.
    init(version: SymbolVersion, dataCodewords: [UInt8], mask: Mask?) {
        precondition(dataCodewords.count == version.dataCodewords, "pad the data to the version first")
        let canvas = Canvas(version: version)
        let placed = canvas.placing(Self.interleavedCodewords(dataCodewords, version: version))
        let masks = mask.map { [$0] } ?? Mask.allCases
        // The standard evaluates each mask on the whole symbol, format information included, and keeps
        // the lowest penalty; ties go to the lower reference.
        var best: (mask: Mask, modules: BitMatrix, penalty: Int)?
        for candidate in masks {
            let modules = canvas.finished(placed, mask: candidate)
            let penalty = masks.count == 1 ? 0 : Penalty.score(modules)
            if best == nil || penalty < best!.penalty { best = (candidate, modules, penalty) }
        }
        self.version = version.number
        self.mask = best!.mask
        self.modules = best!.modules
    }

    /// The data codewords of `bytes` in byte mode (ISO/IEC 18004, 7.4): mode indicator 0100, the
    /// character count, the bytes, a terminator of up to four zero bits, zero bits to a codeword
    /// boundary, then the pad codewords 11101100 and 00010001 in turn.
    static func dataCodewords(_ bytes: some Collection<UInt8>, version: SymbolVersion) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: version.characterCountBits)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacity = version.dataCodewords * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        for pad in 0..<(version.dataCodewords - codewords.count) {
            codewords.append(pad % 2 == 0 ? 0xEC : 0x11)
        }
        return codewords
    }

    /// The final sequence of codewords (ISO/IEC 18004, 7.6): the data split into blocks, each block's
    /// error correction computed, then the data codewords taken one from each block in turn, then the
    /// error correction codewords likewise.
    static func interleavedCodewords(_ data: [UInt8], version: SymbolVersion) -> [UInt8] {
        var blocks: [ArraySlice<UInt8>] = []
        var start = 0
        for index in 0..<(version.shortBlocks + version.longBlocks) {
            let length = version.shortBlockDataCodewords + (index < version.shortBlocks ? 0 : 1)
            blocks.append(data[start..<start + length])
            start += length
        }
        let corrections = blocks.map {
            ReedSolomon.correctionCodewords(for: $0, count: version.correctionCodewordsPerBlock)
        }
        var result: [UInt8] = []
        result.reserveCapacity(version.totalCodewords)
        for column in 0...version.shortBlockDataCodewords {
            // The long blocks' last codeword has no partner in the short blocks.
            for block in blocks where column < block.count { result.append(block[block.startIndex + column]) }
        }
        for column in 0..<version.correctionCodewordsPerBlock {
            for correction in corrections { result.append(correction[column]) }
        }
        return result
    }
}
