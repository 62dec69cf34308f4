// libFuzzer target for the journal's record format and its replay.
//
// Input layout: byte 0 picks a mode; the rest is either text a client could send (mode even), which
// must round-trip through a record byte for byte, or a journal file (mode odd), whose lines are read
// and replayed as setd does at start-up: any bytes give records or a clear refusal, never a crash.

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
            checkTextRoundTrip(String(decoding: payload, as: UTF8.self))
        } else {
            checkJournal(payload)
        }
    }

    /// Any text, in any field that holds text, reads back exactly, and the record is one line.
    static func checkTextRoundTrip(_ text: String) {
        let records: [JournalRecord] = [
            .chat(room: "r", name: "n", text: text),
            .seat(room: text, name: text, token: text),
            .room(name: "r", seed: 1, options: [(text, text)]),
        ]
        for record in records {
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
            require(
                back == record, "\(record.text.debugDescription) reads back as \(back.text.debugDescription)")
        }
    }

    /// A journal of arbitrary lines: whatever verifies and parses is a record that formats to a line
    /// reading back the same; and replaying them either works or says which record does not replay.
    static func checkJournal(_ bytes: [UInt8]) {
        var records: [JournalRecord] = []
        for line in bytes.split(separator: 0x0A) {
            guard let body = JournalCoding.verifiedBody(line), let record = try? JournalRecord(body: body)
            else {
                continue
            }
            let again = record.line
            guard let body2 = JournalCoding.verifiedBody(again.dropLast()[...]),
                let back = try? JournalRecord(body: body2)
            else {
                require(false, "a parsed record does not format to a line that reads back")
                return
            }
            require(back == record, "a record formats to a different record")
            records.append(record)
        }
        // Also every checksummed line of the input as written by setd, with its checksum made right, so
        // the fuzzer reaches replay without having to find FNV collisions.
        for line in bytes.split(separator: 0x0A) where line.count < 2048 {
            let body = Array(line)
            guard let record = try? JournalRecord(body: body[...]) else { continue }
            records.append(record)
        }
        let core = ServerCore(configuration: ServerConfiguration())
        do {
            _ = try core.restore(records, at: Instant(uptime: 0, wall: 0))
            _ = core.snapshotRecords()
        } catch {
            require(error.index < records.count, "a restore error names a record that exists")
        }
    }
}
