import SetGame
import SetProtocol
import SetTestSupport
import Testing

@testable import SetServerCore

/// Journal records read back exactly as they were written, whatever text is in them; snapshots rebuild
/// the same rooms; and while the journal cannot be written, changes are refused.
@Suite struct JournalRecordTests {
    /// Text a client can send that Unicode glues to its neighbours, or that looks like the format.
    static let awkward = [
        "", " ", "  two  spaces ", "~", " ~", "~ ~00000000", "%", "%41", "%zz", "\u{600}", "hi \u{600}",
        "\u{601}\u{602}\u{603}\u{604}\u{605}", "e\u{301}", "\u{301}start", "👩‍👩‍👧‍👦", "🇫🇷🇯🇵", "שלום ~",
        "\u{200D}", "\u{200D} \u{200D}", "tab\there", "cr\rlf", "\u{7F}", "\u{85}", "a\u{2028}b", "ﬁ ſ",
    ]

    private func roundTrip(_ record: JournalRecord) throws -> JournalRecord {
        let line = record.line
        #expect(line.last == 0x0A && line.dropLast().allSatisfy { $0 != 0x0A }, "one line")
        let body = try #require(JournalCoding.verifiedBody(line.dropLast()[...]), "checksum")
        return try JournalRecord(body: body)
    }

    @Test(arguments: awkward) func anyTextRoundTrips(text: String) throws {
        let records: [JournalRecord] = [
            .chat(room: "r", name: "ann", text: text),
            .room(name: "r", seed: 7, options: [("game", "set"), ("password", text)]),
            .archive(
                room: "r",
                game: ArchivedGame(
                    startedAt: 1, endedAt: 2, password: text, scores: [(name: text, score: -3)],
                    entries: [(seconds: 4, name: "ann", detail: text)])),
        ]
        for record in records {
            let back = try roundTrip(record)
            #expect(back == record, "\(record.text.debugDescription)")
        }
        guard case .chat(_, _, let read) = try roundTrip(.chat(room: "r", name: "ann", text: text)) else {
            Issue.record("not a chat")
            return
        }
        #expect(Array(read.utf8) == Array(text.utf8), "byte for byte")
    }

    @Test func randomTextRoundTrips() throws {
        var generator = SeededGenerator(seed: 11)
        let scalars: [Unicode.Scalar] =
            (0..<0x80).compactMap(Unicode.Scalar.init) + [
                "\u{600}", "\u{605}", "\u{301}", "\u{200D}", "\u{FE0F}", "\u{1F1EB}", "\u{5D0}", "\u{FFFD}",
                "\u{10FFFF}",
            ]
        for _ in 0..<2_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(generator.next() % 24) {
                text.append(scalars[Int(generator.next() % UInt64(scalars.count))])
            }
            let record = JournalRecord.chat(room: "r", name: "n", text: String(text))
            #expect(try roundTrip(record) == record)
        }
    }

    @Test func aDamagedByteIsCaughtByTheChecksum() throws {
        let line = JournalRecord.chat(room: "r", name: "ann", text: "hello there").line
        for index in line.indices.dropLast() {
            var damaged = line
            damaged[index] ^= 0x01
            #expect(JournalCoding.verifiedBody(damaged.dropLast()[...]) == nil, "byte \(index)")
        }
    }

    /// A room in play, written as snapshots and restored into a fresh core, is the same room.
    @Test func snapshotsRestoreEveryRoomAsItWas() throws {
        let server = EmbeddedServer()
        let (ann, annJoin) = try server.player("ann", room: "set")
        let (bob, _) = try server.player("bob", room: "set")
        _ = ann.readAvailable()
        var board = try #require(BoardView.last(in: annJoin.lines))
        for _ in 0..<5 {
            let reply = try ann.request(board.claim(try #require(board.sets.first)))
            try #require(reply.isOK("CHOOSE"), "\(reply)")
            board = try #require(BoardView.last(in: reply.lines))
        }
        _ = try bob.request("NEW")
        let (carl, _) = try server.player("carl", room: "cards", options: "matchismo n=3")
        for position in ["a", "b", "c", "d"] { _ = try carl.request("CHOOSE \(position)") }
        bob.close()

        let snapshot = server.core.snapshotRecords()
        let restored = ServerCore(configuration: server.core.configuration)
        _ = try restored.restore(snapshot, at: server.now)
        #expect(restored.snapshotRecords().count == snapshot.count)
        for (room, name) in [("set", "ann"), ("cards", "carl")] {
            #expect(restored.rooms[room]?.score(of: name) == server.core.rooms[room]?.score(of: name))
            #expect(restored.rooms[room]?.revision == server.core.rooms[room]?.revision)
            #expect(restored.rooms[room]?.boardLine == server.core.rooms[room]?.boardLine)
            #expect(restored.rooms[room]?.deckLine == server.core.rooms[room]?.deckLine)
        }
        #expect(restored.sessionsByToken.count == 3, "every seat back by its token")
        // And through the journal's bytes.
        let bytes = snapshot.flatMap(\.line)
        let reread = try bytes.split(separator: 0x0A).map { line in
            try JournalRecord(body: try #require(JournalCoding.verifiedBody(line)))
        }
        #expect(reread == snapshot)
    }

    /// A room's snapshot naming a mode no setd plays is refused; every mode it plays reads back.
    @Test func aSnapshotInAModeThatDoesNotExistIsRefused() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        _ = try server.player("ann", room: "set")
        let marker = Array(" set normal ".utf8)
        let body = try #require(
            server.core.snapshotRecords().map(\.body).first { body in
                body.indices.contains { body[$0...].starts(with: marker) }
            })
        let at = try #require(body.indices.first { body[$0...].starts(with: marker) })
        #expect(try JournalRecord(body: body[...]).body == body)
        let changed = body[..<at] + Array(" set tetris ".utf8) + body[(at + marker.count)...]
        #expect(throws: JournalFormatError.self) { try JournalRecord(body: changed[...]) }
    }

    @Test func whileTheJournalCannotBeWrittenChangesAreRefusedAndReadsServed() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "r")
        server.failJournal("No space left on device")
        #expect(server.logs.contains { $0.level == .error && $0.name == "journal-unavailable" })
        let board = try #require(BoardView.last(in: join.lines))
        let before = server.journal.count
        for line in [board.claim(board.sets[0]), "CHAT hi", "NEW", "LEAVE", "JOIN other"] {
            let reply = try ann.request(line)
            #expect(reply.error == .unavailable, "\(line): \(reply)")
            #expect(reply.final.contains("No space left on device"))
            #expect(reply.lines.isEmpty, "nothing happened: \(reply)")
        }
        #expect(server.journal.count == before, "nothing was recorded")
        for line in ["STATE", "ROOMS", "HINT", "HISTORY", "PING", "HELP"] {
            #expect(try ann.request(line).final.hasPrefix("OK "), "\(line)")
        }
        server.recoverJournal()
        #expect(try ann.request(board.claim(board.sets[0])).isOK("CHOOSE"))
    }
}
