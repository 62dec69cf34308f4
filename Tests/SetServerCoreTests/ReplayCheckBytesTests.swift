import SetServerCore
import SetTestSupport
import Testing

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
        let lines = ReplayCheck.ArchiveLines()
        for _ in 0..<2 {
            var check = ReplayCheck(configuration: server.core.configuration, archiveLines: lines)
            try check.feed(journal: bytes[...])
            try check.compare(with: server.core)
            try check.compareValues(with: server.core)
            try check.compareSnapshotRoundTrip(of: server.core)
        }
    }

    @Test func aChangedArchiveLineIsReadAgainAndFailsTheCheck() throws {
        let (server, records, bytes) = try night()
        let lines = ReplayCheck.ArchiveLines()
        var first = ReplayCheck(configuration: server.core.configuration, archiveLines: lines)
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
        var second = ReplayCheck(configuration: server.core.configuration, archiveLines: lines)
        #expect(throws: ReplayCheck.Mismatch.self) {
            try second.feed(journal: changed[...])
            try second.compare(with: server.core)
        }
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
}
