import SetServerCore
import Testing

@testable import SetTestSupport

/// The replay check reads a journal's bytes as a restart reads them (the simulation feeds it the bytes
/// its disk holds), remembering archive lines it read: the same check, cheaper, and no weaker.
@Suite struct ReplayCheckBytesTests {
    /// A busy night's state (every kind of record, a finished game in the archive) as journal bytes.
    private func night() throws -> (server: EmbeddedServer, records: [JournalRecord], bytes: [UInt8]) {
        let server = try BusyNight.play(on: EmbeddedServer())
        let records = server.core.snapshotRecords()
        #expect(records.contains { if case .archive = $0 { true } else { false } })
        return (server, records, records.flatMap(\.line))
    }

    @Test func aJournalsBytesReplayToTheLiveStateAndAgainFromTheRememberedArchive() throws {
        let (server, _, bytes) = try night()
        let lines = ReplayCheck.KnownLines()
        for _ in 0..<2 {
            var check = ReplayCheck(configuration: server.core.configuration, knownLines: lines)
            try check.feed(wholeJournal: bytes[...])
            try check.compare(with: server.core)
            try check.compareValues(with: server.core)
            try check.compareSnapshotRoundTrip(of: server.core)
        }
    }

    @Test func aChangedArchiveLineIsReadAgainAndFailsTheCheck() throws {
        let (server, records, bytes) = try night()
        let lines = ReplayCheck.KnownLines()
        var first = ReplayCheck(configuration: server.core.configuration, knownLines: lines)
        try first.feed(journal: bytes[...])
        // A digit of the last archive line (the newest game of its room) changed, its checksum made
        // right: a different game, which must not be taken for the one remembered.
        let index = try #require(records.lastIndex { if case .archive = $0 { true } else { false } })
        var body = records[index].body
        let digit = try #require(body.firstIndex { (0x31...0x38).contains($0) })
        body[digit] += 1
        var changed: [UInt8] = []
        for (i, record) in records.enumerated() {
            changed += i == index ? JournalCoding.line(body: body) : record.line
        }
        var second = ReplayCheck(configuration: server.core.configuration, knownLines: lines)
        #expect(throws: ReplayCheck.Mismatch.self) {
            try second.feed(journal: changed[...])
            try second.compare(with: server.core)
        }
    }

    /// The core's summary of its state is its snapshot records with each room's archive reduced to
    /// its count and newest game: what the replay check's compares used to work out from every game.
    @Test func theArchiveSummaryIsTheSnapshotsArchiveCountedWithItsNewestGame() throws {
        let (server, records, _) = try night()
        let (summarized, archives) = server.core.snapshotRecordsSummarizingArchive()
        let kept = records.filter { if case .archive = $0 { false } else { true } }
        #expect(summarized.map(\.body) == kept.map(\.body))
        var expected: [(room: String, count: Int, newest: [UInt8])] = []
        for case .archive(let room, let game) in records {
            let body = JournalRecord.archive(room: room, game: game).body
            if expected.last?.room == room {
                expected[expected.count - 1].count += 1
                expected[expected.count - 1].newest = body
            } else {
                expected.append((room, 1, body))
            }
        }
        #expect(archives.count == expected.count)
        for (a, b) in zip(archives, expected) {
            #expect(a.room == b.room && a.count == b.count)
            #expect(JournalRecord.archive(room: a.room, game: a.newest).body == b.newest)
        }
    }

    /// A replay that lost one archived game, the oldest (never compared itself), disagrees with live
    /// play in the archive's count, at every kind of compare.
    @Test func aReplayThatLostAnOlderArchivedGameFailsEveryCompare() throws {
        let (server, records, _) = try night()
        let first = try #require(records.firstIndex { if case .archive = $0 { true } else { false } })
        var bytes: [UInt8] = []
        for (i, record) in records.enumerated() where i != first { bytes += record.line }
        var check = ReplayCheck(configuration: server.core.configuration)
        try check.feed(wholeJournal: bytes[...])
        #expect(throws: ReplayCheck.Mismatch.self) { try check.compareValues(with: server.core) }
        #expect(throws: ReplayCheck.Mismatch.self) { try check.compare(with: server.core) }
    }

    @Test func aReplayWithARatingOneBitOffFailsEveryCompare() throws {
        let (server, records, _) = try night()
        let index = try #require(records.firstIndex { if case .rating = $0 { true } else { false } })
        guard
            case .rating(let name, let mode, let bits, let games, let wins, let sets, let wrong, let stale) =
                records[index]
        else { return }
        var changed = records
        changed[index] = .rating(
            name: name, mode: mode, rating: bits ^ 1, games: games, wins: wins, sets: sets, wrong: wrong,
            stale: stale)
        var check = ReplayCheck(configuration: server.core.configuration)
        try check.feed(wholeJournal: changed.flatMap(\.line)[...])
        #expect(throws: ReplayCheck.Mismatch.self) { try check.compareValues(with: server.core) }
        #expect(throws: ReplayCheck.Mismatch.self) { try check.compare(with: server.core) }
    }

    /// Records a compare takes as the same without writing them are the same bytes; texts Swift calls
    /// equal but writes differently, and zeros of either sign, are not taken as the same.
    @Test func recordsTakenAsIdenticalWriteTheSameBytes() throws {
        let rating = JournalRecord.rating(
            name: "ann", mode: "normal", rating: 0x4097_7000_0000_0000, games: 3, wins: 1, sets: 9, wrong: 2,
            stale: 0)
        #expect(rating.isIdentical(to: rating) && rating.body == rating.body)
        let composed = JournalRecord.chat(room: "r", name: "archived-games", text: "caf\u{E9}")
        let decomposed = JournalRecord.chat(room: "r", name: "archived-games", text: "cafe\u{301}")
        #expect("caf\u{E9}" == "cafe\u{301}", "Swift calls them equal")
        #expect(composed.body != decomposed.body, "the journal writes them differently")
        #expect(!composed.isIdentical(to: decomposed))
        #expect(composed != decomposed)
        let zero = JournalRecord.gain(name: "ann", mode: "normal", time: 0, amount: 1)
        let negativeZero = JournalRecord.gain(name: "ann", mode: "normal", time: -0.0, amount: 1)
        #expect(!zero.isIdentical(to: negativeZero))
        #expect(!rating.isIdentical(to: zero), "another kind")
        let snapshot = try night().records.first { if case .snapshot = $0 { true } else { false } }
        #expect(snapshot.map { !$0.isIdentical(to: $0) } == true, "a snapshot's bytes always decide")
    }

    @Test func aTornOrScribbledJournalDoesNotReplay() throws {
        let (server, _, bytes) = try night()
        var torn = ReplayCheck(configuration: server.core.configuration)
        #expect(throws: ReplayCheck.Mismatch.self) { try torn.feed(journal: bytes.dropLast()) }
        var scribbled = bytes
        scribbled[scribbled.count / 2] ^= 0x01
        var check = ReplayCheck(configuration: server.core.configuration)
        #expect(throws: ReplayCheck.Mismatch.self) { try check.feed(journal: scribbled[...]) }
    }

    @Test func aWholeJournalReadAgainIsTakenFromTheKnownLinesAndStillReplaysToTheLiveState() throws {
        let (server, records, bytes) = try night()
        let lines = ReplayCheck.KnownLines()
        var first = ReplayCheck(configuration: server.core.configuration, knownLines: lines)
        try first.feed(wholeJournal: bytes[...])
        #expect(lines.hits == 0)
        // The daemon's own reading of the same bytes takes every line from what the check read.
        lines.beginWholeJournal()
        let contents = try JournalReader.parse(bytes, path: "journal", reading: lines.record(body:))
        #expect(contents.records.map(\.body) == records.map(\.body))
        #expect(lines.hits == records.count - 1)  // all but the header, which the reader reads itself
        var second = ReplayCheck(configuration: server.core.configuration, knownLines: lines)
        try second.feed(wholeJournal: bytes[...])
        try second.compare(with: server.core)
        try second.compare(rewrite: records, bodies: records.map(\.body))
        // Every line but the header: the daemon's reading above did not take it from the cache, so
        // it was forgotten with the first read's lines.
        #expect(lines.hits == 2 * records.count - 2)
    }

    @Test func aChangedSnapshotLineInAWholeJournalIsReadAgainAndFailsTheCheck() throws {
        let (server, records, bytes) = try night()
        let lines = ReplayCheck.KnownLines()
        var first = ReplayCheck(configuration: server.core.configuration, knownLines: lines)
        try first.feed(wholeJournal: bytes[...])
        // A seat's token changed in the last room's snapshot, its checksum made right.
        let index = try #require(records.lastIndex { if case .snapshot = $0 { true } else { false } })
        guard case .snapshot(var room) = records[index], !room.seats.isEmpty else {
            Issue.record("the night's last room has no seat")
            return
        }
        room.seats[0].token = "changed"
        var changed = records
        changed[index] = .snapshot(room)
        var second = ReplayCheck(configuration: server.core.configuration, knownLines: lines)
        try second.feed(wholeJournal: changed.flatMap(\.line)[...])
        #expect(throws: ReplayCheck.Mismatch.self) { try second.compare(with: server.core) }
        #expect(throws: ReplayCheck.Mismatch.self) {
            try second.compare(rewrite: records, bodies: records.map(\.body))
        }
    }

    @Test func aRewriteWhoseBytesAreNotTheReplayedStateFailsTheCheck() throws {
        let (server, records, bytes) = try night()
        var check = ReplayCheck(configuration: server.core.configuration)
        try check.feed(wholeJournal: bytes[...])
        // The bytes written said something else than the state replayed from them: a chat in the
        // last room's snapshot's place, or one record fewer.
        let index = try #require(records.lastIndex { if case .snapshot = $0 { true } else { false } })
        var bodies = records.map(\.body)
        bodies[index] = JournalRecord.chat(room: "r", name: "n", text: "t").body
        #expect(throws: ReplayCheck.Mismatch.self) { try check.compare(rewrite: records, bodies: bodies) }
        #expect(throws: ReplayCheck.Mismatch.self) {
            try check.compare(
                rewrite: Array(records.dropLast()), bodies: Array(records.dropLast().map(\.body)))
        }
    }

    @Test func linesThatDifferOnlyBetweenTheBytesTheirKeyHashesAreToldApart() throws {
        // A remembered line is found by a hash of its length and a few words along it: two lines of the
        // same length that differ only in a byte it does not hash (bytes 8–15 of a line of 40 words)
        // are still two lines, each read as what it holds, the first time and when remembered.
        let padding = String(repeating: "x", count: 320 - 16)
        let first = Array("chat r1 aaaaaaa \(padding)".utf8)
        let second = Array("chat r1 aaaaaab \(padding)".utf8)
        #expect(first.count == 320 && second.count == 320)
        let lines = ReplayCheck.KnownLines()
        for round in 0..<2 {
            for (body, name) in [(first, "aaaaaaa"), (second, "aaaaaab")] {
                guard case .chat(_, let read, _) = try lines.record(body: body[...]) else {
                    Issue.record("not a chat")
                    return
                }
                #expect(read == name)
            }
            #expect(lines.hits == 2 * round)
        }
    }
}
