// libFuzzer target for the engine: command sequences and raw bytes from several clients at once (line
// protocol, telnet, HTTP, WebSocket), with time passing, readers that stall, connections that end and
// journal commits that fail, all through the real `Engine` and its core.
//
// Input layout: a stream of operations, each a byte that picks it and the bytes it reads after it.
// Checked after every operation, independently of the engine: no line leaves while a journal record
// before it is unwritten (the journal gate); what a stalled client holds never passes the output cap;
// the engine's connections are the ones opened and not closed; and, every few operations, the journal
// written so far replays into a second core (Fuzz/EngineShadow.swift) that holds the same state as the
// live one.

import SetEngine
import SetServerCore

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func engineFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var fuzzer = EngineFuzzer()
    var input = FuzzInput(fuzzBytes(data, size))
    // Comparisons are traced while the engine runs the input, not while the harness sets up, checks
    // (see `checkReplay`) or tears down (Fuzz/TraceGate.h).
    fuzzTraceComparisons(1)
    fuzzer.run(&input)
    fuzzTraceComparisons(0)
    return 0
}

/// Lines a fuzzed client may send: real commands, so the core is reached, not only the parser.
private let commandLines: [[UInt8]] = [
    "HELLO ann", "HELLO bob key=k", "JOIN fun", "JOIN m matchismo", "JOIN w start=ready", "READY", "START",
    "CHOOSE a b c", "CHOOSE a f k @2", "CHOOSE 1RES 2GFT 3PHC", "CHOOSE d", "NEW", "NEW mode=junior",
    "CHAT hi",
    "CHAT \u{0600}\u{0301} glued", "LEAVE", "WATCH fun", "STATE", "HINT", "ROOMS", "HISTORY", "KICK bob",
    "LOCK",
    "UNLOCK", "STATS", "TOP", "PING", "QUIT", "RESUME 00000000000000000000000000000000", "",
].map { Array($0.utf8) }

struct EngineFuzzer {
    let engine: Engine
    var now = Instant(uptime: 1_000, wall: 1_800_000_000)
    var open: Set<ConnectionID> = []
    var stalled: [ConnectionID: Int] = [:]
    var nextID = 1
    var appended: [JournalRecord] = []
    var written: [JournalRecord] = []
    var failNextCommit = false
    var isDead = false
    /// The journal written so far is replayed into it (Fuzz/EngineShadow.swift).
    var shadow = ShadowCore()
    /// The bodies of the shadow core's snapshot records, as of the last replay into it.
    var shadowBodies: SnapshotBodies?
    var operations = 0
    /// `operations` when the replay was last checked: with no operation since, the state is the one
    /// checked.
    var checkedAfter = -1

    static let page = Array("<!doctype html><title>setd</title>".utf8)

    /// The coverage counters as the operations left them, while a check runs (Fuzz/TraceGate.h): made
    /// once per process, as memory an input leaves behind would look like a leak to libFuzzer.
    nonisolated(unsafe) static let countersBeforeCheck = UnsafeMutablePointer<UInt8>.allocate(
        capacity: Int(fuzzCounterCount()))

    /// The live core's snapshot bodies at the check, written into the same two arrays at every check
    /// of the process (their capacity kept), not an array per record.
    nonisolated(unsafe) static var live = SnapshotBodies()

    /// The states already compared with the journal's replay, by the input bytes read before each and
    /// the journal written by then (`checkReplay`).
    nonisolated(unsafe) static var checkedStates = CheckedOnce<ByteDigest>()

    /// The configuration every input's engine and shadow core start from, made once per process.
    static let configuration: ServerConfiguration = {
        var configuration = ServerConfiguration()
        configuration.seed = 7
        configuration.logLevel = .error
        configuration.maximumOutputBytes = 32 << 10
        configuration.sniffWindow = 0.15
        // Keys hashed as the daemon hashes them, with one round instead of 10,000: the fuzzer is about
        // which decisions are made, not what a guess costs (10,000 rounds at every `HELLO bob key=k` were
        // most of an input's time, 16 still a fiftieth). The round count is stored with each hash and
        // read back with it, so replay checks the same decisions.
        configuration.keyHashIterations = 1
        return configuration
    }()

