/// Numbers and IPv4 addresses written as decimal text straight into a buffer, for strings made with
/// `String(unsafeUninitializedCapacity:)`: the core spells a peer's key at every claim, guess and room
/// made, and the engine a peer's text at every greeting, with no interpolation or array in between.
public enum DecimalText {
    /// Writes `address` in dotted decimal at the start of `text` (15 bytes at least); returns the count.
    public static func write(ipv4 address: UInt32, to text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(text.count >= 15, "room for a dotted-decimal address")
        var count = 0
        // Octet by octet, each one's digits by two comparisons: the general writer's loops and slices
        // were over a thousand instructions an address in the instrumented engine fuzzer, which spells
        // a peer's key at every connection.
        func octet(_ shift: UInt32) {
            if shift < 24 {
                text[count] = UInt8(ascii: ".")
                count += 1
            }
            let value = UInt8(truncatingIfNeeded: address >> shift)
            if value >= 100 {
                text[count] = 0x30 + value / 100
                count += 1
            }
            if value >= 10 {
                text[count] = 0x30 + value / 10 % 10
                count += 1
            }
            text[count] = 0x30 + value % 10
            count += 1
        }
        octet(24)
        octet(16)
        octet(8)
        octet(0)
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
