// Shared by the fuzz targets: reading structured values out of the fuzzer's bytes, and failing loudly.
//
// Compiled by `scripts/fuzz.sh` (not a SwiftPM target: libFuzzer brings its own main) into one plain
// module with a target's harness and the reference oracles it checks against (`SetReference`,
// `FramingReference`, ..., the ones the tests use, from Sources/SetTestSupport), which imports the
// libraries under test as a test does: only they are instrumented for coverage and ASan.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the fuzzer's input as a stream of small values; past the end every read is zero, so any input
/// is a valid program.
struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte was read.
    var isAtEnd: Bool { offset >= bytes.count }

    /// The bytes not read yet.
    var remaining: ArraySlice<UInt8> { bytes[min(offset, bytes.count)...] }

    /// The next byte, or 0 past the end.
    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next byte as a number below `bound` (`bound` > 0).
    mutating func number(below bound: Int) -> Int { Int(byte()) % bound }

    /// The next byte as a signed number, -128...127, for out-of-range positions and revisions.
    mutating func signed() -> Int { Int(Int8(bitPattern: byte())) }

    /// The next bit of a byte.
    mutating func flag() -> Bool { byte() & 1 == 1 }

    /// Eight bytes, little-endian.
    mutating func word() -> UInt64 {
        (0..<8).reduce(0) { value, shift in value | UInt64(byte()) << (8 * UInt64(shift)) }
    }

    /// Up to `maximum` bytes, the count taken from the input.
    mutating func bytes(upTo maximum: Int) -> [UInt8] {
        let count = number(below: maximum + 1)
        return (0..<count).map { _ in byte() }
    }
}

/// SplitMix64: a tiny generator for decisions derived from a few input bytes.
struct FuzzRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}

/// Byte strings already checked in this process, for checks that depend on nothing but those bytes:
/// libFuzzer's inputs are mutations of each other, so most of what an input holds was checked in an
/// earlier one, and checking it again finds nothing new. `FUZZ_NO_CACHE=1` in the environment checks
/// everything every time (for `-merge=1` and coverage reports, which need every input to run all of its
/// checks).
///
/// It keeps two independent 64-bit digests of each string, not the string, in a table reserved up
/// front: memory an input leaves behind makes libFuzzer take the input for a leak and run it again.
struct CheckedOnce {
    /// Past this many strings the memory is cleared: a bound on memory, at the cost of some checks done
    /// twice.
    static var capacity: Int { 1 << 16 }

    private struct Digest: Hashable {
        let first: Int
        let second: Int
    }

    private var seen = Set<Digest>(minimumCapacity: Self.capacity)
    private let isEnabled = getenv("FUZZ_NO_CACHE").map { String(cString: $0) != "1" } ?? true

    /// Whether `bytes` were not checked yet in this process; from now on they count as checked.
    mutating func isNew(_ bytes: [UInt8]) -> Bool {
        guard isEnabled else { return true }
        if seen.count >= Self.capacity { seen.removeAll(keepingCapacity: true) }
        var first = Hasher()
        var second = Hasher()
        first.combine(1 as UInt8)
        second.combine(2 as UInt8)
        bytes.withUnsafeBytes { raw in
            first.combine(bytes: raw)
            second.combine(bytes: raw)
        }
        return seen.insert(Digest(first: first.finalize(), second: second.finalize())).inserted
    }
}

/// Stops the run with `message` when an invariant does not hold; libFuzzer then saves the input as a
/// crash artifact.
func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, line: UInt = #line
) {
    guard condition() else {
        let text = "fuzz invariant failed (line \(line)): \(message())\n"
        var bytes = Array(text.utf8)
        _ = write(2, &bytes, bytes.count)
        abort()
    }
}

/// The bytes libFuzzer passes, as an array.
func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
