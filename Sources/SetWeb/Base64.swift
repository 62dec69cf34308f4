/// Base64 (RFC 4648, the standard alphabet with `=` padding), for the WebSocket handshake's key and
/// accept values.
public enum Base64 {
    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The Base64 text of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                if position <= count {
                    out.append(alphabet[Int((group >> UInt32(18 - 6 * position)) & 0x3F)])
                } else {
                    out.append(UInt8(ascii: "="))
                }
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of canonical padded Base64 text, or `nil` if `text` is not that (wrong length, a byte
    /// outside the alphabet, misplaced padding, or stray bits in the last character).
    public static func decode<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8]? {
        let chars = Array(text)
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var index = 0
        while index < chars.count {
            let isLast = index + 4 == chars.count
            var group: UInt32 = 0
            var padding = 0
            for position in 0..<4 {
                let char = chars[index + position]
                if char == UInt8(ascii: "=") {
                    // Padding only at the very end, at most two, and never before a real character.
                    guard isLast, position >= 2 else { return nil }
                    padding += 1
                    group <<= 6
                } else {
                    guard padding == 0, let value = value(of: char) else { return nil }
                    group = group << 6 | UInt32(value)
                }
            }
            let bytes = [UInt8(group >> 16 & 0xFF), UInt8(group >> 8 & 0xFF), UInt8(group & 0xFF)]
            // Canonical: the bits the padding stands for are zero.
            if padding == 1, bytes[2] != 0 { return nil }
            if padding == 2, bytes[1] != 0 || bytes[2] != 0 { return nil }
            out += bytes.prefix(3 - padding)
            index += 4
        }
        return out
    }

    private static func value(of char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): char - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): char - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
