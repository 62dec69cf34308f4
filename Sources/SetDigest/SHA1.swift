/// SHA-1 (FIPS 180-4), written here because setd takes no packages: the WebSocket handshake (RFC 6455)
/// needs it for `Sec-WebSocket-Accept`, and a claimed name's key is stored only as a salted digest.
///
/// SHA-1 is broken for collision resistance; neither use needs that (the handshake is not a security
/// measure, and a name key is a LAN courtesy, not a credential).
public struct SHA1: Sendable {
    /// The digest's size in bytes.
    public static let byteCount = 20

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
    )
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    /// A hasher with nothing fed to it yet.
    public init() {
        pending.reserveCapacity(64)
    }

    /// The digest of `bytes`.
    public static func digest<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = SHA1()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `bytes`, compressed a block at a time in place (`SHA1Block`): no buffer filled a
    /// byte at a time and no schedule allocated per block, as `update` has. The WebSocket handshake's
    /// digest is of an array.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        let words = SHA1Block.finish(SHA1Block.initial, message: bytes, prefixLength: 0)
        var out: [UInt8] = []
        out.reserveCapacity(byteCount)
        for word in [words.0, words.1, words.2, words.3, words.4] {
            for shift in stride(from: 24, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
            }
        }
        return out
    }

    /// Feeds more bytes to the hash.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            pending.append(byte)
            length &+= 1
            if pending.count == 64 {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The digest of everything fed so far (the hasher is used up).
    public consuming func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        for start in stride(from: 0, to: tail.count, by: 64) {
            compress(tail[start..<start + 64])
        }
        var out: [UInt8] = []
        out.reserveCapacity(Self.byteCount)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            for shift in stride(from: 24, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
            }
        }
        return out
    }

    private mutating func compress<Block: Collection>(_ block: Block) where Block.Element == UInt8 {
        var w = [UInt32](repeating: 0, count: 80)
        var index = block.startIndex
        for t in 0..<16 {
            var word: UInt32 = 0
            for _ in 0..<4 {
                word = word << 8 | UInt32(block[index])
                index = block.index(after: index)
            }
            w[t] = word
        }
        for t in 16..<80 {
            w[t] = rotate(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], by: 1)
        }
        var (a, b, c, d, e) = state
        for t in 0..<80 {
            let f: UInt32
            let k: UInt32
            switch t {
            case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
            case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
            case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
            default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
            }
            let temp = rotate(a, by: 5) &+ f &+ e &+ k &+ w[t]
            (e, d, c, b, a) = (d, c, rotate(b, by: 30), a, temp)
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    }

    private func rotate(_ x: UInt32, by n: UInt32) -> UInt32 {
        x << n | x >> (32 - n)
    }
}

extension Sequence where Element == UInt8 {
    /// The bytes as lower-case hexadecimal.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
