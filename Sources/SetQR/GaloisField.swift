/// Arithmetic in GF(256), the field QR codes' Reed–Solomon codes work in: bytes as polynomials over GF(2)
/// modulo the standard's primitive polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D), with α = 2 as generator.
enum GaloisField {
    /// The primitive polynomial the standard (ISO/IEC 18004, 7.5.2) reduces products by.
    static let primitive = 0x11D

    /// αⁱ for i in 0..<255, doubled so that `exponents[log a + log b]` needs no modulo.
    static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for power in 0..<255 {
            table[power] = UInt8(value)
            table[power + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= primitive }
        }
        return table
    }()

    /// logₐ(x) for x in 1...255 (the entry for 0 is unused: 0 has no logarithm).
    static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for power in 0..<255 { table[Int(exponents[power])] = power }
        return table
    }()

    /// The product of two field elements.
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return exponents[logarithms[Int(a)] + logarithms[Int(b)]]
    }

    /// αⁱ.
    static func power(_ exponent: Int) -> UInt8 { exponents[exponent % 255] }
}
