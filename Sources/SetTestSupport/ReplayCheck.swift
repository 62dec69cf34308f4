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
    /// Each room's archive at the last compare that agreed, as its count and newest game's id and times
    /// (see ``digest(_:known:)``): the count alone stops changing once `--max-archive` is reached. A box,
    /// so that comparing stays a non-mutating call for the checkers that hold the check.
    private let compared = ComparedArchives()

    /// The archives a compare agreed on last.
    private final class ComparedArchives {
        var rooms: [String: String] = [:]
    }

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

    /// Compares the replay so far with `live`, byte for byte as a journal writes them: every room (times
    /// and options included), rating and claimed name, and of the archive how many games each room has
    /// and the newest (an archived game never changes once kept, and comparing all of them every time
    /// would cost the whole evening at every step).
    public func compare(with live: ServerCore) throws(Mismatch) {
        let (liveRecords, liveArchives) = Self.digest(live, known: compared.rooms)
        let (replayed, _) = Self.digest(shadow, known: compared.rooms)
        if let difference = Self.difference(liveRecords, replayed) {
            throw Mismatch(description: "replay differs from live play: \(difference)")
        }
        compared.rooms = liveArchives
    }

    /// Compares every room of the replay with `live` value by value (as ``compare(rooms:with:)``), and the
    /// ratings, claims and archive as ``compare(with:)`` does: what changes at every step, without
    /// writing every room's bytes.
    public func compareValues(with live: ServerCore) throws(Mismatch) {
        let (all, liveArchives) = Self.digest(live, known: compared.rooms)
        let liveRecords = all.filter { if case .snapshot = $0 { false } else { true } }
        let replayed = Self.digest(shadow, known: compared.rooms).records.filter {
            if case .snapshot = $0 { false } else { true }
        }
        if let difference = Self.difference(liveRecords, replayed) {
            throw Mismatch(description: "replay differs from live play: \(difference)")
        }
        let names = Set(live.roomNames).union(shadow.roomNames)
        try compare(rooms: names, with: live)
        compared.rooms = liveArchives
    }

    /// A core's state as snapshot records, with each room's archive reduced to its count and, where the
    /// archive is not the one in `known` (the last compare that agreed), its newest game; and each room's
    /// archive as `known` keeps it.
    ///
    /// A game once archived never changes, so a newest game that agreed once is not written out again:
    /// a game record's JSON is the dearest record to write, and comparing it after every input made the
    /// check cost more than the play it checks.
    private static func digest(_ core: ServerCore, known: [String: String]) -> (
        records: [JournalRecord], archives: [String: String]
    ) {
        var records: [JournalRecord] = []
        var counts: [String: Int] = [:]
        var newest: [String: JournalRecord] = [:]
        var keys: [String: String] = [:]
        for record in core.snapshotRecords() {
            guard case .archive(let room, let game) = record else {
                records.append(record)
                continue
            }
            let count = (counts[room] ?? 0) + 1
            counts[room] = count
            newest[room] = record
            // Times to the millisecond, as the journal keeps them.
            let start = Int((game.startedAt * 1000).rounded())
            let end = Int((game.endedAt * 1000).rounded())
            keys[room] = "\(count) \(game.id ?? "-") \(start) \(end)"
        }
        for room in keys.keys.sorted() {
            let key = keys[room]!
            records.append(.chat(room: room, name: "archived-games", text: key))
            if known[room] != key { records.append(newest[room]!) }
        }
        let archives = keys
        return (records, archives)
    }

    /// Compares the replay of rooms `names` (those the last records touched) with `live`: their games,
    /// seats, presence and game-night state, value by value (cheaper than the bytes ``compare(with:)``
    /// compares, which also holds the times and options).
    public func compare(rooms names: Set<String>, with live: ServerCore) throws(Mismatch) {
        for name in names.sorted() {
            let a = live.snapshot(ofRoom: name)
            let b = shadow.snapshot(ofRoom: name)
            if let a, let b, a.game == b.game, a.night == b.night, a.gameIndex == b.gameIndex,
                a.seats == b.seats, a.votes.map(\.name) == b.votes.map(\.name)
            {
                continue
            }
            if a == nil, b == nil { continue }
            let expected = a.map { JournalRecord.snapshot($0) }
            let replayed = b.map { JournalRecord.snapshot($0) }
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
