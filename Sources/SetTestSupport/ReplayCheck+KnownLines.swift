import SetServerCore

extension ReplayCheck {
    /// Journal lines read before, by their bodies, and the records they hold: reading a line is a
    /// function of its bytes alone, and a simulated process restarts thousands of times on journals that
    /// hold the same lines again. Each rewrite of the journal (a restart, the end of an outage) holds
    /// the whole archive and every unchanged room's snapshot again, and the next restart reads those
    /// bytes back: the daemon's own reading (``JournalReader/parse(_:path:reading:)``) and the replay
    /// check's both take what was read before from here.
    ///
    /// Bounded without a capacity to tune: the lines of the last two whole journals read (and the
    /// archive lines written since) are kept, the rest forgotten at each whole read. Shared by the
    /// checks of one run, one after the other (not across threads).
    public final class KnownLines {
        /// Lines of the whole journal read last, and archive lines written since.
        private var current: [Line: JournalRecord] = [:]
        /// Lines of the whole journal read before it.
        private var previous: [Line: JournalRecord] = [:]
        /// How many lines were read from here rather than parsed (for tests and profiles).
        public private(set) var hits = 0

        /// An empty cache.
        public init() {}

        /// A line's body as a key, hashed as one block of memory (an array's own hash feeds the hasher
        /// a byte at a time, and snapshot and archive lines are kilobytes long).
        struct Line: Hashable {
            let bytes: ArraySlice<UInt8>

            func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }

            static func == (a: Line, b: Line) -> Bool { a.bytes == b.bytes }
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
            // Archive lines written live between whole reads (a few hundred a night) are bounded too.
            if current.count >= 1 << 14 { current = [:] }
            // A copy: the slice would keep the whole journal it came from alive.
            current[Line(bytes: ArraySlice(Array(body)))] = record
            return record
        }
    }
}
