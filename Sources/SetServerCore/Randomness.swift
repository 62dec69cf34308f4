import SetGame

/// Where the core's secrets and seeds come from: tokens, salts, rooms' seeds. The system's generator in
/// the daemon; a seeded one in the deterministic simulation, so a seed replays byte for byte.
public final class Randomness: @unchecked Sendable {
    // Unchecked: owned by one core, used only on the caller that owns it (the core's ownership rule).
    private var next: () -> UInt64

    private init(_ next: @escaping () -> UInt64) { self.next = next }

    /// The operating system's cryptographic generator: what the daemon uses.
    public static var system: Randomness {
        Randomness {
            var generator = SystemRandomNumberGenerator()
            return generator.next()
        }
    }

    /// A generator seeded with `seed`: predictable, so for simulations and tests only.
    public static func seeded(_ seed: UInt64) -> Randomness {
        var generator = SeededGenerator(seed: seed)
        return Randomness { generator.next() }
    }

    /// The values given, over and over: for tests of what happens when randomness repeats itself.
    public static func repeating(_ values: [UInt64]) -> Randomness {
        precondition(!values.isEmpty, "something to repeat")
        var index = 0
        return Randomness {
            defer { index = (index + 1) % values.count }
            return values[index]
        }
    }

    /// 64 random bits.
    public func bits() -> UInt64 { next() }

    /// `count` random bytes (a salt).
    func bytes(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count + 7)
        while out.count < count {
            let word = bits()
            for shift in stride(from: 0, to: 64, by: 8) {
                out.append(UInt8(truncatingIfNeeded: word >> shift))
            }
        }
        return Array(out.prefix(count))
    }
}
