/// PBKDF2 (RFC 8018, section 5.2) with HMAC-SHA-1 (RFC 2104) as its pseudorandom function: the slow,
/// salted hash setd stores name keys and room passwords as.
///
/// Slow on purpose: every guess at a stored key costs `iterations` × 2 SHA-1 compressions, so a journal
/// read by someone else does not give away short keys in a second. The iterations run on a compression
/// of fixed-size blocks (an HMAC of a 20-byte message is always one block in and one block out), with
/// the key's padded inner and outer states computed once: the loop allocates nothing.
public enum PBKDF2 {
    /// The derived key of `password` and `salt`: `length` bytes from `iterations` rounds of
    /// HMAC-SHA-1. `iterations` and `length` must be at least 1.
    public static func sha1(password: [UInt8], salt: [UInt8], iterations: Int, length: Int = SHA1.byteCount)
        -> [UInt8]
    {
        precondition(iterations >= 1 && length >= 1, "PBKDF2 needs an iteration and a byte")
        let mac = HMACKey(password)
        var out: [UInt8] = []
        out.reserveCapacity(length)
        var blockIndex: UInt32 = 1
        while out.count < length {
            // U1 = HMAC(P, S || INT(i)); the salt may be any length, so this one goes the general way.
            let indexBytes = (0..<4).map { UInt8(truncatingIfNeeded: blockIndex >> (24 - 8 * UInt32($0))) }
            var u = mac.authenticate(salt + indexBytes)
            var t = u
            // U2 … Uc, each the HMAC of the 20-byte U before it: one block each way.
            SHA1Block.withSchedule { w in
                var round = 1
                while round < iterations {
                    u = mac.authenticate(twentyBytes: u, w)
                    t.0 ^= u.0
                    t.1 ^= u.1
                    t.2 ^= u.2
                    t.3 ^= u.3
                    t.4 ^= u.4
                    round += 1
                }
            }
            out += SHA1Block.bytes(of: t).prefix(length - out.count)
            blockIndex += 1
        }
        return out
    }

    /// Whether `a` and `b` are the same bytes, taking the same time wherever they first differ (so a
    /// comparison of digests tells a guesser nothing about how close a guess came).
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

/// Five SHA-1 words: a chaining state or a digest.
typealias SHA1Words = (UInt32, UInt32, UInt32, UInt32, UInt32)

/// HMAC-SHA-1 with one key, its inner and outer padded blocks compressed once.
private struct HMACKey {
    let inner: SHA1Words
    let outer: SHA1Words

    init(_ key: [UInt8]) {
        var block = key.count > 64 ? SHA1.digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        inner = SHA1Block.compress(SHA1Block.initial, bytes: block.map { $0 ^ 0x36 })
        outer = SHA1Block.compress(SHA1Block.initial, bytes: block.map { $0 ^ 0x5C })
    }

    /// HMAC(key, message) for a message of any length.
    func authenticate(_ message: [UInt8]) -> SHA1Words {
        let innerDigest = SHA1Block.finish(inner, message: message, prefixLength: 64)
        return SHA1Block.withSchedule { SHA1Block.finishTwenty(outer, innerDigest, $0) }
    }

    /// HMAC(key, message) for a 20-byte message given as five words: one compression in, one out, in
    /// the schedule `w`.
    @inline(__always)
    func authenticate(twentyBytes message: SHA1Words, _ w: UnsafeMutablePointer<UInt32>) -> SHA1Words {
        SHA1Block.finishTwenty(outer, SHA1Block.finishTwenty(inner, message, w), w)
    }
}

/// SHA-1's compression function on whole blocks, for HMAC: no buffers, no allocation per block.
enum SHA1Block {
    static let initial: SHA1Words = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)

    /// The state after one 64-byte block.
    static func compress(_ state: SHA1Words, bytes: [UInt8]) -> SHA1Words {
        precondition(bytes.count == 64)
        return withSchedule { w in
            for t in 0..<16 {
                w[t] =
                    UInt32(bytes[4 * t]) << 24 | UInt32(bytes[4 * t + 1]) << 16 | UInt32(bytes[4 * t + 2])
                    << 8
                    | UInt32(bytes[4 * t + 3])
            }
            return compress(state, w)
        }
    }

    /// The digest of `message` hashed after `prefixLength` bytes already compressed into `state`.
    static func finish(_ state: SHA1Words, message: [UInt8], prefixLength: Int) -> SHA1Words {
        var tail = message
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bits = UInt64(prefixLength + message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        var state = state
        for start in stride(from: 0, to: tail.count, by: 64) {
            state = compress(state, bytes: Array(tail[start..<start + 64]))
        }
        return state
    }

    /// The 20 bytes of `words`, each word's highest byte first: a digest as it is written out.
    static func bytes(of words: SHA1Words) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(SHA1.byteCount)
        for word in [words.0, words.1, words.2, words.3, words.4] {
            for shift in stride(from: 24, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
            }
        }
        return out
    }

    /// Runs `body` with a 16-word schedule of its own (uninitialised).
    @inline(__always)
    static func withSchedule<Result>(_ body: (UnsafeMutablePointer<UInt32>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { body($0.baseAddress!) }
    }

    /// The digest of a 20-byte message hashed after one 64-byte block already compressed into `state`:
    /// the message, the `1` bit, zeros and the length (84 bytes, 672 bits) fit one block. `w` is the
    /// caller's schedule, reused from block to block.
    @inline(__always)
    static func finishTwenty(_ state: SHA1Words, _ message: SHA1Words, _ w: UnsafeMutablePointer<UInt32>)
        -> SHA1Words
    {
        (w[0], w[1], w[2], w[3], w[4]) = message
        w[5] = 0x8000_0000
        for t in 6..<15 { w[t] = 0 }
        w[15] = 672
        return compress(state, w)
    }

    @inline(__always)
    private static func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { x << n | x >> (32 - n) }

    /// FIPS 180-4's eighty rounds over the block in `w`, 16 words that it uses up as the ring its
    /// message schedule runs in (words 16 … 79 overwrite the oldest).
    @inline(__always)
    static func compress(_ state: SHA1Words, _ w: UnsafeMutablePointer<UInt32>) -> SHA1Words {
        var (a, b, c, d, e) = state
        var t = 0
        while t < 80 {
            let word: UInt32
            if t < 16 {
                word = w[t]
            } else {
                word = rotate(w[(t - 3) & 15] ^ w[(t - 8) & 15] ^ w[(t - 14) & 15] ^ w[t & 15], 1)
                w[t & 15] = word
            }
            let f: UInt32
            if t < 20 {
                f = ((b & c) | (~b & d)) &+ 0x5A82_7999
            } else if t < 40 {
                f = (b ^ c ^ d) &+ 0x6ED9_EBA1
            } else if t < 60 {
                f = ((b & c) | (b & d) | (c & d)) &+ 0x8F1B_BCDC
            } else {
                f = (b ^ c ^ d) &+ 0xCA62_C1D6
            }
            let temp = rotate(a, 5) &+ f &+ e &+ word
            e = d
            d = c
            c = rotate(b, 30)
            b = a
            a = temp
            t += 1
        }
        return (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    }
}
