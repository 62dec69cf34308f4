/// Reads a journal file and decides what is a torn tail and what is damage.
///
/// A crash in the middle of a write can only tear the *last* record: its LF is missing, or its bytes
/// are there but its checksum does not match because the write stopped part-way. That record was never
/// acknowledged, so it is dropped. Anything else — a bad record with whole records after it, a record
/// whose checksum is right but which does not parse — means the file was damaged, and setd stops with
/// the file, line and byte offset, leaving the file exactly as it is.
public enum JournalReader {
    /// What a journal holds.
    public struct Contents: Sendable {
        /// Every intact record, in order.
        public var records: [JournalRecord] = []
        /// Where each record starts: its line (from 1) and byte offset.
        public var positions: [(line: Int, offset: Int)] = []
        /// The torn last record that was dropped: its line, offset and length.
        public var tornTail: (line: Int, offset: Int, length: Int)?
        /// The length of the intact part of the file.
        public var intactLength = 0
        /// Whether the file is in the first format (before records were escaped); it is rewritten.
        public var isLegacy = false

        /// An empty journal.
        public init() {}
    }

    /// Damage in the middle of a journal.
    public struct Damage: Error, CustomStringConvertible {
        /// The file.
        public var path: String
        /// The damaged line, from 1.
        public var line: Int
        /// Its byte offset.
        public var offset: Int
        /// What is wrong.
        public var reason: String

        /// Creates a report of damage.
        public init(path: String, line: Int, offset: Int, reason: String) {
            self.path = path
            self.line = line
            self.offset = offset
            self.reason = reason
        }

        public var description: String { "\(path): line \(line), byte offset \(offset): \(reason)" }
    }

    /// Parses `bytes`, the content of `path`.
    public static func parse(_ bytes: [UInt8], path: String) throws(Damage) -> Contents {
        try parse(bytes, path: path) { body throws(JournalFormatError) in try JournalRecord(body: body) }
    }

    /// Parses `bytes`, the content of `path`, reading each record whose checksum verified with `read`:
    /// what ``JournalRecord/init(body:)`` reads, or the same from a cache of bodies read before (a
    /// simulation restarts thousands of times on journals that hold the same lines again).
    public static func parse(
        _ bytes: [UInt8], path: String,
        reading read: (ArraySlice<UInt8>) throws(JournalFormatError) -> JournalRecord
    ) throws(Damage) -> Contents {
        var contents = Contents()
        let lines = JournalCoding.newlineCount(in: bytes[...])
        contents.records.reserveCapacity(lines)
        contents.positions.reserveCapacity(lines)
        var start = 0
        var line = 1
        var isFirst = true
        while start < bytes.count {
            let newline = JournalCoding.firstNewline(in: bytes[start...])
            let end = newline ?? bytes.count
            let isLast = (newline.map { $0 + 1 } ?? bytes.count) >= bytes.count
            let record: JournalRecord?
            var why = "the line has no LF"
            if newline == nil {
                record = nil
            } else if isFirst, let header = legacyOrHeader(bytes[start..<end], into: &contents) {
                record = header
            } else if contents.isLegacy {
                record = legacy(bytes[start..<end])
                why =
                    JournalCoding.verifiedBody(bytes[start..<end]) == nil
                    ? "the record's checksum is wrong"
                    : "the record does not parse (a journal without a setd-journal header line is read in the first format)"
            } else if let body = JournalCoding.verifiedBody(bytes[start..<end]) {
                do {
                    record = try read(body)
                } catch {
                    // The checksum is right, so this is not a torn write: the record itself is wrong.
                    throw Damage(
                        path: path, line: line, offset: start, reason: "the record does not parse: \(error)")
                }
            } else {
                record = nil
                why = "the record's checksum is wrong"
            }
            guard let record else {
                guard isLast else {
                    throw Damage(
                        path: path, line: line, offset: start, reason: why + ", and records follow it")
                }
                contents.tornTail = (line, start, bytes.count - start)
                break
            }
            if case .header(let version) = record, version != JournalRecord.formatVersion {
                throw Damage(
                    path: path, line: line, offset: start,
                    reason: "journal format \(version) is not \(JournalRecord.formatVersion)")
            }
            contents.records.append(record)
            contents.positions.append((line, start))
            start = end + 1
            contents.intactLength = start
            line += 1
            isFirst = false
        }
        return contents
    }

    /// The header record of a current journal; or, for a journal without one, switches to the first
    /// format and returns its first record (`nil` if that is torn).
    private static func legacyOrHeader(_ line: ArraySlice<UInt8>, into contents: inout Contents)
        -> JournalRecord?
    {
        if let body = JournalCoding.verifiedBody(line), let record = try? JournalRecord(body: body),
            case .header = record
        {
            return record
        }
        contents.isLegacy = true
        return legacy(line)
    }

    private static func legacy(_ line: ArraySlice<UInt8>) -> JournalRecord? {
        JournalRecord(legacyVerified: line)
    }
}
