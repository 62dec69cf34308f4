import SetServerCore

#if canImport(Glibc)
    import Glibc
#endif

/// The append-only file of every accepted change, and its compaction into a snapshot.
///
/// Each line is `<record> ~<checksum>` ending in LF. A line without its LF or with a wrong checksum can
/// only be the last one, torn by a crash mid-write; restoring drops it. Records are gathered during a
/// pass of the server's queue and written with one `write(2)` before any reply of that pass leaves, so a
/// change is on disk (in the page cache, which survives `kill -9`) before it is acknowledged.
///
/// Owned by the shell, on the server's queue.
final class Journal {
    /// After this many records since the last snapshot, the journal is rewritten as a snapshot.
    static let compactionThreshold = 20_000

    let path: String
    private var fd: Int32
    private var pending: [UInt8] = []
    private(set) var recordsSinceSnapshot = 0

    /// Why the journal could not be opened or written.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Opens (creating if needed) `directory/journal`.
    init(directory: String) throws(Failure) {
        mkdir(directory, 0o700)
        path = directory + "/journal"
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw Failure(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    /// Reads every intact record; a torn or corrupt tail is reported and cut off the file.
    static func read(directory: String) -> (records: [JournalRecord], droppedTail: Bool) {
        let path = directory + "/journal"
        guard let file = fopen(path, "r") else { return ([], false) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[..<n])
        }
        var records: [JournalRecord] = []
        var goodLength = 0
        var start = 0
        while let newline = bytes[start...].firstIndex(of: 0x0A) {
            guard let line = String(validating: bytes[start..<newline], as: UTF8.self),
                let record = verified(line)
            else { break }
            records.append(record)
            start = newline + 1
            goodLength = start
        }
        let dropped = goodLength < bytes.count
        if dropped { truncate(path, off_t(goodLength)) }
        return (records, dropped)
    }

    private static func verified(_ line: String) -> JournalRecord? {
        guard let tilde = line.lastIndex(of: "~"), tilde > line.startIndex,
            line[line.index(before: tilde)] == " "
        else { return nil }
        let body = String(line[..<line.index(before: tilde)])
        guard line[line.index(after: tilde)...] == checksum(body) else { return nil }
        return JournalRecord(parsing: body)
    }

    /// FNV-1a, 32 bits, in hex: enough to tell a torn or scribbled line from a whole one.
    static func checksum(_ text: String) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    static func line(_ record: JournalRecord) -> String {
        let body = record.text
        return body + " ~" + checksum(body) + "\n"
    }

    /// Queues a record; it reaches the file at the next ``write()``.
    func append(_ record: JournalRecord) {
        pending.append(contentsOf: Self.line(record).utf8)
        recordsSinceSnapshot += 1
    }

    /// Whether records are waiting to be written.
    var hasPending: Bool { !pending.isEmpty }

    /// Writes the queued records. A journal that cannot be written is a host problem (disk full); the
    /// game goes on in memory and the error is returned for the log.
    @discardableResult
    func write() -> Failure? {
        guard !pending.isEmpty else { return nil }
        defer { pending.removeAll(keepingCapacity: pending.count <= 1 << 16) }
        return Self.writeAll(pending, to: fd, path: path)
    }

    /// Writes every byte, resuming after short writes and `EINTR`.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) -> Failure? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
            }
            offset += n
        }
        return nil
    }

    /// Replaces the journal with `records`, the whole current state: written to a temporary file, flushed
    /// to disk and renamed over the journal, so a crash leaves either the old journal or the new one.
    func compact(to records: [JournalRecord]) throws(Failure) {
        write()
        let temporary = path + ".tmp"
        let out = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw Failure(description: "cannot open \(temporary)") }
        var bytes: [UInt8] = []
        for record in records { bytes.append(contentsOf: Self.line(record).utf8) }
        if let failure = Self.writeAll(bytes, to: out, path: temporary) {
            close(out)
            throw failure
        }
        fsync(out)
        close(out)
        guard rename(temporary, path) == 0 else { throw Failure(description: "cannot rename \(temporary)") }
        close(fd)
        fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC, 0o600)
        recordsSinceSnapshot = 0
    }
}
