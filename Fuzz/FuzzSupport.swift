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
    /// How many bytes were read.
    private(set) var offset = 0
    /// Whether a read found no byte left (and read a zero): what was read so far is not a prefix of
    /// longer inputs, which would give that read a real byte.
    private(set) var hasReadPastEnd = false

    init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Whether every byte was read.
    var isAtEnd: Bool { offset >= bytes.count }

    /// The bytes not read yet.
    var remaining: ArraySlice<UInt8> { bytes[min(offset, bytes.count)...] }

    /// The bytes read so far.
    var read: ArraySlice<UInt8> { bytes[..<min(offset, bytes.count)] }

    /// The next byte, or 0 past the end.
    mutating func byte() -> UInt8 {
        guard offset < bytes.count else {
            hasReadPastEnd = true
            return 0
        }
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

/// Byte strings (or other values) already checked in this process, for checks that depend on nothing
/// but them: libFuzzer's inputs are mutations of each other, so most of what an input holds was checked
/// in an earlier one, and checking it again finds nothing new. `FUZZ_NO_CACHE=1` in the environment
/// checks everything every time (for `-merge=1` and coverage reports, which need every input to run all
/// of its checks).
///
/// For byte strings it keeps two independent 64-bit digests of each string, not the string, in a table
/// reserved up front: memory an input leaves behind makes libFuzzer take the input for a leak and run it
/// again.
struct CheckedOnce<Key: Hashable> {
    /// Past this many keys the memory is cleared: a bound on memory, at the cost of some checks done
    /// twice.
    let capacity: Int

    private var seen: Set<Key>
    private let isEnabled = cachesAreEnabled

    init(capacity: Int = 1 << 16) {
        self.capacity = capacity
        seen = Set(minimumCapacity: capacity)
    }

    /// Whether `key` was not checked yet in this process; from now on it counts as checked.
    mutating func isNew(_ key: Key) -> Bool {
        guard isEnabled else { return true }
        if seen.count >= capacity { seen.removeAll(keepingCapacity: true) }
        return seen.insert(key).inserted
    }
}

extension CheckedOnce where Key == ByteDigest {
    /// Whether `bytes` were not checked yet in this process; from now on they count as checked.
    mutating func isNew(_ bytes: [UInt8]) -> Bool {
        // (Nothing hashed when nothing is kept.)
        guard isEnabled else { return true }
        return isNew(ByteDigest(bytes))
    }
}

/// What a pure function of a byte string returned, computed (and checked) once per process for each
/// string, as `CheckedOnce` does for checks; off with `FUZZ_NO_CACHE=1`.
struct ComputedOnce<Value> {
    /// Past this many strings the memory is cleared.
    static var capacity: Int { 1 << 14 }

    private var values: [ByteDigest: Value] = [:]
    private let isEnabled = cachesAreEnabled

    /// The value for `bytes`: `compute(bytes)` the first time, what it returned after that.
    mutating func value(for bytes: ArraySlice<UInt8>, _ compute: (ArraySlice<UInt8>) -> Value) -> Value {
        guard isEnabled else { return compute(bytes) }
        let digest = ByteDigest(bytes)
        if let value = values[digest] { return value }
        if values.count >= Self.capacity { values.removeAll(keepingCapacity: true) }
        let value = compute(bytes)
        values[digest] = value
        return value
    }
}

/// Whether the once-per-process caches are on: `FUZZ_NO_CACHE=1` turns them off.
let cachesAreEnabled = getenv("FUZZ_NO_CACHE").map { String(cString: $0) != "1" } ?? true

/// Two independent 64-bit digests of a byte string (SipHash with two prefixes): a key for the caches
/// that keeps no copy of the bytes.
struct ByteDigest: Hashable {
    fileprivate let first: Int
    fileprivate let second: Int

    init(_ bytes: some Collection<UInt8>) {
        var first = Hasher()
        var second = Hasher()
        first.combine(1 as UInt8)
        second.combine(2 as UInt8)
        let hashed: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            first.combine(bytes: UnsafeRawBufferPointer(buffer))
            second.combine(bytes: UnsafeRawBufferPointer(buffer))
        }
        if hashed == nil {
            Array(bytes).withUnsafeBytes { raw in
                first.combine(bytes: raw)
                second.combine(bytes: raw)
            }
        }
        self.first = first.finalize()
        self.second = second.finalize()
    }

    fileprivate init(first: Int, second: Int) {
        self.first = first
        self.second = second
    }
}

/// A `ByteDigest` of a sequence of byte strings that grows one string at a time: a key for what a pure
/// function of the whole sequence so far returned (the engine target's journal, line by line). Each
/// string is hashed with its length, so no two sequences spell the same bytes.
struct RunningDigest {
    private var first = Hasher()
    private var second = Hasher()

