/// A small, fast, seedable random number generator (xoshiro256**, seeded through SplitMix64).
///
/// The standard library's generator cannot be seeded, and its `shuffle` algorithm is not promised to stay
/// the same between releases; a game must replay identically from its seed, so we own both.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Equatable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// Creates a generator whose whole output is determined by `seed`.
    public init(seed: UInt64) {
        var mix = seed
        func splitMix() -> UInt64 {
            mix &+= 0x9E37_79B9_7F4A_7C15
            var z = mix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = (splitMix(), splitMix(), splitMix(), splitMix())
    }

    /// Returns the next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = rotate(state.3, 45)
        return result
    }

    /// Returns a uniformly distributed number in `0..<bound` (rejection sampling, no modulo bias).
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0)
        let limit = UInt64(bound)
        let threshold = (0 &- limit) % limit
        while true {
            let value = next()
            if value >= threshold { return Int(value % limit) }
        }
    }

    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    public static func == (lhs: SeededGenerator, rhs: SeededGenerator) -> Bool {
        lhs.state == rhs.state
    }
}

extension Array {
    /// Shuffles in place with Fisher–Yates, using `generator`, in a way that will never change.
    mutating func stableShuffle(using generator: inout SeededGenerator) {
        guard count > 1 else { return }
        for i in stride(from: count - 1, to: 0, by: -1) {
            swapAt(i, generator.next(below: i + 1))
        }
    }
}
