import SetServerCore

#if canImport(Glibc)
    import Glibc
#endif

/// The journal file: records appended as they are accepted, flushed to disk as `--fsync` says, and
/// rewritten as a snapshot of the whole state now and then.
///
/// Records are gathered during a pass of the server's queue and written with one `write(2)` before any
/// reply of that pass leaves, so a change is in the file (the page cache, which survives `kill -9`)
/// before it is acknowledged.
///
/// A full disk must never cost an acknowledged change. So the journal keeps disk blocks reserved ahead
/// of its end (`fallocate` without changing the size): appends go into blocks already allocated and
/// cannot fail for want of space. When the reserve cannot be renewed, the journal says so *before* the
/// next change is accepted (the core then refuses changes with `UNAVAILABLE`); a write that fails all
/// the same is cut back to the last whole record, so nothing is ever glued onto half a record. Writing
/// resumes by itself once a new reserve can be had: the journal is rewritten from the core's state first,
/// so the changes made meanwhile (players dropping, seats expiring) are not lost.
///
/// Owned by the shell, on the server's queue.
final class Journal {
    /// After this many records since the last snapshot, the journal is rewritten as a snapshot.
    static let compactionThreshold = 20_000
    /// Disk kept reserved past the journal's end.
    static let reserveAhead = 4 << 20
    /// Renew the reserve when less than this is left of it: more than one pass can write. A pass is one
    /// read event, at most 4 × 64 KiB of input, and the rate limit admits at most 200 commands of one
    /// connection at once; the largest record (a chat of 1,024 escaped bytes) is about 3 KiB, so a pass
    /// writes well under 1 MiB.
    static let reserveLow = 2 << 20

    let directory: StateDirectory
    let policy: FsyncPolicy
    private var fd: Int32
    private var pending: [UInt8] = []
    /// The length of the file's whole records.
    private(set) var length: Int
    /// Where the reserved blocks end; `nil` where the file system cannot reserve.
    private var reservedEnd: Int?
    private var needsSync = false
    private(set) var recordsSinceSnapshot = 0
    /// Why the journal cannot be written, or `nil`.
    private(set) var problem: FileSystem.Failure?

    var path: String { directory.journalPath }

    /// Opens (creating if needed) the journal in `directory`.
    init(directory: StateDirectory, policy: FsyncPolicy) throws(FileSystem.Failure) {
        self.directory = directory
        self.policy = policy
        fd = try FileSystem.open(directory.journalPath, O_WRONLY | O_APPEND | O_CREAT, for: "open")
        length = FileSystem.size(fd)
    }

    deinit { close(fd) }

    /// Queues a record; it reaches the file at the next ``write()``. Records made while the journal is
    /// unavailable are dropped: the rewrite that ends the outage captures their effect.
    func append(_ record: JournalRecord) {
        guard problem == nil else { return }
        record.appendLine(to: &pending)
        recordsSinceSnapshot += 1
    }

    /// Whether records are waiting to be written.
    var hasPending: Bool { !pending.isEmpty }

    /// Writes the queued records and, with `--fsync always`, flushes them to disk; returns why the
    /// records could not be made as durable as the policy says (the write, or that flush, failed), or
    /// `nil`. On failure the file is cut back to its last whole record and the journal is unavailable.
    /// A reserve that cannot be renewed afterwards is no failure of this write (it went into reserved
    /// blocks): it makes ``problem`` say the journal cannot take the next one.
    @discardableResult
    func write() -> FileSystem.Failure? {
        guard problem == nil, !pending.isEmpty else { return problem }
        defer { pending.removeAll(keepingCapacity: pending.count <= 1 << 16) }
        let (written, failure) = FileSystem.writeAll(pending, to: fd, path: path)
        if let failure {
            if written > 0 { try? FileSystem.truncate(fd, to: length, path: path) }
            problem = failure
            return failure
        }
        length += written
        needsSync = true
        if policy == .always {
            sync()
            if let problem { return problem }
        }
        renewReserve()
        return nil
    }

    /// Flushes written records to disk (once a second with `--fsync everysec`).
    func sync() {
        guard needsSync, problem == nil else { return }
        do {
            try FileSystem.sync(fd, path: path)
            needsSync = false
        } catch {
            problem = error
        }
    }

    /// Keeps blocks reserved past the end, so the next writes cannot run out of space.
    func renewReserve() {
        guard problem == nil else { return }
        if let end = reservedEnd, end - length >= Self.reserveLow { return }
        do {
            if try FileSystem.reserve(fd, at: length, length: Self.reserveAhead, path: path) {
                reservedEnd = length + Self.reserveAhead
            } else {
                reservedEnd = nil
            }
        } catch {
            problem = error
        }
    }

    /// Replaces the journal with `records`, the whole current state: written to a temporary file, flushed
    /// to disk and renamed over the journal, then the directory is flushed, so a crash leaves either the
    /// old journal or the new one. On success the journal is available again.
    func compact(to records: [JournalRecord]) throws(FileSystem.Failure) {
        write()
        var bytes: [UInt8] = []
        for record in records { record.appendLine(to: &bytes) }
        try FileSystem.replace(path, with: bytes, via: directory.temporaryPath, in: directory.path)
        let reopened = try FileSystem.open(path, O_WRONLY | O_APPEND, for: "open")
        close(fd)
        fd = reopened
        length = bytes.count
        reservedEnd = nil
        pending = []
        needsSync = false
        recordsSinceSnapshot = 0
        problem = nil
        renewReserve()
    }
}
