/// Numbers and IPv4 addresses written as decimal text straight into a buffer, for strings made with
/// `String(unsafeUninitializedCapacity:)`: the core spells a peer's key at every claim, guess and room
/// made, and the engine a peer's text at every greeting, with no interpolation or array in between.
public enum DecimalText {
    /// Writes `address` in dotted decimal at the start of `text` (15 bytes at least); returns the count.
    public static func write(ipv4 address: UInt32, to text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var count = 0
        for shift in stride(from: 24, through: 0, by: -8) {
            if shift < 24 {
                text[count] = UInt8(ascii: ".")
                count += 1
            }
            count += write(
                address >> UInt32(shift) & 0xFF, to: UnsafeMutableBufferPointer(rebasing: text[count...]))
        }
        return count
    }

    /// Writes `address:port` (IPv4 in dotted decimal) at the start of `text` (21 bytes at least); returns
    /// the count.
    public static func write(ipv4 address: UInt32, port: UInt16, to text: UnsafeMutableBufferPointer<UInt8>)
        -> Int
    {
        var count = write(ipv4: address, to: text)
        text[count] = UInt8(ascii: ":")
        count += 1
        return count + write(UInt32(port), to: UnsafeMutableBufferPointer(rebasing: text[count...]))
    }

    /// Writes `value` in decimal without leading zeros at the start of `text`; returns the count.
    public static func write(_ value: UInt32, to text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        rest = value
        for index in stride(from: digits - 1, through: 0, by: -1) {
            text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        return digits
    }
}
