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

/// A core restored from journal lines, a batch at a time, as the daemon restores one at start-up.
struct ShadowCore {
    private let core: ServerCore
    private var isFresh = true

    /// The configuration the shadow core runs with, made once per process: the engine target's own
    /// (`EngineFuzzer.configuration`, compared field by field at start-up by `describesSameSettings`).
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

    /// What each distinct journal line reads back as, read once per process: a line's record depends on
    /// its bytes alone, and the engine's seeded randomness makes most inputs write the lines earlier
    /// inputs wrote.
    nonisolated(unsafe) private static var readBack = ComputedOnce<JournalRecord?>()

    /// The record a journal line (with its LF) reads as, checksum verified, or nil.
    private static func read(_ line: ArraySlice<UInt8>) -> JournalRecord? {
        guard line.last == 0x0A, let body = JournalCoding.verifiedBody(line.dropLast()) else { return nil }
        return try? JournalRecord(body: body)
    }

    /// Replays `lines` (each a whole journal line with its LF, in the order written); the reason they do
    /// not read back or replay, or nil when they did.
    mutating func replay(_ lines: [[UInt8]]) -> String? {
        var records: [JournalRecord] = []
        records.reserveCapacity(lines.count)
        for line in lines {
            guard let record = Self.readBack.value(for: line[...], Self.read) else {
                return "a record does not read back: \(String(decoding: line, as: UTF8.self))"
            }
            records.append(record)
        }
        do {
            try core.replay(records, isFirst: isFresh)
        } catch {
            return "the journal does not replay: \(error)"
        }
        isFresh = false
        return nil
    }

    /// The bodies of the shadow's snapshot records, as the live core's are compared with.
    var snapshotBodies: [[UInt8]] { core.snapshotRecords().map(\.body) }
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
