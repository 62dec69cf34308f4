import SetServerCore

#if canImport(Glibc)
    import Glibc
#endif

/// `setd --check-journal DIR` and `setd --repair-journal DIR`, as `redis-check-aof` is for Redis.
public enum JournalTool {
    /// What a check or a repair found: the text to print, and whether the journal restores cleanly.
    public struct Report: Sendable {
        /// One paragraph a person can read.
        public var text: String
        /// Whether setd would start on the journal (as it is, or after the repair).
        public var isHealthy: Bool
    }

    /// Where a journal stops being good, and why.
    private struct Cut: Error {
        var line: Int
        var offset: Int
        var reason: String
    }

    /// Reads and replays the journal in `directory` without changing anything; for a damaged journal,
    /// says exactly what `--repair-journal` would drop.
    public static func check(directory: String) -> Report {
        do {
            try StateDirectory.checkSafety(of: directory)
        } catch {
            return Report(text: "\(error); setd will not start on it", isHealthy: false)
        }
        let path = directory + "/journal"
        let bytes: [UInt8]
        do {
            guard let read = try FileSystem.read(path) else {
                return Report(text: "\(path): no journal (setd starts empty)", isHealthy: true)
            }
            bytes = read
        } catch {
            return Report(text: "\(error)", isHealthy: false)
        }
        switch inspect(bytes, path: path) {
        case .failure(let cut):
            var text =
                "\(path): line \(cut.line), byte offset \(cut.offset): \(cut.reason); setd will not start on it"
            if let repair = plannedRepair(bytes) {
                text += ". setd --repair-journal \(directory) would keep a copy and "
                text += describe(repair, dropping: "drop")
            } else {
                let after = records(in: bytes[cut.offset...])
                text +=
                    "; setd --repair-journal \(directory) would keep a copy and cut the \(after) record(s) from there on"
            }
            return Report(text: text, isHealthy: false)
        case .success(let contents):
            var text = "\(path): \(contents.records.count) records restore cleanly"
            if let torn = contents.tornTail {
                text +=
                    "; the last record (line \(torn.line), byte offset \(torn.offset)) is torn and is dropped"
            }
            if contents.isLegacy { text += "; it is in the first format and setd rewrites it on start" }
            return Report(text: text, isHealthy: true)
        }
    }

    /// Keeps a copy of a damaged journal as `journal.broken-<time>` and rewrites the journal without
    /// what is damaged (see ``JournalRepair``): a damaged chat costs that chat, a damaged record of a
    /// room's play costs that room's later records. Refuses while a setd holds the directory.
    public static func repair(directory: String) -> Report {
        let state: StateDirectory
        do {
            // Repair never creates a directory: a mistyped path must not become a new state directory.
            try StateDirectory.checkSafety(of: directory)
            state = try StateDirectory(path: directory)
        } catch {
            return Report(text: "\(error)", isHealthy: false)
        }
        let path = state.journalPath
        let bytes: [UInt8]
        do {
            guard let read = try FileSystem.read(path) else {
                return Report(text: "\(path): no journal, nothing to repair", isHealthy: true)
            }
            bytes = read
        } catch {
            return Report(text: "\(error)", isHealthy: false)
        }
        var legacyCut: Cut?
        switch inspect(bytes, path: path) {
        case .failure(let found):
            legacyCut = found
        case .success(let contents):
            guard let torn = contents.tornTail else {
                return Report(
                    text: "\(path): \(contents.records.count) records, nothing to repair", isHealthy: true)
            }
            legacyCut = Cut(line: torn.line, offset: torn.offset, reason: "a torn last record")
        }
        let copy = directory + "/journal.broken-" + UTCTime.format(Double(time(nil)), compact: true)
        let repair = plannedRepair(bytes)
        do {
            let out = try FileSystem.open(copy, O_WRONLY | O_CREAT | O_EXCL, for: "create")
            defer { close(out) }
            if let failure = FileSystem.writeAll(bytes, to: out, path: copy).failure { throw failure }
            try FileSystem.sync(out, path: copy)
            if let repair {
                var repaired: [UInt8] = []
                for record in repair.records { repaired += record.line }
                try FileSystem.replace(path, with: repaired, via: state.temporaryPath, in: directory)
            } else if let cut = legacyCut {
                // A journal in the first format is only ever cut, as it always was.
                let fd = try FileSystem.open(path, O_WRONLY, for: "open")
                defer { close(fd) }
                try FileSystem.truncate(fd, to: cut.offset, path: path)
                try FileSystem.sync(fd, path: path)
            }
        } catch {
            return Report(text: "\(error)", isHealthy: false)
        }
        guard let repair else {
            let cut = legacyCut!
            let dropped = records(in: bytes[cut.offset...])
            let kept = records(in: bytes[..<cut.offset])
            return Report(
                text:
                    "\(path): \(cut.reason) at line \(cut.line), byte offset \(cut.offset); kept a copy in \(copy); "
                    + "dropped \(dropped) record(s), \(kept) remain",
                isHealthy: true)
        }
        return Report(
            text: "\(path): kept a copy in \(copy); " + describe(repair, dropping: "dropped"), isHealthy: true
        )
    }

    /// The repair of a journal in the current format; `nil` for one in the first format.
    private static func plannedRepair(_ bytes: [UInt8]) -> JournalRepair? {
        // A current journal opens with its header, which one damaged byte does not hide.
        let first = bytes[..<(bytes.firstIndex(of: 0x0A) ?? bytes.endIndex)]
        guard JournalRepair.identity(ofDamaged: first)?.kind == JournalRecord.headerKind else { return nil }
        return JournalRepair.plan(bytes)
    }

    /// What a repair keeps and drops, one dropped line per line of text.
    private static func describe(_ repair: JournalRepair, dropping verb: String) -> String {
        var text = "\(verb) \(repair.losses.count) record(s), \(repair.records.count) remain"
        for loss in repair.losses { text += "\n  dropped \(loss)" }
        for note in repair.mended { text += "\n  mended \(note)" }
        return text
    }

    /// The journal's records if they all read and replay; else the first bad one.
    private static func inspect(_ bytes: [UInt8], path: String) -> Result<JournalReader.Contents, Cut> {
        let contents: JournalReader.Contents
        do {
            contents = try JournalReader.parse(bytes, path: path)
        } catch {
            return .failure(Cut(line: error.line, offset: error.offset, reason: error.reason))
        }
        do {
            _ = try ServerCore(configuration: ServerConfiguration()).restore(
                contents.records, at: Instant(uptime: 0, wall: 0))
        } catch {
            let (line, offset) = contents.positions[error.index]
            return .failure(Cut(line: line, offset: offset, reason: error.reason))
        }
        return .success(contents)
    }

    /// Lines begun in `bytes` (a last line without LF counts).
    private static func records(in bytes: ArraySlice<UInt8>) -> Int {
        bytes.count { $0 == 0x0A } + (bytes.last.map { $0 == 0x0A ? 0 : 1 } ?? 0)
    }
}