    /// Whether the shadow core runs with the live core's settings, checked once per process: their
    /// descriptions, field by field, spelled with the same module name.
    static let isShadowConfigured: Bool = {
        let live = String(describing: configuration)
        require(
            live == ShadowCore.configurationDescription,
            "the shadow core's configuration differs:\n\(live)\n\(ShadowCore.configurationDescription)")
        return true
    }()

    init() {
        _ = Self.isShadowConfigured
        // A short page: the page's 60 KB made per input would be most of an input's time.
        engine = Engine(configuration: Self.configuration, page: Self.page, random: .seeded(7))
    }

    mutating func run(_ input: inout FuzzInput) {
        while !input.isAtEnd, !isDead, operations < 200 {
            operations += 1
            step(&input)
            if operations % 16 == 0 { checkReplay(after: input) }
        }
        if !isDead { checkReplay(after: input) }
    }

    mutating func step(_ input: inout FuzzInput) {
        let pick = input.byte()
        let id = 1 + input.number(below: 6)
        switch pick % 10 {
        case 0:
            guard open.count < 6 else { return }
            let connection = nextID
            nextID += 1
            open.insert(connection)
            let peer = Self.peer(host: input.number(below: Self.hosts.count), connection: connection)
            carry(engine.opened(connection, peer: peer, at: now))
        case 1, 2, 3:
            guard open.contains(id) else { return }
            var line = commandLines[input.number(below: commandLines.count)]
            line.append(input.flag() ? 0x0A : 0x0D)
            if line.last == 0x0D { line.append(0x0A) }
            carry(engine.received(line, on: id, at: now))
        case 4:
            guard open.contains(id) else { return }
            carry(engine.received(input.bytes(upTo: 48), on: id, at: now))
        case 5:
            guard open.contains(id) else { return }
            // An HTTP request or a WebSocket frame, as a browser would start one.
            let head =
                input.flag()
                ? "GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                : "GET / HTTP/1.1\r\nHost: h\r\n\r\n"
            carry(engine.received(Array(head.utf8), on: id, at: now))
        case 6:
            now = now.advanced(by: Double(input.number(below: 40)) / 8)
            carry(engine.wake(at: now))
            carry(engine.tick(at: now))
        case 7:
            guard open.contains(id) else { return }
            if stalled[id] == nil {
                stalled[id] = 0
            } else {
                stalled[id] = nil
                engine.writable(id, pending: 0)
            }
        case 8:
            guard open.contains(id) else { return }
            carry(engine.ended(id, reason: "peer closed", at: now))
            close(id)
        default:
            failNextCommit = input.byte() == 0x5A
        }
    }

    static let hosts = ["127.0.0.1", "127.0.0.2", "[2001:db8::1]", "[2001:db8::2]"]

    /// The peer addresses connections come from, parsed once per process (a fifth of an `opened`).
    nonisolated(unsafe) static var peers: [Int: PeerAddress] = [:]

    /// Connection `connection`'s address: host `host` of `hosts`, port 30,000 + `connection`.
    static func peer(host: Int, connection: ConnectionID) -> PeerAddress {
        let key = connection * hosts.count + host
        if let peer = peers[key] { return peer }
        let peer = PeerAddress("\(hosts[host]):\(30_000 + connection)")
        peers[key] = peer
        return peer
    }

    mutating func close(_ id: ConnectionID) {
        guard open.remove(id) != nil else { return }
        stalled[id] = nil
        carry(engine.closed(id, at: now))
    }

    /// Carries out actions as the shell does, checking the gate and the cap on the way.
    mutating func carry(_ actions: [Action]) {
        var batch = actions
        var closing: [ConnectionID] = []
        while !batch.isEmpty, !isDead {
            var next: [Action] = []
            for action in batch {
                switch action {
                case .write(let id, let bytes):
                    require(appended.isEmpty, "a line left before the records ahead of it were written")
                    if stalled[id] != nil { stalled[id, default: 0] += bytes.count }
                case .broadcast(let ids, let bytes):
                    require(appended.isEmpty, "a line left before the records ahead of it were written")
                    for id in ids where stalled[id] != nil { stalled[id, default: 0] += bytes.count }
                case .finish(let id), .close(let id):
                    closing.append(id)
                case .journal(let box):
                    if engine.isJournalAvailable { appended.append(box.record) }
                case .commitJournal:
                    if failNextCommit {
                        failNextCommit = false
                        appended = []
                        next = engine.journalCommitted(.failed("fuzzed"), at: now)
                    } else {
                        written += appended
                        appended = []
                        next = engine.journalCommitted(.written, at: now)
                    }
                case .exit:
                    isDead = true
                case .log, .wake:
                    break
                }
            }
            batch = next
        }
        guard !isDead else { return }
        for held in stalled.values {
            require(held <= engine.outputLimit, "a stalled client holds \(held) bytes, over the cap")
        }
        // (No list made when no client stalls, as in most operations.)
        engine.flushed(
            backlogged: stalled.isEmpty ? [] : stalled.compactMap { $0.value > 0 ? ($0.key, $0.value) : nil })
        for id in closing { close(id) }
        require(
            engine.connectionCount == open.count,
            "the engine has \(engine.connectionCount) connections, not \(open.count)")
    }

