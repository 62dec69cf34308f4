// The engine target's second core: the one the journal written so far is replayed into, to be compared
// with the live core the engine drives.
//
// It is SetServerCore's own sources, built by scripts/fuzz.sh a second time as a plain module named
// SetServerCoreShadow (no coverage counters, no comparison tracing): the replay, the reading of each
// journal line and the encoding of the shadow's snapshot are checking, not the code the fuzzer explores
// (the live core, instrumented, is). Built instrumented, their counters were thousands more for
// libFuzzer to collect after every input, as features that only echo the live play before them. The
// journal target fuzzes this replay code, with coverage and ASan, on journals of any shape.
//
// This file imports that module alone, so its names (`ServerCore`, `JournalRecord`, ...) are the
// shadow's; what crosses to the harness is bytes: the journal lines the engine wrote, as the shell
// writes them to the disk, and the bodies of the shadow's snapshot records.

import SetServerCoreShadow

/// A core restored from journal lines, a batch at a time, as the daemon restores one at start-up, and
/// the bodies of its snapshot records after each batch.
///
/// What a core restored from a journal holds is a pure function of the journal's lines, and the seeded
/// engine writes the same journal up to the byte where an input differs from the one it was mutated
/// from: so the snapshot bodies are kept per journal (by a digest of every line so far) and replayed and
/// encoded once per process for each. A journal met again is compared with the bodies its replay gave
/// the first time, byte for byte, as the replay itself would be; its lines wait, and are replayed into
/// this core only when a longer journal is new. `FUZZ_NO_CACHE=1` replays every batch.
struct ShadowCore {
    private let core: ServerCore
    private var isFresh = true
    /// Lines written since the last replay into `core`, in order.
    private var pending: [ArraySlice<UInt8>] = []
    /// Every line written so far.
    private var journal = RunningDigest()

    /// The configuration the shadow core runs with, made once per process: the engine target's own
    /// (`EngineFuzzer.configuration`, compared field by field at start-up by `isShadowConfigured`).
    static let configuration: ServerConfiguration = {
        var configuration = ServerConfiguration()
        configuration.seed = 7
        configuration.logLevel = .error
        configuration.maximumOutputBytes = 32 << 10
        configuration.sniffWindow = 0.15
        configuration.keyHashIterations = 1
        return configuration
    }()

    /// The shadow configuration's fields, spelled with the live module's name, for the start-up check
    /// that both cores run with the same settings.
    static let configurationDescription = String(describing: configuration)
        .replacingModule("SetServerCoreShadow", with: "SetServerCore")

    init() {
        core = ServerCore(configuration: Self.configuration)
    }

    /// The digest of every line written so far.
    var journalDigest: ByteDigest { journal.digest }

    /// Past this many journals the kept bodies are dropped: a bound on memory.
    private static var capacity: Int { 1 << 13 }

    /// The snapshot bodies each journal replayed to, by the digest of its lines.
    nonisolated(unsafe) private static var bodiesByJournal: [ByteDigest: SnapshotBodies] = [:]

    /// What each distinct journal line reads back as, read once per process: a line's record depends on
    /// its bytes alone, and the engine's seeded randomness makes most inputs write the lines earlier
    /// inputs wrote.
    nonisolated(unsafe) private static var readBack = ComputedOnce<JournalRecord?>()

    /// The record a journal line (with its LF) reads as, checksum verified, or nil.
    private static func read(_ line: ArraySlice<UInt8>) -> JournalRecord? {
        guard line.last == 0x0A, let body = JournalCoding.verifiedBody(line.dropLast()) else { return nil }
        return try? JournalRecord(body: body)
    }

    /// Adds the lines in `bytes` (whole journal lines with their LF, in the order written, each ending
    /// at its entry of `ends`) to the journal.
    mutating func append(_ bytes: [UInt8], ends: [Int]) {
        var start = 0
        for end in ends {
            let line = bytes[start..<end]
            journal.append(line)
            pending.append(line)
            start = end
        }
    }

    /// The bodies of the snapshot records of a core restored from the journal so far, or the reason
    /// the journal does not read back or replay.
    mutating func snapshotBodies() -> Result<SnapshotBodies, ShadowFailure> {
        let key = journal.digest
        if cachesAreEnabled, let bodies = Self.bodiesByJournal[key] { return .success(bodies) }
        var records: [JournalRecord] = []
        records.reserveCapacity(pending.count)
        for line in pending {
            guard let record = Self.readBack.value(for: line, Self.read) else {
                return .failure(
                    ShadowFailure("a record does not read back: \(String(decoding: line, as: UTF8.self))"))
            }
            records.append(record)
        }
        pending = []
        do {
            try core.replay(records, isFirst: isFresh)
        } catch {
            return .failure(ShadowFailure("the journal does not replay: \(error)"))
        }
        isFresh = false
        var bodies = SnapshotBodies()
        core.writeSnapshotBodies(into: &bodies.bytes, ends: &bodies.ends)
        if cachesAreEnabled {
            if Self.bodiesByJournal.count >= Self.capacity {
                Self.bodiesByJournal.removeAll(keepingCapacity: true)
            }
            Self.bodiesByJournal[key] = bodies
        }
        return .success(bodies)
    }
}

/// The bodies of a core's snapshot records, one after the other, and where each ends
/// (`ServerCore.writeSnapshotBodies(into:ends:)`): two are equal exactly when the lists of bodies are.
struct SnapshotBodies: Equatable {
    var bytes: [UInt8] = []
    var ends: [Int] = []

    /// Each body as text, for a failure's message.
    var texts: [String] {
        zip([0] + ends, ends).map { String(decoding: bytes[$0..<$1], as: UTF8.self) }
    }
}

/// Why the shadow core could not be restored from the journal.
struct ShadowFailure: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

extension String {
    /// This text with every `module.` qualifier of `module` spelled `other.` (on the UTF-8 bytes).
    func replacingModule(_ module: String, with other: String) -> String {
        let bytes = Array(utf8)
        let qualifier = Array((module + ".").utf8)
        let replacement = Array((other + ".").utf8)
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: qualifier) {
                result += replacement
                index += qualifier.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
