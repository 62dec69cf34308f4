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

    /// Journal lines read before, shared by the checks of one run.
    private let knownLines: KnownLines

    /// Starts a check of a core made with `configuration` that has written nothing yet; `knownLines`
    /// remembers the lines read (archive lines, and every line of a whole journal), for the next check
    /// of the same run.
    public init(configuration: ServerConfiguration, knownLines: KnownLines = KnownLines()) {
        shadow = ServerCore(configuration: configuration)
        self.knownLines = knownLines
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
        try feed(reread: try Self.reread(records))
    }

    /// Replays the journal lines in `bytes` (whole lines, each with its checksum and LF, as a journal
    /// file holds them), without comparing: the bytes a disk kept, read as a restart reads them, with no
    /// record encoded again.
    public mutating func feed(journal bytes: ArraySlice<UInt8>) throws(Mismatch) {
        try feed(lines: bytes)
    }

    /// Replays a whole journal (a rewrite: header, archive, snapshots), as ``feed(journal:)`` does,
    /// remembering every line: the next rewrite, and the restart that reads it, hold most of them again.
    public mutating func feed(wholeJournal bytes: ArraySlice<UInt8>) throws(Mismatch) {
        knownLines.beginWholeJournal()
        try feed(lines: bytes)
    }

    private mutating func feed(lines bytes: ArraySlice<UInt8>) throws(Mismatch) {
        var records: [JournalRecord] = []
        records.reserveCapacity(JournalCoding.newlineCount(in: bytes))
        var start = bytes.startIndex
        while start < bytes.endIndex {
            guard let end = JournalCoding.firstNewline(in: bytes[start...]) else {
                throw Mismatch(description: "the journal ends inside a record")
            }
            // Every line is remembered, a step's too: the restart after it reads the same bytes back.
            records.append(try read(line: bytes[start..<end], remembering: true))
            start = end + 1
        }
        guard !records.isEmpty else { return }
        try feed(reread: records)
    }

    private mutating func feed(reread: [JournalRecord]) throws(Mismatch) {
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
    ///
    /// Returns `live`'s rooms as it compared them, by name, for checks of the same moment.
    @discardableResult
    public func compare(with live: ServerCore) throws(Mismatch) -> [RoomSnapshot] {
        let (liveRecords, liveArchives) = Self.digest(live, known: compared.rooms)
        let (replayed, _) = Self.digest(shadow, known: compared.rooms)
        if let difference = Self.difference(liveRecords, replayed) {
            throw Mismatch(description: "replay differs from live play: \(difference)")
        }
        compared.rooms = liveArchives
        return liveRecords.compactMap { if case .snapshot(let room) = $0 { room } else { nil } }
    }

    /// Compares every room of the replay with `live` value by value (as ``compare(rooms:with:)``), and the
    /// ratings, claims and archive as ``compare(with:)`` does: what changes at every step, without
    /// writing every room's bytes. Returns `live`'s rooms, by name, for checks of the same moment.
    @discardableResult
    public func compareValues(with live: ServerCore) throws(Mismatch) -> [RoomSnapshot] {
        // Each side's state taken once: its rooms compared by value, the rest as records.
        var liveRooms: [String: RoomSnapshot] = [:]
        var replayedRooms: [String: RoomSnapshot] = [:]
        func split(_ records: [JournalRecord], _ rooms: inout [String: RoomSnapshot]) -> [JournalRecord] {
            records.filter { record in
                guard case .snapshot(let room) = record else { return true }
                rooms[room.name] = room
                return false
            }
        }
        let (all, liveArchives) = Self.digest(live, known: compared.rooms)
        let liveRecords = split(all, &liveRooms)
        let replayed = split(Self.digest(shadow, known: compared.rooms).records, &replayedRooms)
        if let difference = Self.difference(liveRecords, replayed) {
            throw Mismatch(description: "replay differs from live play: \(difference)")
        }
        for name in Set(liveRooms.keys).union(replayedRooms.keys).sorted() {
            try Self.compare(room: name, liveRooms[name], replayedRooms[name])
        }
        compared.rooms = liveArchives
        return liveRooms.keys.sorted().map { liveRooms[$0]! }
    }

    /// A core's state as snapshot records, with each room's archive reduced to its count and, where the
    /// archive is not the one in `known` (the last compare that agreed), its newest game; and each room's
    /// archive as `known` keeps it.
    ///
    /// A game once archived never changes, so a newest game that agreed once is not written out again:
    /// a game record's JSON is the dearest record to write, and comparing it after every input made the
    /// check cost more than the play it checks.
    ///
    /// The same records, in the same order, as ``digest(_:known:)`` of the core's whole
    /// ``ServerCore/snapshotRecords()`` gives (the records other than archived games, then each room's
    /// key and newest game by room name), taken from the core's summary of its archive: its rooms'
    /// games are neither copied out nor counted here one by one.
    private static func digest(_ core: ServerCore, known: [String: String]) -> (
        records: [JournalRecord], archives: [String: String]
    ) {
        var (records, archives) = core.snapshotRecordsSummarizingArchive()
        var keys: [String: String] = [:]
        records.reserveCapacity(records.count + 2 * archives.count)
        for (room, count, game) in archives {
            let key = key(count: count, newest: game)
            keys[room] = key
            records.append(.chat(room: room, name: "archived-games", text: key))
            if known[room] != key { records.append(.archive(room: room, game: game)) }
        }
        return (records, keys)
    }

    /// A room's archive as a compare keeps it: its count, and its newest game's id and times to the
    /// millisecond, as the journal keeps them.
    private static func key(count: Int, newest game: ArchivedGame) -> String {
        let start = Int((game.startedAt * 1000).rounded())
        let end = Int((game.endedAt * 1000).rounded())
        return "\(count) \(game.id ?? "-") \(start) \(end)"
    }

    /// ``digest(_:known:)`` of a core's snapshot records, with where each record it keeps came from
    /// among them (`nil` for the archives' counts, which it makes).
    private static func digest(_ snapshot: [JournalRecord], known: [String: String]) -> (
        records: [JournalRecord], archives: [String: String], sources: [Int?]
    ) {
        var records: [JournalRecord] = []
        var sources: [Int?] = []
        var counts: [String: Int] = [:]
        var newest: [String: Int] = [:]
        // A room's games come one after the other (a snapshot writes the archive room by room): each run
        // of them is counted, and the tables (a name hashed twice a game, hundreds of games a check) are
        // touched once a run. Runs of one room apart from each other would still add up.
        var run: (room: String, count: Int, last: Int)?
        func endRun() {
            guard let run else { return }
            counts[run.room, default: 0] += run.count
            newest[run.room] = run.last
        }
        for index in snapshot.indices {
            guard case .archive(let room, _) = snapshot[index] else {
                records.append(snapshot[index])
                sources.append(index)
                continue
            }
            if run?.room == room {
                run!.count += 1
                run!.last = index
            } else {
                endRun()
                run = (room, 1, index)
            }
        }
        endRun()
        // Each room's key made once, from its newest game (not for every game of the archive).
        var keys: [String: String] = [:]
        for (room, index) in newest {
            guard case .archive(_, let game) = snapshot[index] else { continue }
            keys[room] = key(count: counts[room]!, newest: game)
        }
        for room in keys.keys.sorted() {
            let key = keys[room]!
            records.append(.chat(room: room, name: "archived-games", text: key))
            sources.append(nil)
            if known[room] != key {
                records.append(snapshot[newest[room]!])
                sources.append(newest[room]!)
            }
        }
        return (records, keys, sources)
    }

    /// Compares the replay so far with the journal just rewritten whole from a live core (a restart's,
    /// or the end of an outage's): `records`, written as the lines whose bodies are `bodies`, as
    /// ``compare(with:)`` compares it with the live core — the live side's bytes are those the rewrite
    /// wrote, not encoded a second time. What changes after the rewrite reaches the replay as records,
    /// checked as every step's are.
    public func compare(rewrite records: [JournalRecord], bodies: [[UInt8]]) throws(Mismatch) {
        precondition(records.count == bodies.count, "a body for each record")
        let (liveRecords, liveArchives, sources) = Self.digest(records, known: compared.rooms)
        let (replayed, _) = Self.digest(shadow, known: compared.rooms)
        for (index, (a, b)) in zip(liveRecords, replayed).enumerated() {
            let written = sources[index].map { bodies[$0] } ?? a.body
            guard !JournalCoding.sameBytes(written[...], b.body[...]) else { continue }
            let text = String(decoding: written, as: UTF8.self)
            throw Mismatch(
                description:
                    "replay differs from the rewritten journal: written\n  \(text)\nreplay has\n  \(b.text)")
        }
        if liveRecords.count != replayed.count, let difference = Self.difference(liveRecords, replayed) {
            throw Mismatch(description: "replay differs from the rewritten journal: \(difference)")
        }
        compared.rooms = liveArchives
    }

    /// Compares the replay of rooms `names` (those the last records touched) with `live`: their games,
    /// seats, presence and game-night state, value by value (cheaper than the bytes ``compare(with:)``
    /// compares, which also holds the times and options).
    ///
    /// Returns `live`'s rooms among `names` (those it has), by name, for checks of the same moment.
    @discardableResult
    public func compare(rooms names: Set<String>, with live: ServerCore) throws(Mismatch) -> [RoomSnapshot] {
        var rooms: [RoomSnapshot] = []
        for name in names.sorted() {
            let room = live.snapshot(ofRoom: name)
            try Self.compare(room: name, room, shadow.snapshot(ofRoom: name))
            if let room { rooms.append(room) }
        }
        return rooms
    }

    /// Compares room `name` as live play (`a`) and the replay (`b`) hold it, value by value.
    private static func compare(room name: String, _ a: RoomSnapshot?, _ b: RoomSnapshot?) throws(Mismatch) {
        if let a, let b, a.game == b.game, a.night == b.night, a.gameIndex == b.gameIndex,
            a.seats == b.seats, a.votes.map(\.name) == b.votes.map(\.name)
        {
            return
        }
        if a == nil, b == nil { return }
        let expected = a.map { JournalRecord.snapshot($0) }
        let replayed = b.map { JournalRecord.snapshot($0) }
        throw Mismatch(
            description:
                "replay differs from live play in \(name): live has\n  \(expected?.text ?? "no room")"
                + "\nreplay has\n  \(replayed?.text ?? "no room")")
    }

    /// Checks that the compacted journal — what a restart writes — holds `live`'s state again.
    ///
    /// Each record is encoded once on each side and compared as bytes (a record's `==` encodes both
    /// sides every time); archive lines read before are taken from ``KnownLines`` (reading a line is a
    /// function of its bytes).
    public func compareSnapshotRoundTrip(of live: ServerCore) throws(Mismatch) {
        let expected = live.snapshotRecords().map(\.body)
        let compacted = ServerCore(configuration: live.configuration)
        do {
            var records: [JournalRecord] = []
            for body in expected {
                records.append(try read(line: JournalCoding.line(body: body).dropLast(), remembering: false))
            }
            try compacted.replay(records, isFirst: true)
        } catch {
            throw Mismatch(description: "the snapshot does not replay: \(error)")
        }
        let again = compacted.snapshotRecords().map(\.body)
        guard again != expected else { return }
        func text(_ body: [UInt8]) -> String { String(decoding: body, as: UTF8.self) }
        for (a, b) in zip(expected, again) where a != b {
            throw Mismatch(
                description: "the snapshot loses state: live has\n  \(text(a))\nreplay has\n  \(text(b))")
        }
        throw Mismatch(
            description: "the snapshot loses state: \(expected.count) records became \(again.count)")
    }

    /// Records read back through their bytes (body, checksum, LF), as the daemon reads its journal.
    public static func reread(_ records: [JournalRecord]) throws(Mismatch) -> [JournalRecord] {
        var out: [JournalRecord] = []
        out.reserveCapacity(records.count)
        for record in records {
            let line = record.line
            out.append(try read(line: line[..<(line.count - 1)]))
        }
        return out
    }

    /// The record a journal line (without its LF) holds, its checksum verified; a line read before (an
    /// archive line, or with `remembering` any line) from ``KnownLines``.
    private func read(line: ArraySlice<UInt8>, remembering: Bool) throws(Mismatch) -> JournalRecord {
        guard let body = JournalCoding.verifiedBody(line) else {
            throw Mismatch(description: "a record's checksum does not verify: \(Self.text(line))")
        }
        do {
            return try knownLines.record(
                body: body, remembering: remembering || line.starts(with: Self.archivePrefix))
        } catch {
            throw Mismatch(description: "a record does not read back: \(Self.text(line)): \(error)")
        }
    }

    private static func text(_ line: ArraySlice<UInt8>) -> String { String(decoding: line, as: UTF8.self) }

    private static let archivePrefix = Array("archive ".utf8)

    /// The record a journal line (without its LF) holds, its checksum verified.
    static func read(line: ArraySlice<UInt8>) throws(Mismatch) -> JournalRecord {
        func text() -> String { String(decoding: line, as: UTF8.self) }
        guard let body = JournalCoding.verifiedBody(line) else {
            throw Mismatch(description: "a record's checksum does not verify: \(text())")
        }
        do {
            return try JournalRecord(body: body)
        } catch {
            throw Mismatch(description: "a record does not read back: \(text()): \(error)")
        }
    }

    /// The first record where `live` and `replayed` differ, as text, or `nil`.
    private static func difference(_ live: [JournalRecord], _ replayed: [JournalRecord]) -> String? {
        // Identical values need no bytes written to be told equal (most of a whole-state compare's
        // records: ratings, names, the archives' counts).
        for (a, b) in zip(live, replayed) where !a.isIdentical(to: b) && a != b {
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