    init() {
        first.combine(1 as UInt8)
        second.combine(2 as UInt8)
    }

    /// Adds `digest` (of another sequence) to the sequence.
    mutating func append(_ digest: ByteDigest) {
        first.combine(digest.first)
        second.combine(digest.second)
    }

    /// Adds `bytes` to the sequence.
    mutating func append(_ bytes: ArraySlice<UInt8>) {
        first.combine(bytes.count)
        second.combine(bytes.count)
        bytes.withUnsafeBytes { raw in
            first.combine(bytes: raw)
            second.combine(bytes: raw)
        }
    }

    /// The digest of the sequence so far (hashers are values: finalizing copies leaves these growing).
    var digest: ByteDigest {
        let first = first
        let second = second
        return ByteDigest(first: first.finalize(), second: second.finalize())
    }
}

/// The states a stateful harness reached after each operation of the inputs it ran, by the input bytes
/// that led there, so that an input resumes after the longest prefix it shares with an earlier one.
/// libFuzzer's inputs are mutations of each other, so most of an input's operations were run and checked
/// before, from the same state; the state after them depends on nothing but those bytes. An input's own
/// operations, from the first byte that differs, still run and are checked in full. `FUZZ_NO_CACHE=1` in
/// the environment turns this off.
struct PrefixCache<State> {
    /// States are kept in two generations of at most this many: when the newer one is full, the older
    /// one is dropped, and a state found in the older one moves to the newer. A bound on memory that
    /// keeps the states that inputs keep resuming from (those of the corpus libFuzzer mutates).
    static var generationSize: Int { 1 << 14 }

    private struct Key: Hashable {
        let length: Int
        let hash: UInt64
    }

    /// The input whose prefix led to the state (shared by all the states of one input, not copied).
    private typealias Entry = (input: [UInt8], state: State)
    private var newer: [Key: Entry] = [:]
    private var older: [Key: Entry] = [:]
    private let isEnabled = cachesAreEnabled

    /// One bit per slot of `filterBits`, set for the prefix hash of every state kept: a prefix whose bit
    /// is clear has no state, and is passed over without hashing its key into the dictionaries. An
    /// input looks up every one of its lengths, longest first, and most lengths have no state (a state
    /// is kept after every fourth operation of an input): the dictionary look-ups were a twentieth of
    /// the game target's time. Bits of dropped states stay set until the next generation starts (a
    /// look-up that finds nothing, never a state missed).
    private var filter = [UInt64](repeating: 0, count: PrefixCache.filterBits / 64)
    private static var filterBits: Int { 1 << 20 }

    private static func slot(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash >> 44) }

    private func mayHold(_ hash: UInt64) -> Bool {
        let slot = Self.slot(hash)
        return filter[slot >> 6] >> UInt64(slot & 63) & 1 == 1
    }

    private mutating func mark(_ hash: UInt64) {
        let slot = Self.slot(hash)
        filter[slot >> 6] |= 1 << UInt64(slot & 63)
    }

    /// The state after the longest remembered prefix of `input`, and that prefix's length.
    mutating func resumption(of input: InputPrefixes) -> (state: State, length: Int)? {
        guard isEnabled, !newer.isEmpty || !older.isEmpty else { return nil }
        for length in stride(from: input.bytes.count, through: 1, by: -1) where mayHold(input.hashes[length])
        {
            let key = Key(length: length, hash: input.hashes[length])
            if let entry = newer[key], entry.input.prefix(length).elementsEqual(input.bytes.prefix(length)) {
                return (entry.state, length)
            }
            if let entry = older[key], entry.input.prefix(length).elementsEqual(input.bytes.prefix(length)) {
                insert(entry, at: key)
                return (entry.state, length)
            }
        }
        return nil
    }

    /// Remembers `state` as the state after the first `length` bytes of `input`.
    mutating func remember(_ state: State, after length: Int, of input: InputPrefixes) {
        guard isEnabled else { return }
        insert((input.bytes, state), at: Key(length: length, hash: input.hashes[length]))
    }

    private mutating func insert(_ entry: Entry, at key: Key) {
        if newer.count >= Self.generationSize {
            older = newer
            newer = [:]
            // The filter again holds the kept states only: those of the older generation, now.
            for index in filter.indices { filter[index] = 0 }
            for key in older.keys { mark(key.hash) }
        }
        newer[key] = entry
        mark(key.hash)
    }
}

/// One input and the FNV-1a hash of each of its prefixes, by length, for `PrefixCache`.
struct InputPrefixes {
    let bytes: [UInt8]
    fileprivate let hashes: [UInt64]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var hashes = [UInt64](repeating: 0, count: bytes.count + 1)
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for (i, byte) in bytes.enumerated() {
            hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3
            hashes[i + 1] = hash
        }
        self.hashes = hashes
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
