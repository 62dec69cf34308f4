import SetServerCore

#if canImport(Glibc)
    import Glibc
#endif

extension ReplayCheck {
    /// Journal lines read before, by their bodies, and the records they hold: reading a line is a
    /// function of its bytes alone, and a simulated process restarts thousands of times on journals that
    /// hold the same lines again. Each rewrite of the journal (a restart, the end of an outage) holds
    /// the whole archive and every unchanged room's snapshot again, and the next restart reads those
    /// bytes back, with every line appended since (each read once already, when the replay check read
    /// its step): the daemon's own reading (``JournalReader/parse(_:path:reading:)``) and the replay
    /// check's both take what was read before from here.
    ///
    /// Bounded without a capacity to tune: the lines of the last two whole journals read (and the
    /// lines read since) are kept, the rest forgotten at each whole read. Shared by the
    /// checks of one run, one after the other (not across threads).
    public final class KnownLines {
        /// Lines of the whole journal read last, and lines read since.
        private var current: [Line: JournalRecord] = [:]
        /// Lines of the whole journal read before it.
        private var previous: [Line: JournalRecord] = [:]
        /// How many lines were read from here rather than parsed (for tests and profiles).
        public private(set) var hits = 0

        /// An empty cache.
        public init() {}

        /// A line's body as a key. Its hash is worked out once, from its length and at most 16 words
        /// spread along it (hashing every byte of a kilobytes-long snapshot or archive line, at every
        /// lookup and again at every resize, was most of what a lookup cost); equality still compares
        /// every byte, so lines that share a hash only cost a comparison.
        struct Line: Hashable {
            let bytes: ArraySlice<UInt8>
            private let sample: Int

            init(bytes: ArraySlice<UInt8>) {
                self.bytes = bytes
                sample = Self.sample(bytes)
            }

            func hash(into hasher: inout Hasher) { hasher.combine(sample) }

            static func == (a: Line, b: Line) -> Bool {
                guard a.sample == b.sample, a.bytes.count == b.bytes.count else { return false }
                return a.bytes.withUnsafeBytes { x in
                    b.bytes.withUnsafeBytes { y in
                        x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0
                    }
                }
            }

            /// The length and up to 16 eight-byte words at even steps along `bytes` (the first and the
            /// last included), mixed as FNV-1a mixes bytes.
            private static func sample(_ bytes: ArraySlice<UInt8>) -> Int {
                bytes.withUnsafeBytes { raw -> Int in
                    var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(raw.count)
                    let words = raw.count / 8
                    guard words > 0 else {
                        for byte in raw { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
                        return Int(truncatingIfNeeded: hash)
                    }
                    let step = max(1, words / 16)
                    var at = 0
                    while at < words {
                        hash =
                            (hash ^ raw.loadUnaligned(fromByteOffset: at * 8, as: UInt64.self))
                            &* 0x100_0000_01b3
                        at += step
                    }
                    hash =
                        (hash ^ raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
                        &* 0x100_0000_01b3
                    return Int(truncatingIfNeeded: hash)
                }
            }
        }

        /// A whole journal is about to be read: lines neither it nor the one read before holds are
        /// forgotten.
        public func beginWholeJournal() {
            previous = current
            current = [:]
            current.reserveCapacity(previous.count)
        }

        /// The record a verified `body` holds, as ``JournalRecord/init(body:)`` reads it, remembered.
        public func record(body: ArraySlice<UInt8>) throws(JournalFormatError) -> JournalRecord {
            try record(body: body, remembering: true)
        }

        /// The record `body` holds; a body not read before is parsed, and remembered if `remembering`.
        func record(body: ArraySlice<UInt8>, remembering: Bool) throws(JournalFormatError) -> JournalRecord {
            guard remembering else { return try JournalRecord(body: body) }
            let line = Line(bytes: body)
            if let record = current[line] {
                hits += 1
                return record
            }
            if let index = previous.index(forKey: line) {
                let (known, record) = previous[index]
                current[known] = record
                hits += 1
                return record
            }
            let record = try JournalRecord(body: body)
            // Lines read between whole reads (a few thousand a night) are bounded too.
            if current.count >= 1 << 14 { current = [:] }
            // A copy: the slice would keep the whole journal it came from alive.
            current[Line(bytes: ArraySlice(Array(body)))] = record
            return record
        }
    }
}
