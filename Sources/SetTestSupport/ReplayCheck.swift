import SetServerCore

/// Proves that replay equals live play: a second core is fed the journal a live core writes, through its
/// bytes, one input at a time, and after each input the two must hold the same state — and that state
/// must survive its own snapshot (a compacted journal) unchanged.
///
/// A decision that read anything the journal does not hold (who is online now, the clock, the order
/// of a dictionary) shows up here as the first input after which the two disagree.
public struct ReplayCheck {
    /// The core that only ever sees journal bytes.
    private let shadow: ServerCore
    private var isFirstBatch = true

    /// Starts a check of a core made with `configuration` that has written nothing yet.
    public init(configuration: ServerConfiguration) {
        shadow = ServerCore(configuration: configuration)
    }

    /// A difference between live play and its replay.
    public struct Mismatch: Error, CustomStringConvertible {
        /// What differs, first record first.
        public var description: String
    }

    /// Replays `records` (the journal written by the live core's last input) and compares the replay
    /// with `live`, then checks that the live state survives its own snapshot.
    public mutating func check(after records: [JournalRecord], live: ServerCore) throws(Mismatch) {
        try feed(records)
        try compare(with: live)
        try compareSnapshotRoundTrip(of: live)
    }

    /// Replays `records` through their bytes, without comparing.
    public mutating func feed(_ records: [JournalRecord]) throws(Mismatch) {
        guard !records.isEmpty else { return }
        let reread = try Self.reread(records)
        do {
            try shadow.replay(reread, isFirst: isFirstBatch)
        } catch {
            throw Mismatch(description: "the journal does not replay: \(error) (\(reread[error.index].text))")
        }
        isFirstBatch = false
    }

    /// Compares the replay so far with `live`.
    public func compare(with live: ServerCore) throws(Mismatch) {
        if let difference = Self.difference(live.snapshotRecords(), shadow.snapshotRecords()) {
            throw Mismatch(description: "replay differs from live play: \(difference)")
        }
    }

    /// Compares the replay of rooms `names` (those the last records touched) with `live`.
    public func compare(rooms names: Set<String>, with live: ServerCore) throws(Mismatch) {
        for name in names.sorted() {
            let expected = live.snapshot(ofRoom: name).map { JournalRecord.snapshot($0) }
            let replayed = shadow.snapshot(ofRoom: name).map { JournalRecord.snapshot($0) }
            guard expected != replayed else { continue }
            throw Mismatch(
                description:
                    "replay differs from live play in \(name): live has\n  \(expected?.text ?? "no room")"
                    + "\nreplay has\n  \(replayed?.text ?? "no room")")
        }
    }

    /// Checks that the compacted journal — what a restart writes — holds `live`'s state again.
    public func compareSnapshotRoundTrip(of live: ServerCore) throws(Mismatch) {
        let expected = live.snapshotRecords()
        let compacted = ServerCore(configuration: live.configuration)
        do {
            try compacted.replay(try Self.reread(expected), isFirst: true)
        } catch {
            throw Mismatch(description: "the snapshot does not replay: \(error)")
        }
        if let difference = Self.difference(expected, compacted.snapshotRecords()) {
            throw Mismatch(description: "the snapshot loses state: \(difference)")
        }
    }

    /// Records read back through their bytes (body, checksum, LF), as the daemon reads its journal.
    public static func reread(_ records: [JournalRecord]) throws(Mismatch) -> [JournalRecord] {
        var out: [JournalRecord] = []
        for record in records {
            let line = record.line
            guard let body = JournalCoding.verifiedBody(line[..<(line.count - 1)]) else {
                throw Mismatch(description: "a record's checksum does not verify: \(record.text)")
            }
            do {
                out.append(try JournalRecord(body: body))
            } catch {
                throw Mismatch(description: "a record does not read back: \(record.text): \(error)")
            }
        }
        return out
    }

    /// The first record where `live` and `replayed` differ, as text, or `nil`.
    private static func difference(_ live: [JournalRecord], _ replayed: [JournalRecord]) -> String? {
        for (a, b) in zip(live, replayed) where a != b {
            return "live has\n  \(a.text)\nreplay has\n  \(b.text)"
        }
        if live.count != replayed.count {
            let extra = live.count > replayed.count ? live[replayed.count...] : replayed[live.count...]
            let side = live.count > replayed.count ? "live" : "replay"
            return "\(side) has \(extra.count) more record(s), first \(extra.first!.text)"
        }
        return nil
    }
}
