/// Bits appended most significant first, read back as bytes.
struct BitBuffer {
    private(set) var bytes: [UInt8] = []
    /// The number of bits appended.
    private(set) var count = 0

    /// Appends the low `count` bits of `value`, most significant first.
    mutating func append(_ value: Int, count bitCount: Int) {
        precondition(value >= 0 && value >> bitCount == 0, "value wider than its field")
        for shift in stride(from: bitCount - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if value >> shift & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }
}
