import SetServerCore

/// The journal file as a disk keeps it: bytes written reach the page cache (they survive the process),
/// bytes synced reach the platter (they survive a power cut), and a crash keeps the synced bytes and any
/// prefix of the rest, torn at any byte.
struct VirtualDisk {
    /// Every byte written, synced or not.
    private(set) var bytes: [UInt8] = []
    /// How many of them are on the platter.
    private(set) var synced = 0
    /// When the last sync happened (uptime).
    private(set) var syncedAt = 0.0
    /// How many of them some client was told about: a record counts once a line was sent after it.
    private(set) var acknowledged = 0
    /// When the oldest acknowledged byte not yet synced was acknowledged.
    private(set) var unsyncedSince: Double?
    /// Records appended since the last write, not yet in `bytes`.
    private(set) var appended: [UInt8] = []
    private var appendedRecords: [JournalRecord] = []
    /// Records written since the simulation last took them, to replay.
    var written: [JournalRecord] = []
    /// Where the bytes of `written` start in `bytes`.
    private var writtenFrom = 0
    /// Writes that will fail, and why (an I/O error: the write itself fails).
    var failures: [String] = []
    /// Seconds the disk stays full once it fills: the journal's reserve cannot be renewed after the
    /// next write, so the journal says it cannot take more (the write itself still fits the reserve).
    var fullFor = 0
    /// Whether the disk is full now.
    var isFull = false
    /// Whether the journal is unavailable (a write failed and the state was not rewritten since):
    /// records appended meanwhile are dropped, as the shell's journal drops them.
    private(set) var isUnavailable = false

    /// Appends a record; it reaches `bytes` at the next commit.
    mutating func append(_ record: JournalRecord) {
        guard !isUnavailable else { return }
        record.appendLine(to: &appended)
        appendedRecords.append(record)
    }

    /// Whether records were appended and not written.
    var hasAppended: Bool { !appended.isEmpty }

    /// The records written since the last call, as their bytes on the disk (the replay check reads
    /// these, so no record is encoded again), and those records; from now on they count as taken.
    mutating func takeWritten() -> (records: [JournalRecord], bytes: ArraySlice<UInt8>) {
        defer {
            written = []
            writtenFrom = bytes.count
        }
        return (written, bytes[writtenFrom...])
    }

    /// Writes what was appended (and syncs it with `--fsync always`), or fails.
    mutating func commit(syncing: Bool, at now: Double) -> String? {
        if let failure = failures.first {
            failures.removeFirst()
            appended = []
            appendedRecords = []
            return failure
        }
        guard !isUnavailable else { return "the journal is unavailable" }
        bytes += appended
        appended = []
        written += appendedRecords
        appendedRecords = []
        if syncing { sync(at: now) }
        if fullFor > 0 { isFull = true }
        return nil
    }

    /// A line went out after the bytes written so far: they are acknowledged.
    mutating func acknowledge(at now: Double) {
        guard acknowledged < bytes.count else { return }
        if unsyncedSince == nil, synced < bytes.count { unsyncedSince = now }
        acknowledged = bytes.count
    }

    /// Flushes everything written to the platter.
    mutating func sync(at now: Double) {
        synced = bytes.count
        syncedAt = now
        unsyncedSince = nil
    }

    /// Rewrites the journal as `records` (a compaction), synced; the journal is available again.
    /// Returns each record's body as written (the replay check compares the rewrite's replay with them).
    @discardableResult
    mutating func rewrite(_ records: [JournalRecord], at now: Double) -> [[UInt8]] {
        bytes = []
        var bodies: [[UInt8]] = []
        bodies.reserveCapacity(records.count)
        for record in records {
            let body = record.body
            JournalCoding.appendLine(body: body, to: &bytes)
            bodies.append(body)
        }
        appended = []
        appendedRecords = []
        written = []
        writtenFrom = bytes.count
        acknowledged = bytes.count
        isUnavailable = false
        sync(at: now)
        return bodies
    }

    /// The journal said it cannot take more: records are dropped until the state is rewritten.
    mutating func becomeUnavailable() {
        isUnavailable = true
        appended = []
        appendedRecords = []
    }

    /// A second passes: a full disk frees up after its time.
    mutating func tick() {
        guard isFull else { return }
        fullFor -= 1
        if fullFor <= 0 { isFull = false }
    }

    /// What survives a crash: the synced bytes and the unsynced tail torn `tear` ‰ of the way along.
    func survivingCrash(tear: Int) -> [UInt8] {
        let tail = bytes.count - synced
        return Array(bytes[..<(synced + tail * tear / 1000)])
    }
}
