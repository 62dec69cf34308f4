import SetGame
import SetProtocol
import SetTestSupport
import Testing

@testable import SetServerCore

/// What game night adds to the journal comes back after a restart: ratings, claimed names, a room's
/// host, readiness, lock and kicks, and the score sheet so far; and a journal written before it loads.
@Suite struct NightJournalTests {
    /// Reads records back through their bytes, as the daemon does at start-up.
    private func reread(_ records: [JournalRecord]) throws -> [JournalRecord] {
        try records.flatMap(\.line).split(separator: 0x0A).map { line in
            try JournalRecord(body: try #require(JournalCoding.verifiedBody(line)))
        }
    }

    /// An evening: a rated game, a claimed name, a waiting room with a host, a ready player, a lock and
    /// a kick, and a game in progress with a wrong and a stale claim.
    private func evening() throws -> EmbeddedServer {
        let server = EmbeddedServer()
        let (ann, annJoin) = try server.player("ann", room: "rated")
        let (bob, _) = try server.player("bob", room: "rated")
        _ = try ann.playToTheEnd(from: annJoin.lines)
        _ = try server.connect("dan").request("HELLO dan key=k3y")
        let (carl, _) = try server.player("carl", room: "night", options: "start=ready")
        let (erin, _) = try server.player("erin", room: "night")
        let (finn, _) = try server.player("finn", room: "night")
        _ = try erin.request("READY")
        _ = try carl.request("LOCK")
        _ = try carl.request("KICK finn")
        _ = finn
        let new = try bob.request("NEW")
        let board = try #require(BoardView.last(in: new.lines))
        _ = try ann.request(board.claim(try #require(board.nonSet)))
        server.advance(by: 1.5)
        _ = try bob.request(board.claim(try #require(board.sets.first)))
        _ = try ann.request(board.claim(try #require(board.sets.first)))  // stale: the board moved on
        return server
    }

    private func checkRestored(_ core: ServerCore, like server: EmbeddedServer) throws {
        let live = server.core
        #expect(core.ratings.entries == live.ratings.entries)
        #expect(core.ratings.entry("ann", mode: "normal")?.games == 1)
        #expect(core.nameClaims.matches("dan", key: "k3y") && !core.nameClaims.matches("dan", key: "key"))
        let night = try #require(core.rooms["night"])
        #expect(night.host == "carl" && night.isWaiting && night.isLocked)
        #expect(night.readyNames == ["erin"] && night.kicked.isEmpty && Array(night.bans.keys) == ["finn"])
        #expect(night.seats.map(\.name) == ["carl", "erin"])
        let rated = try #require(core.rooms["rated"])
        #expect(rated.host == "ann")
        #expect(rated.tally == live.rooms["rated"]!.tally)
        #expect(rated.tally.players["ann"] == GameTally.Player(sets: 0, wrong: 1, stale: 1))
        #expect(rated.tally.players["bob"] == GameTally.Player(sets: 1, wrong: 0, stale: 0, setTimes: [1500]))
        #expect(core.archive.games["rated"]?.first?.sheet.count == 2)
    }

    @Test func theChangeRecordsRestoreEverything() throws {
        let server = try evening()
        let restored = ServerCore(configuration: server.core.configuration)
        _ = try restored.restore(try reread(server.journal), at: server.now)
        try checkRestored(restored, like: server)
    }

    @Test func aCompactedJournalRestoresEverything() throws {
        let server = try evening()
        let snapshot = server.core.snapshotRecords()
        #expect(snapshot.contains { $0.text.hasPrefix("rating ann normal ") })
        #expect(snapshot.contains { $0.text.hasPrefix("name-key dan pbkdf2-sha1$10000$") })
        let restored = ServerCore(configuration: server.core.configuration)
        _ = try restored.restore(try reread(snapshot), at: server.now)
        try checkRestored(restored, like: server)
        #expect(try reread(restored.snapshotRecords()).count == snapshot.count)
    }

    @Test func aDealAfterTheRestartIsTheSameDealAndARestoredRoomIsWaiting() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "night", options: "start=ready")
        _ = try ann.request("START")  // the countdown is not journaled: a restart finds the room waiting
        let restored = ServerCore(configuration: server.core.configuration)
        _ = try restored.restore(try reread(server.journal), at: server.now)
        #expect(restored.rooms["night"]?.isWaiting == true)
        server.advance(by: 3)
        let dealt = try #require(BoardView.last(in: ann.readAvailable()))
        let again = ServerCore(configuration: server.core.configuration)
        _ = try again.restore(try reread(server.journal), at: server.now)
        #expect(again.rooms["night"]?.isWaiting == false)
        #expect(
            again.rooms["night"]?.boardLine.text == "BOARD \(dealt.revision) "
                + dealt.cards.enumerated().map { "\(BoardView.position($0.offset)):\($0.element.code)" }
                .joined(separator: " "))
    }

    @Test func whileTheJournalCannotBeWrittenTheNewChangesAreRefused() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "night", options: "start=ready")
        _ = try server.player("bob", room: "night")
        let dan = try server.connect("dan")
        _ = try dan.request("HELLO dan key=k3y")
        _ = try dan.request("QUIT")
        _ = ann.readAvailable()
        server.failJournal("No space left on device")
        let before = server.journal.count
        for line in ["READY", "START", "LOCK", "UNLOCK", "KICK bob"] {
            let reply = try ann.request(line)
            #expect(reply.error == .unavailable && reply.lines.isEmpty, "\(line): \(reply)")
        }
        let claimer = try server.connect("erin")
        #expect(try claimer.request("HELLO erin key=x").error == .unavailable, "a claim is a change")
        #expect(try claimer.request("HELLO dan key=k3y").isOK("HELLO dan"), "using a claim is not")
        #expect(try ann.request("STATS").isOK("STATS") && ann.request("TOP").isOK("TOP"))
        #expect(server.journal.count == before)
        server.recoverJournal()
        #expect(try ann.request("READY").isOK("READY"))
    }

    /// A journal written before game night: snapshots and archive records without their new fields.
    @Test func aJournalFromBeforeGameNightLoads() throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "old")
        _ = try server.player("bob", room: "old")
        _ = try ann.playToTheEnd(from: join.lines)
        _ = try ann.request("NEW")
        _ = try server.player("carl", room: "old")
        _ = try ann.request("QUIT")  // the host passes to bob, but an old snapshot does not say so
        var old: [[UInt8]] = []
        for record in server.core.snapshotRecords() {
            var body = record.body
            switch record {
            case .rating, .nameClaim, .nameKey: continue
            case .snapshot:
                // Cut the night section: the snapshot as today's format writes it.
                let marker = Array(" night ".utf8)
                let at = try #require(
                    (0...(body.count - marker.count)).last { Array(body[$0..<($0 + marker.count)]) == marker }
                )
                body = Array(body[..<at])
            case .archive(let room, var game):
                game.sheet = []
                game.duration = nil
                body = JournalRecord.archive(room: room, game: game).body
            default: break
            }
            old.append(JournalCoding.line(body: body))
        }
        let records = try old.map { line in
            try JournalRecord(body: try #require(JournalCoding.verifiedBody(line.dropLast()[...])))
        }
        let restored = ServerCore(configuration: server.core.configuration)
        _ = try restored.restore(records, at: server.now)
        let room = try #require(restored.rooms["old"])
        #expect(room.host == "bob", "the longest seated, the creator having left")
        #expect(!room.isWaiting && !room.isLocked && room.kicked.isEmpty)
        #expect(room.boardLine == server.core.rooms["old"]?.boardLine)
        #expect(restored.archive.games["old"]?.first?.sheet == [])
    }
}
