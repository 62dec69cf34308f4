import Testing

@testable import SetQR

/// GF(256) and the Reed–Solomon codewords, against the standard's published numbers.
@Suite struct ReedSolomonTests {
    @Test func theFieldIsGeneratedByTwoModuloThePrimitivePolynomial() {
        // α⁸ = α⁴ + α³ + α² + 1 = 0x1D, and α has order 255: every non-zero byte is a power of it once.
        #expect(GaloisField.power(8) == 0x1D)
        #expect(GaloisField.power(255) == 1)
        #expect(Set((0..<255).map(GaloisField.power)).count == 255)
        for a in UInt8(1)...255 {
            #expect(GaloisField.multiply(a, 1) == a)
            #expect(GaloisField.multiply(a, GaloisField.power(255 - GaloisField.logarithms[Int(a)])) == 1)
        }
    }

    /// ISO/IEC 18004 annex A lists the generator polynomials as exponents of α.
    @Test func theGeneratorOfTenCodewordsIsTheStandards() {
        let exponents = ReedSolomon.generator(degree: 10).map { GaloisField.logarithms[Int($0)] }
        #expect(exponents == [0, 251, 67, 46, 61, 118, 70, 64, 94, 32, 45])
    }

    /// The worked example of ISO/IEC 18004 annex I: "01234567" in numeric mode, version 1-M.
    @Test func theStandardsExampleGetsItsCorrectionCodewords() {
        let data: [UInt8] = [
            0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11,
        ]
        #expect(
            ReedSolomon.correctionCodewords(for: data, count: 10) == [
                0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55,
            ])
    }

    /// The "HELLO WORLD" 1-M example that QR tutorials work through (alphanumeric mode).
    @Test func helloWorldGetsThePublishedCorrectionCodewords() {
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        #expect(
            ReedSolomon.correctionCodewords(for: data, count: 10) == [
                196, 35, 39, 119, 235, 215, 231, 226, 93, 23,
            ])
    }

    /// A Reed–Solomon codeword is a multiple of the generator: it vanishes at α⁰ … αⁿ⁻¹. Checked for every
    /// block shape of versions 1 to 10.
    @Test func everyBlockShapeMakesCodewordsWithZeroSyndromes() {
        var generator = SeededBytes(seed: 27)
        for version in SymbolVersion.all {
            let count = version.correctionCodewordsPerBlock
            for length in Set([version.shortBlockDataCodewords, version.shortBlockDataCodewords + 1]) {
                let data = generator.bytes(length)
                let codeword = data + ReedSolomon.correctionCodewords(for: data, count: count)
                for root in 0..<count {
                    let x = GaloisField.power(root)
                    let value = codeword.reduce(UInt8(0)) { GaloisField.multiply($0, x) ^ $1 }
                    #expect(value == 0, "version \(version.number), \(length) data codewords, root α^\(root)")
                }
            }
        }
    }
}

/// Reproducible pseudo-random bytes (SplitMix64), so that a failure names an input that can be rerun.
struct SeededBytes {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// `count` bytes drawn from `alphabet`.
    mutating func bytes(_ count: Int, from alphabet: String) -> [UInt8] {
        let letters = Array(alphabet.utf8)
        return (0..<count).map { _ in letters[Int(next() % UInt64(letters.count))] }
    }
}
