import SetGame
import SetServerCore
import SetTestSupport
import SetTestTraits
import Testing

/// A single damaged byte anywhere in a busy night's journal costs at most the damaged record's room, and
/// a damaged chat nothing else: shown by damaging the journal at many places, repairing it, and
/// comparing what it restores with what the whole journal restores.
@Suite(.ownThread) struct JournalRepairTests {
    /// The busy night's journal as the daemon writes it, and its records.
    private static let night: (bytes: [UInt8], records: [JournalRecord]) = {
        let server = EmbeddedServer()
        do { try BusyNight.play(on: server) } catch { fatalError("the busy night does not play: \(error)") }
        let records = [JournalRecord.header(version: JournalRecord.formatVersion)] + server.journal
        return (records.flatMap(\.line), records)
    }()

    /// The state `records` restore to, by part: each room's snapshot, the archive, ratings and claims.
    private struct Restored: Equatable {
        var rooms: [String: String] = [:]
        var archive: [String] = []
        var ratings: [String: String] = [:]
        var claims: [String: String] = [:]

        init(_ records: [JournalRecord]) throws {
            let core = ServerCore(configuration: ServerConfiguration())
            try core.replay(records, isFirst: true)
            for record in core.snapshotRecords() {
                switch record {
                case .snapshot(let room): rooms[room.name] = record.text
                case .archive: archive.append(record.text)
                case .rating(let name, let mode, _, _, _, _, _, _): ratings[name + " " + mode] = record.text
                case .nameKey(let name, _, _, _, _): claims[name] = record.text
                default: break
                }
            }
        }
    }

    /// Damages the byte at `offset` (xor `flip`), plans the repair, and checks what it costs.
    private func check(offset: Int, flip: UInt8, whole: Restored) throws {
        let (bytes, records) = Self.night
        var damaged = bytes
        damaged[offset] ^= flip
        let lineIndex = bytes[..<offset].count { $0 == 0x0A }
        let hit = records[lineIndex]
        let repair = JournalRepair.plan(damaged)
        let context =
            "byte \(offset) ^ \(flip) in line \(lineIndex + 1): \(hit.text.prefix(60)); \(repair.losses)"
        let restored = try Restored(repair.records)
        // What may differ: the damaged record's room, or the one thing a lone record holds.
        var expected = whole
        var actual = restored
        switch hit {
        case .archive:
            #expect(restored.archive.count >= whole.archive.count - 1, "\(context)")
            #expect(restored.archive.allSatisfy(whole.archive.contains), "\(context)")
            expected.archive = []
            actual.archive = []
        case .rating(let name, let mode, _, _, _, _, _, _):
            expected.ratings[name + " " + mode] = nil
            actual.ratings[name + " " + mode] = nil
        case .nameKey(let name, _, _, _, _):
            expected.claims[name] = nil
            actual.claims[name] = nil
        default:
            if let room = hit.roomName, JournalRecord.damageScope(ofKind: hit.kind) == .room {
                expected.rooms[room] = nil
                actual.rooms[room] = nil
            }
        }
        #expect(actual == expected, "\(context)")
        // Nothing is dropped outside the damaged record's room (its own line aside).
        for loss in repair.losses where loss.line != lineIndex + 1 && loss.line != lineIndex + 2 {
            #expect(loss.room != nil && loss.room == hit.roomName, "\(context)")
        }
        if case .chat = hit {
            #expect(restored == whole, "a damaged chat costs nothing else: \(context)")
            #expect(repair.losses.count <= 1, "\(context)")
        }
    }

    @Test func aFlippedByteCostsAtMostItsRecordsRoom() throws {
        let (bytes, records) = Self.night
        let whole = try Restored(records)
        #expect(whole.rooms.count >= 6 && !whole.archive.isEmpty && !whole.claims.isEmpty, "a busy night")
        var random = SeededGenerator(seed: 20)
        for _ in 0..<150 {
            let offset = Int(random.next() % UInt64(bytes.count))
            let flip = UInt8(truncatingIfNeeded: random.next() % 255 + 1)
            try check(offset: offset, flip: flip, whole: whole)
        }
    }

    @Test func aFlipInTheKindTheRoomNameOrTheLineEndStillNamesTheRoom() throws {
        let records = Self.night.records
        let whole = try Restored(records)
        var offset = 0
        for record in records {
            let line = record.line
            let room = record.roomName.map { Array($0.utf8) } ?? []
            // The kind's first byte, the room name's last byte, a checksum digit, the line end, and a
            // byte turned into a line end.
            let roomAt = room.isEmpty ? 0 : record.kind.utf8.count + room.count
            for (at, flip) in [
                (0, UInt8(0x01)), (roomAt, 0x02), (line.count - 3, 0x01), (line.count - 1, 0x0A ^ 0x41),
            ]
            where at < line.count {
                try check(offset: offset + at, flip: flip, whole: whole)
            }
            if line.count > 20 { try check(offset: offset + 12, flip: line[12] ^ 0x0A, whole: whole) }
            offset += line.count
        }
    }

    @Test func aDamagedHeaderIsWrittenAgainAndEverythingIsKept() throws {
        let (bytes, records) = Self.night
        var damaged = bytes
        damaged[3] ^= 0x04
        let repair = JournalRepair.plan(damaged)
        #expect(repair.losses.isEmpty && repair.mended.count == 1, "\(repair.losses) \(repair.mended)")
        #expect(repair.records == records)
    }

    @Test func aWholeRecordThatDoesNotReplayCutsOnlyItsRoom() throws {
        let (_, records) = Self.night
        // A claim of cards that are not on m's board: whole, but it cannot have been judged.
        let bogus = JournalRecord.choose(room: "m", name: "nobody", time: 0, position: 3)
        let at = try #require(records.firstIndex { $0.roomName == "m" && $0.kind == "choose" })
        let journal = Array(records[...at]) + [bogus] + Array(records[(at + 1)...])
        let repair = JournalRepair.plan(journal.flatMap(\.line))
        #expect(repair.losses.first?.line == at + 2, "\(repair.losses)")
        #expect(repair.losses.allSatisfy { $0.room == "m" }, "\(repair.losses)")
        let restored = try Restored(repair.records)
        var whole = try Restored(records)
        whole.rooms["m"] = nil
        var without = restored
        without.rooms["m"] = nil
        #expect(without == whole)
    }
}
