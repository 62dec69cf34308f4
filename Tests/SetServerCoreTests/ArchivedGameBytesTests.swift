import SetProtocol
import Testing

@testable import SetServerCore

/// An archived game keeps the bytes its `archive` record was written or read as, so that a rewrite of
/// the journal does not write it again; what it writes must still be what writing the game gives.
@Suite struct ArchivedGameBytesTests {
    /// A finished game with a record, a sheet and a private room's password.
    static let game = ArchivedGame(
        startedAt: 1_798_761_600.25, endedAt: 1_798_761_700.5, password: "pw-hash",
        scores: [(name: "ann", score: 3), (name: "bob", score: -1)],
        entries: [(seconds: 12, name: "ann", detail: "0000 1111 2222")],
        sheet: [ScoreSheetEntry(name: "ann", sets: 1, wrong: 0, stale: 0, fastest: 12_000, mean: 12_000)],
        duration: 100_250,
        record: GameRecord(
            id: "g1", room: "r", kind: "set", options: ["mode": "normal"], startedAtMs: 1_798_761_600_250,
            durationMs: 100_250, deck: ["0000", "1111", "2222"], players: ["ann", "bob"],
            events: [
                GameRecord.Event(ms: 12_000, type: "set", name: "ann", cards: ["0000", "1111", "2222"])
            ],
            sheet: [], dealtIn: ["ann", "bob"], end: "deck"))

    /// The game as a journal line reads back.
    static func read(_ record: JournalRecord) throws -> ArchivedGame {
        guard case .archive(_, let game) = try JournalRecord(body: record.body[...]) else {
            throw JournalFormatError(description: "not an archive record")
        }
        return game
    }

    @Test func aGameReadBackWritesTheBytesItWasReadAsAndKeepsThem() throws {
        let written = JournalRecord.archive(room: "r", game: Self.game).body
        let back = try Self.read(.archive(room: "r", game: Self.game))
        #expect(back.fields != nil, "the bytes read are kept")
        #expect(JournalRecord.archive(room: "r", game: back).body == written)
        // The same game in another room: the room's name is not part of what is kept.
        #expect(
            JournalRecord.archive(room: "other room", game: back).body
                == JournalRecord.archive(room: "other room", game: Self.game).body)
    }

    @Test func aGameChangedAfterItsBytesWereKeptWritesItsChange() throws {
        let changes: [(String, (inout ArchivedGame) -> Void)] = [
            ("startedAt", { $0.startedAt += 1 }),
            ("endedAt", { $0.endedAt += 1 }),
            ("password", { $0.password = nil }),
            ("scores", { $0.scores[0].score += 1 }),
            ("entries", { $0.entries.append((seconds: 20, name: "bob", detail: "x")) }),
            ("sheet", { $0.sheet[0].sets += 1 }),
            ("duration", { $0.duration = 5 }),
            ("record", { $0.record?.events.append(GameRecord.Event(ms: 13_000, type: "join", name: "cy")) }),
        ]
        for (field, change) in changes {
            var kept = try Self.read(.archive(room: "r", game: Self.game))
            #expect(kept.fields != nil)
            var fresh = Self.game
            change(&kept)
            change(&fresh)
            #expect(kept.fields == nil, "changing \(field) forgets the bytes")
            let expected = JournalRecord.archive(room: "r", game: fresh).body
            #expect(expected != JournalRecord.archive(room: "r", game: Self.game).body, "\(field) changed")
            #expect(JournalRecord.archive(room: "r", game: kept).body == expected, "\(field)")
        }
    }

    @Test func aGameKeptWhenItEndsWritesWhatWritingItGives() {
        let kept = Self.game.keepingItsBytes()
        #expect(kept.fields != nil)
        #expect(
            JournalRecord.archive(room: "r", game: kept).body
                == JournalRecord.archive(room: "r", game: Self.game).body)
    }

    @Test func aLineInAnOlderFormIsWrittenAnewNotKeptAsItWas() throws {
        // Numbers written with a leading zero read as the same numbers, and are written without it.
        let canonical = JournalRecord.archive(room: "r", game: Self.game).body
        let text = String(decoding: canonical, as: UTF8.self)
        let started = "1798761600250"
        #expect(text.contains(" \(started) "))
        let older = Array(text.replacingOccurrences(of: " \(started) ", with: " 0\(started) ").utf8)
        guard case .archive(let room, let game) = try JournalRecord(body: older[...]) else {
            Issue.record("not an archive record")
            return
        }
        #expect(game.fields == nil, "bytes not in the form this version writes are not kept")
        #expect(JournalRecord.archive(room: room, game: game).body == canonical)
    }
}
