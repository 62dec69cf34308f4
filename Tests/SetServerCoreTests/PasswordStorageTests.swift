import SetProtocol
import SetServerCore
import SetTestSupport
import Testing

/// A private room's password is kept as a salted PBKDF2 hash, like a name's key, and rooms from a journal
/// that kept it in clear come back with it hashed.
@Suite struct PasswordStorageTests {
    @Test func aPasswordIsJournaledOnlyAsItsHash() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.named("ann")
        #expect(try ann.request("JOIN club password=s3cret-pw").isOK("JOIN club"))
        _ = try ann.request("NEW password=s3cret-pw")  // the same password: nothing changes
        let (bob, _) = try server.named("bob")
        #expect(try bob.request("JOIN club password=s3cret-pw").isOK("JOIN club"))
        let everything = (server.journal + server.core.snapshotRecords()).map(\.text)
        #expect(!everything.contains { $0.contains("s3cret") }, "\(everything)")
        let hashes = Set(
            everything.compactMap { text -> String? in
                guard let range = text.range(of: "password-hash ") else { return nil }
                return String(text[range.upperBound...].prefix { $0 != " " })
            })
        #expect(hashes.count == 1, "one hash for the room's records: \(hashes)")
        #expect(hashes.first?.hasPrefix("pbkdf2-sha1$10000$") == true)
    }

    /// What a setd from before hashed passwords wrote for a private room with a finished game.
    private static let legacyJournal: [JournalRecord] = {
        let options = [
            ("game", "set"), ("mode", "normal"), ("penalty", "1"), ("hints", "on"), ("password", "pw"),
        ]
        return [
            .header(version: JournalRecord.formatVersion),
            .room(name: "club", seed: 7, options: options),
            .game(room: "club", index: 0, time: 1_798_761_000, firstRevision: 1, options: options),
            .seat(room: "club", name: "ann", token: "0123456789abcdef0123456789abcdef"),
            .archive(
                room: "club",
                game: ArchivedGame(
                    startedAt: 1_798_700_000, endedAt: 1_798_700_100, password: "pw",
                    scores: [(name: "ann", score: 3)],
                    entries: [])),
        ]
    }()

    @Test func aRoomFromAJournalWithAPasswordInClearComesBackHashed() throws {
        let server = try EmbeddedServer().restarted(from: Self.legacyJournal)
        let compacted = server.core.snapshotRecords().map(\.text)
        #expect(!compacted.contains { $0.contains(" pw ") || $0.hasSuffix(" pw") }, "\(compacted)")
        #expect(compacted.contains { $0.contains("password-hash pbkdf2-sha1$10000$") })
        let (bob, _) = try server.named("bob")
        #expect(try bob.request("JOIN club password=nope").error == .noSuchRoom)
        #expect(try bob.request("JOIN club password=pw").isOK("JOIN club"))
        let history = try bob.request("HISTORY")
        #expect(
            history.lines.contains { $0.hasPrefix("HISTORY GAME 1 ") && $0.hasSuffix(" ann:3") }, "\(history)"
        )
        // ann's seat came back with the room, and resumes.
        #expect(
            try server.connect("ann").request("RESUME 0123456789abcdef0123456789abcdef").isOK("RESUME ann"))
        // And once compacted, it all restores again.
        let again = try server.restarted(after: 5)
        let (carl, _) = try again.named("carl")
        #expect(try carl.request("JOIN club password=pw").isOK("JOIN club"))
        #expect(try carl.request("HISTORY").lines.contains { $0.hasSuffix(" ann:3") })
    }
}
