import Testing

@testable import SetQR

/// Versions, capacities and the data codewords, against the tables of ISO/IEC 18004.
@Suite struct EncoderTests {
    /// Table 7, byte mode at level M.
    static let publishedByteCapacities = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213]
    /// Table 1: codewords in the symbol, data and error correction.
    static let publishedTotalCodewords = [26, 44, 70, 100, 134, 172, 196, 242, 292, 346]
    /// Table 7, data codewords at level M.
    static let publishedDataCodewords = [16, 28, 44, 64, 86, 108, 124, 154, 182, 216]

    @Test func capacitiesAreTheStandards() {
        #expect(QRCode.versions.map(QRCode.byteCapacity(ofVersion:)) == Self.publishedByteCapacities)
        #expect(SymbolVersion.all.map(\.totalCodewords) == Self.publishedTotalCodewords)
        #expect(SymbolVersion.all.map(\.dataCodewords) == Self.publishedDataCodewords)
        #expect(QRCode.maximumByteCount == 213)
    }

    @Test func theSmallestVersionThatFitsIsChosen() throws {
        var previous = 0
        for (index, capacity) in Self.publishedByteCapacities.enumerated() {
            for count in [previous + 1, capacity] {
                let code = try QRCode(bytes: [UInt8](repeating: 0x61, count: count))
                #expect(code.version == index + 1, "\(count) bytes")
                #expect(code.size == 17 + 4 * code.version)
            }
            previous = capacity
        }
        #expect(try QRCode(bytes: []).version == 1)
    }

    /// Past version 10 the encoder refuses, with a reason a person can read.
    @Test func moreThanVersionTenHoldsIsATypedError() {
        #expect(throws: QRError.tooLong(byteCount: 214, maximum: 213)) {
            try QRCode(bytes: [UInt8](repeating: 0x61, count: 214))
        }
        #expect(throws: QRError.tooLong(byteCount: 1000, maximum: 213)) {
            try QRCode(text: String(repeating: "x", count: 1000))
        }
        let error = QRError.tooLong(byteCount: 214, maximum: 213)
        #expect(error.description.contains("214 bytes"), "\(error)")
        #expect(error.description.contains("at most 213"), "\(error)")
    }

    @Test func textIsEncodedAsItsUTF8Bytes() throws {
        let text = "café ✓"
        #expect(try QRCode(text: text) == QRCode(bytes: Array(text.utf8)))
    }

    /// Byte mode, worked by hand: 0100, the count 00000010, "H" 01001000, "i" 01101001, the terminator
    /// 0000, then the pad codewords 0xEC and 0x11 in turn to version 1-M's 16 data codewords.
    @Test func dataCodewordsFollowTheByteModeLayout() {
        let version = SymbolVersion.all[0]
        let codewords = QRCode.dataCodewords(Array("Hi".utf8), version: version)
        #expect(
            codewords == [
                0x40, 0x24, 0x86, 0x90, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC,
                0x11,
            ])
        // Version 10 counts in 16 bits; a full symbol has no room for a terminator or pads.
        let ten = SymbolVersion.all[9]
        let full = QRCode.dataCodewords([UInt8](repeating: 0xFF, count: 213), version: ten)
        #expect(full.count == 216)
        #expect(Array(full.prefix(3)) == [0x40, 0x0D, 0x5F])
        #expect(full.last == 0xF0, "the last four bits are the terminator")
    }

    /// Blocks are filled in order and read out one codeword from each in turn, the longer blocks'
    /// extra codeword last.
    @Test func codewordsAreInterleavedAcrossBlocks() {
        let version = SymbolVersion.all[7]  // 8-M: two blocks of 38 and two of 39 data codewords.
        let data = (0..<version.dataCodewords).map { UInt8($0) }
        let sequence = QRCode.interleavedCodewords(data, version: version)
        #expect(sequence.count == version.totalCodewords)
        #expect(Array(sequence.prefix(8)) == [0, 38, 76, 115, 1, 39, 77, 116])
        #expect(Array(sequence[148..<152]) == [37, 75, 113, 152])
        #expect(Array(sequence[152..<154]) == [114, 153], "the long blocks' last codewords come after")
    }
}
