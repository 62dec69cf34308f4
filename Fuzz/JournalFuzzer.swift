// libFuzzer target for the journal's record format and its replay.
//
// Input layout: byte 0 picks a mode; the rest is either text a client could send (mode even), which
// must round-trip byte for byte through the record the mode's other bits pick, with the text's first
// bytes in all its fields and the text (up to 256 bytes) in one field of a chat and of a game event, or
// a journal file (mode odd), whose lines are read and replayed as setd does at start-up: any bytes give
// records or a clear refusal, never a crash.

import SetServerCore

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func journalFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    JournalFuzzer.run(fuzzBytes(data, size))
    return 0
}

enum JournalFuzzer {
    static func run(_ input: [UInt8]) {
        guard let mode = input.first else { return }
        let payload = Array(input.dropFirst())
        if mode & 1 == 0 {
            // One record per input, picked by the mode byte's other bits: every record had every input's
            // text in all its fields, encoded, read, checked and encoded again in the instrumented
            // library, which was most of an input's time; across inputs each record gets every text.
            // The text's first `textBytes` bytes: escaping goes byte by byte and looks at most at a
            // UTF-8 sequence or a `%xx` at a time, so a longer text reaches nothing a shorter one does
            // not, and costs every field its length in traced comparisons.
            // A round trip depends on the record and its text alone, and a mutated input mostly keeps the
            // text of the one it came from (every byte past the text's is unread here): each record and
            // text is checked once per process (as the protocol target checks each line once).
            let index = Int(mode >> 1) % textRecords.count
            let make = textRecords[index]
            if checkedTexts.isNew([0, UInt8(index)] + payload.prefix(fieldBytes)) {
                checkTextRoundTrip(make(String(decoding: payload.prefix(fieldBytes), as: UTF8.self)))
            }
            // A longer text in one field of each escaping (the journal's, and JSON's inside it) only: the
            // escaping of a field does not depend on the record around it.
            if payload.count > fieldBytes, checkedTexts.isNew([1] + payload.prefix(textBytes)) {
                let long = String(decoding: payload.prefix(textBytes), as: UTF8.self)
                checkTextRoundTrip(.chat(room: "r", name: "n", text: long))
                checkTextRoundTrip(
                    .recordEvent(
                        room: "r", event: GameRecord.Event(ms: 1, type: "chat", name: "n", result: long)))
            }
        } else {
            checkJournal(payload)
        }
    }

    /// The records and texts whose round trip was checked in this process, each as a tag (0 and the
    /// record's index, or 1 for the long text's two records) and the text's bytes.
    nonisolated(unsafe) static var checkedTexts = CheckedOnce<ByteDigest>()

    /// How many of an input's bytes the text round trip puts in every text field of a record: enough for
    /// any escape (a UTF-8 sequence, a `%xx`) and its neighbours, where the whole 256 in twenty fields of
    /// an archive record made three quarters of the traced comparisons of a text input.
    static let fieldBytes = 24

    /// How many of an input's bytes the text round trip puts in the one field of each escaping that gets
    /// a long text.
    static let textBytes = 256

    /// The records whose text fields the text round trip fills, each made from one text.
    static let textRecords: [@Sendable (String) -> JournalRecord] = [
        { text in .chat(room: "r", name: "n", text: text) },
        { text in .seat(room: text, name: text, token: text) },
        { text in .room(name: "r", seed: 1, options: [(text, text)]) },
        { text in .kick(room: text, name: text, by: text, address: text, until: 1) },
        { text in .allow(room: text, name: text, by: text) },
        { text in .gain(name: text, mode: text, time: 1, amount: 0) },
        // The game record rides in an archive record as one text field of JSON: any text in it too.
        { text in
            .archive(
                room: text,
                game: ArchivedGame(
                    startedAt: 1, endedAt: 2, scores: [(text, 1)], entries: [], sheet: [], duration: 5,
                    record: GameRecord(
                        id: text, room: text, kind: "set", options: [text: text], startedAtMs: 1,
                        durationMs: 5,
                        deck: [text], players: [text],
                        events: [
                            GameRecord.Event(ms: 0, type: "claim", name: text, cards: [text], result: text)
                        ],
                        sheet: [])))
        },
        // A record event is one text field of JSON too; rematch offers and resets name a room and a player.
        { text in
            .recordEvent(
                room: text,
                event: GameRecord.Event(
                    ms: 1, type: text, name: text, cards: [text], result: text, card: text, by: text,
                    options: [text: text]))
        },
        { text in .rematch(room: text, name: text) },
        { text in .standingsReset(room: text, by: text) },
    ]

    /// Any text, in any field that holds text, reads back exactly, and the record is one line.
    static func checkTextRoundTrip(_ record: JournalRecord) {
        let line = record.line
        require(line.last == 0x0A, "a record ends in LF")
        require(!line.dropLast().contains(0x0A) && !line.contains(0x0D), "a record is one line, no CR")
        guard let body = JournalCoding.verifiedBody(line.dropLast()[...]) else {
            require(false, "the checksum of \(record.text.debugDescription) does not verify")
            return
        }
        guard let back = try? JournalRecord(body: body) else {
            require(false, "\(record.text.debugDescription) does not parse back")
            return
        }
        // Compared as encoded lines: `==` would encode both records again, in the instrumented library.
        require(
            back.line == line,
            "\(record.text.debugDescription) reads back as \(back.text.debugDescription)")
    }

    /// What each distinct line reads as, worked out (and checked) once per process: a line's records
    /// depend on its bytes alone, and most lines of a mutated journal are lines of the one it came from.
    nonisolated(unsafe) static var lineRecords = ComputedOnce<LineRecords>()

    /// The records one line of a journal gives.
    struct LineRecords {
        /// The record the line is, when its checksum verifies.
        var verified: JournalRecord?
        /// The record its bytes are as a body, checksum or not.
        var body: JournalRecord?
    }

    /// A journal of arbitrary lines: whatever verifies and parses is a record that formats to a line
    /// reading back the same; and replaying them either works or says which record does not replay.
    static func checkJournal(_ bytes: [UInt8]) {
        var verified: [JournalRecord] = []
        var bodies: [JournalRecord] = []
        for line in bytes.split(separator: 0x0A) {
            let records = lineRecords.value(for: line, read)
            if let record = records.verified { verified.append(record) }
            if let record = records.body { bodies.append(record) }
        }
        // Also every checksummed line of the input as written by setd, with its checksum made right, so
        // the fuzzer reaches replay without having to find FNV collisions.
        let records = verified + bodies
        let core = ServerCore(configuration: ServerConfiguration())
        do {
            _ = try core.restore(records, at: Instant(uptime: 0, wall: 0))
            _ = core.snapshotRecords()
        } catch {
            require(error.index < records.count, "a restore error names a record that exists")
        }
    }

    /// The records of one line; a line that verifies and parses must format to a line that reads back as
    /// the same record.
    static func read(_ line: ArraySlice<UInt8>) -> LineRecords {
        var records = LineRecords()
        if let body = JournalCoding.verifiedBody(line), let record = try? JournalRecord(body: body) {
            let again = record.line
            guard let body2 = JournalCoding.verifiedBody(again.dropLast()[...]),
                let back = try? JournalRecord(body: body2)
            else {
                require(false, "a parsed record does not format to a line that reads back")
                return records
            }
            require(back.line == again, "a record formats to a different record")
            records.verified = record
        }
        if line.count < 2048 { records.body = try? JournalRecord(body: Array(line)[...]) }
        return records
    }
}