    /// The journal written so far, replayed, holds the live state.
    ///
    /// The two states are compared as their snapshot records' bodies, encoded here once each: the
    /// records' `==` encodes both sides on every comparison, in the instrumented library. The replayed
    /// state changes only when records are replayed into it, so its bodies are kept until then. Each
    /// side's bodies are one buffer of bytes and the end of each body: equal buffers with equal ends
    /// are equal lists of bodies, every byte and every boundary compared.
    ///
    /// A state checked once is not compared again in this process: what the engine does is a pure
    /// function of the input bytes it has read (its randomness seeded, its clock the input's), so an
    /// input that starts with the bytes of an earlier one reaches the state the earlier one reached
    /// after them, and writes the same journal. The key is those bytes together with the journal's
    /// digest, so a journal that came out different from the same bytes is compared all the same. Most
    /// inputs are an earlier one's bytes with a change further on: their first checks were made before.
    /// `FUZZ_NO_CACHE=1` compares every time.
    mutating func checkReplay(after input: FuzzInput) {
        guard engine.isJournalAvailable, !isDead, checkedAfter != operations else { return }
        checkedAfter = operations
        // What the check's encoding and replay compare says nothing about which input to try next: not
        // traced (Fuzz/TraceGate.h), and traced again for the operations after it.
        let tracking = fuzzTracesComparisons()
        fuzzTraceComparisons(0)
        defer { fuzzTraceComparisons(tracking) }
        // Nor which code the check ran: the live snapshot's encoding and the journal lines' are the
        // instrumented library's, but only this check calls them in this target (the shell encodes
        // in the daemon; the journal target fuzzes both), and their counters would give libFuzzer
        // features of the state's size (a hit count per record, per card) that reward inputs for
        // growing the state, not for reaching new code of the engine. The counters are put back as
        // the operations left them; what the check compares is the same.
        fuzzSaveCounters(Self.countersBeforeCheck)
        defer { fuzzRestoreCounters(Self.countersBeforeCheck) }
        if !written.isEmpty {
            // The lines as the shell writes them to the disk (one buffer, each line's end noted), read
            // back and replayed by the shadow when they are compared.
            var lines: [UInt8] = []
            var ends: [Int] = []
            ends.reserveCapacity(written.count)
            for record in written {
                record.appendLine(to: &lines)
                ends.append(lines.count)
            }
            shadow.append(lines, ends: ends)
            written = []
            shadowBodies = nil
        }
        // (Bytes read past the input's end read as zeros: not a prefix another input shares.)
        if !input.hasReadPastEnd {
            var state = RunningDigest()
            state.append(input.read)
            state.append(shadow.journalDigest)
            guard Self.checkedStates.isNew(state.digest) else { return }
        }
        if shadowBodies == nil {
            switch shadow.snapshotBodies() {
            case .success(let bodies): shadowBodies = bodies
            case .failure(let failure): return require(false, failure.reason)
            }
        }
        // Taken out of the static while written (two accesses to one static at once would be an
        // exclusivity violation), put back with its capacity after.
        var live = SnapshotBodies()
        swap(&live, &Self.live)
        defer { swap(&live, &Self.live) }
        engine.core.writeSnapshotBodies(into: &live.bytes, ends: &live.ends)
        require(
            live == shadowBodies,
            """
            the replay differs from live play:
            \(live.texts)
            \(shadowBodies?.texts ?? [])
            """)
    }
}
