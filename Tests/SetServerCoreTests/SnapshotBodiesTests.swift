import SetServerCore
import SetTestSupport
import Testing

/// The snapshot's bodies written into one buffer (what the engine fuzz target compares after every few
/// operations) are the bytes of each record's own body, one after the other, each end where it is.
@Suite struct SnapshotBodiesTests {
    @Test func aBusyNightsBodiesInOneBufferAreEachRecordsBody() throws {
        let server = try BusyNight.play(on: EmbeddedServer())
        let bodies = server.core.snapshotRecords().map(\.body)
        #expect(bodies.count > 3)
        // Buffers that held something before: emptied, not appended to.
        var bytes = Array("left from before".utf8)
        var ends = [7, 99]
        for _ in 0..<2 {
            server.core.writeSnapshotBodies(into: &bytes, ends: &ends)
            #expect(ends.count == bodies.count)
            #expect(zip([0] + ends, ends).map { Array(bytes[$0..<$1]) } == bodies)
            #expect(ends.last == bytes.count)
        }
    }

    /// A record's body (and its line) appended after other bytes is its body as it is alone: no space
    /// before its kind, one between its fields, whatever the buffer held.
    @Test(arguments: ["", "x", "snapshot room 1"])
    func aBodyAppendedAfterOtherBytesIsTheBodyAlone(before: String) throws {
        let server = try BusyNight.play(on: EmbeddedServer())
        for record in server.core.snapshotRecords() + [.header(version: 2), .nameFree(name: "ann")] {
            var buffer = Array(before.utf8)
            record.appendBody(to: &buffer)
            #expect(buffer == Array(before.utf8) + record.body)
            // A whole line (the journal's pending bytes, a rewrite) likewise, its checksum the body's.
            var lines = Array(before.utf8)
            record.appendLine(to: &lines)
            #expect(lines == Array(before.utf8) + JournalCoding.line(body: record.body))
            #expect(lines == Array(before.utf8) + record.line)
        }
    }
}
