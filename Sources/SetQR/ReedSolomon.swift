/// Reed–Solomon error correction codewords as QR codes compute them (ISO/IEC 18004, 7.5.2): the data
/// codewords are the coefficients of a polynomial, highest degree first; the correction codewords are
/// the remainder of that polynomial times xⁿ divided by the generator polynomial (x − α⁰)…(x − αⁿ⁻¹).
enum ReedSolomon {
    /// The coefficients of the generator polynomial of degree `degree`, highest first, leading 1
    /// included.
    static func generator(degree: Int) -> [UInt8] {
        var coefficients: [UInt8] = [1]
        for root in 0..<degree {
            // Multiply by (x + αʳᵒᵒᵗ): subtraction is addition (xor) in GF(2⁸).
            let alpha = GaloisField.power(root)
            var product = [UInt8](repeating: 0, count: coefficients.count + 1)
            for (index, coefficient) in coefficients.enumerated() {
                product[index] ^= coefficient
                product[index + 1] ^= GaloisField.multiply(coefficient, alpha)
            }
            coefficients = product
        }
        return coefficients
    }

    /// The `count` error correction codewords of one block of data codewords.
    static func correctionCodewords(for data: some Sequence<UInt8>, count: Int) -> [UInt8] {
        let divisor = generator(degree: count).dropFirst()
        // The remainder register of polynomial long division, shifted one codeword at a time.
        var remainder = [UInt8](repeating: 0, count: count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for (index, coefficient) in divisor.enumerated() {
                remainder[index] ^= GaloisField.multiply(coefficient, factor)
            }
        }
        return remainder
    }
}
