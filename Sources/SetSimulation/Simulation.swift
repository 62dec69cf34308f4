import SetEngine
import SetGame
import SetProtocol
import SetServerCore
import SetTestSupport

/// The whole server — the real ``Engine`` and core — run inside a deterministic world: virtual clients
/// of every kind over a virtual network, a virtual clock and a virtual disk, and faults at seeded
/// moments (cuts mid-line, readers that stop, clock jumps, crashes with the journal torn at any byte, a
/// full disk, a write error). After every event, invariants that do not trust the code under test are
/// checked; the first broken one ends the run with the events that led there.
///
/// A seed decides everything: the configuration, the events, the randomness of the core. Nothing reads
/// the real clock or the system's generator, so a seed's trace is the same bytes on every run.
public final class Simulation {
    /// Rooms the evening plays in, by number: every mode, Matchismo, waiting rooms, a private room.
    static let roomOptions = [
        "", "mode=junior penalty=0", "mode=chain", "mode=ultra", "matchismo n=2", "start=ready",
        "matchismo n=3 start=ready", "password=pw", "mode=megaset", "mode=memory practice=on",
        "mode=puzzle sets=5", "mode=ultrachain minutes=2",
    ]
    static var roomCount: Int { roomOptions.count }
    /// What players say, some of it text Unicode glues to its neighbours.
    static let chatTexts = [
        "hi", "nice one", "e\u{301}\u{301} acute", "\u{0600}\u{0600} prepend", "👩‍👩‍👧 family", "tab\there",
        "~ % \\ tilde", String(repeating: "long ", count: 150),
    ]
    /// Options a `NEW` asks for.
    static let newGameOptions = [
        "", "mode=junior", "mode=normal", "penalty=0", "n=3", "hints=off", "mode=4set", "mode=shuffle",
    ]

    /// The seed.
    public let seed: UInt64
    let configuration: ServerConfiguration
    var engine: Engine
    var now = Instant(uptime: 10_000, wall: 1_798_761_600)
    var disk = VirtualDisk()
    var clients: [SimulatedClient]
    var byConnection: [ConnectionID: SimulatedClient] = [:]
    private var nextConnectionID = 1
    /// Processes started after the first: each draws its own randomness, as a real one would.
    private var restarts: UInt64 = 0
    private var nextTickAt: Double
    private var wakeAt: Double?
    var replay: ReplayCheck
    /// The journal lines read so far, kept across restarts: each rewrite holds most of them again, and
    /// the restart after it reads them back (the daemon's reading and the replay check's).
    let knownLines: ReplayCheck.KnownLines
    var random: SeededGenerator
    /// The trace, one line per event (and per fault), with no timings: two runs compare byte for byte.
    public private(set) var trace: [String] = []
    /// Whether the trace is kept (a batch of seeds keeps none: it only needs to know which fail).
    public var isTracing = true {
        didSet { for client in clients { client.keepsFinals = isTracing } }
    }
    /// Lines clients sent, the measure of the simulation's speed.
    public private(set) var commands = 0
    /// Each name's last rating per mode, as the journal said, for the zero-sum check.
    var ratings: [String: UInt64] = [:]
    /// The first invariant broken, if any.
    public private(set) var failure: String?
    /// The event after which it broke.
    public private(set) var failedStep: Int?
    /// An extra invariant, for tests of the simulator itself (its shrinking): a reason when it breaks.
    public var extraInvariant: (@Sendable (_ trace: [String]) -> String?)?
    /// How often the full checks (a replay compared with live play, the snapshot round trip) run, in
    /// events; the cheap ones run after every event.
    public var fullCheckEvery = 16
    /// Where in its cycle the seed's replay comparisons fall (see ``check(step:isLast:)``): seeds check
    /// different steps, so together they check every one.
    var checkPhase: Int { Int(seed % UInt64(fullCheckEvery * 128)) }
    /// How many times the replay was compared with live play byte for byte, whole state and snapshot
    /// round trip included (at the seeded steps and after the last event; restarts compare on their own).
    public internal(set) var wholeStateChecks = 0

    /// A world for `seed` with `clients` clients.
    public init(seed: UInt64, clients count: Int = 12) {
        self.seed = seed
        var configuration = ServerConfiguration()
        configuration.seed = seed
        configuration.logLevel = .warn
        configuration.fsync = seed % 2 == 0 ? .always : .everySecond
        configuration.maximumOutputBytes = 64 << 10
        configuration.idleTimeout = 600
        configuration.grace = 120
        // Keys and passwords hashed as the daemon hashes them, only with fewer rounds: the simulation is
        // about which decisions are made, not about what a guess costs.
        configuration.keyHashIterations = 16
        self.configuration = configuration
        engine = Engine(configuration: configuration, random: .seeded(seed))
        knownLines = ReplayCheck.KnownLines()
        replay = ReplayCheck(configuration: configuration, knownLines: knownLines)
        random = SeededGenerator(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        clients = (0..<count).map(SimulatedClient.init(index:))
        nextTickAt = now.uptime + 1
        disk.rewrite([.header(version: JournalRecord.formatVersion)], at: now.uptime)
        try? replay.check(after: [.header(version: JournalRecord.formatVersion)], live: engine.core)
    }

    /// Runs `events` in order, stopping at the first broken invariant; returns whether all held.
    @discardableResult
    public func run(_ events: [SimulationEvent]) -> Bool {
        for (step, event) in events.enumerated() {
            let before = trace.count
            perform(event)
            if failure == nil { check(step: step) }
            if failure == nil, let broken = extraInvariant?(trace) { fail(broken) }
            // Each line of the step says which step it was: the event itself, or what it did.
            if isTracing {
                if trace.count == before {
                    trace.append("\(step) \(event)")
                } else {
                    for index in before..<trace.count { trace[index] = "\(step) " + trace[index] }
                }
            }
            if let failure {
                failedStep = step
                trace.append("FAILED at \(step) \(event): \(failure)")
                return false
            }
        }
        // After the last event, every check, whatever the seed's phase.
        if let last = events.indices.last {
            check(step: last, isLast: true)
            if let failure {
                failedStep = last
                trace.append("FAILED after the last event, \(last) \(events[last]): \(failure)")
                return false
            }
        }
        return true
    }

    // MARK: Events

    private func perform(_ event: SimulationEvent) {
        // People come back: a client told to act while its connection is gone reconnects first and
        // takes its seat back (set-cli and the page do it by themselves; at nc it is the person).
        switch event {
        case .claim(let c, _), .chat(let c, _), .newGame(let c, _), .ready(let c), .start(let c),
            .kick(let c, _), .lock(let c, _), .leave(let c):
            comeBack(clients[c])
        default:
            break
        }
        switch event {
        case .connect(let c): connect(clients[c])
        case .hello(let c):
            let client = clients[c]
            send(.hello(name: client.name, key: client.key), from: client)
        case .join(let c, let room):
            send("JOIN r\(room) \(Self.roomOptions[room])", from: clients[c])
        case .watch(let c, let room):
            send("WATCH r\(room)\(room == 7 ? " password=pw" : "")", from: clients[c])
        case .claim(let c, let kind): claim(kind, by: clients[c])
        case .chat(let c, let text): send(.chat(text: Self.chatTexts[text]), from: clients[c])
        case .newGame(let c, let options): send("NEW \(Self.newGameOptions[options])", from: clients[c])
        case .ready(let c): send(.ready, from: clients[c])
        case .start(let c): send(.start, from: clients[c])
        case .kick(let c, let seat):
            let client = clients[c]
            let players = client.view.players
            guard !players.isEmpty else { return }
            send(.kick(name: players[seat % players.count].name), from: client)
        case .lock(let c, let locked): send(locked ? .lock : .unlock, from: clients[c])
        case .leave(let c): send(.leave, from: clients[c])
        case .quit(let c): send(.quit, from: clients[c])
        case .cutMidLine(let c):
            let client = clients[c]
            guard let id = client.connection else { return }
            deliver(Array("CHAT half a li".utf8), from: client)
            hangUp(client, id)
        case .stall(let c, let stalled):
            let client = clients[c]
            guard client.isConnected, client.isReading == stalled else { return }
            client.isReading = !stalled
            if !stalled, let id = client.connection {
                engine.writable(id, pending: 0)
                client.read()
            }
        case .drop(let c):
            let client = clients[c]
            guard let id = client.connection else { return }
            hangUp(client, id)
        case .resume(let c):
            let client = clients[c]
            if !client.isConnected { connect(client) }
            if let token = client.token {
                send(.resume(token: token), from: client)
            } else {
                send(.hello(name: client.name, key: client.key), from: client)
            }
        case .junk(let c, let kind):
            let client = clients[c]
            let junk: [UInt8]
            switch kind {
            case 0: junk = [0xFF, 0xFE, 0x00, 0x80, 0x0A]
            case 1: junk = [UInt8](repeating: 0x41, count: 3_000) + [0x0A]
            case 2: junk = Array("CHAT \u{FFFD}".utf8).dropLast() + [0xC3, 0x0A]
            default: junk = [0x0A, 0x20, 0x0A, 0x09, 0x0A]
            }
            deliver(junk, from: client)
        case .wait(let ms): advance(by: Double(ms) / 1000)
        case .clockJump(let seconds): advance(by: Double(seconds))
        case .crash(let tear): crash(tear: tear)
        case .diskFull(let seconds):
            disk.fullFor = max(disk.fullFor, seconds)
        case .writeError:
            disk.failures.append("Input/output error")
        }
    }

    /// Reconnects a client that lost its connection: `RESUME` with its token, or `HELLO` and a `JOIN` of
    /// its room when the token is gone.
    private func comeBack(_ client: SimulatedClient) {
        guard !client.isConnected else { return }
        connect(client)
        if let token = client.token {
            send(.resume(token: token), from: client)
            guard client.token == nil || client.view.room == nil else { return }
        }
        send(.hello(name: client.name, key: client.key), from: client)
        let room = client.index % Self.roomCount
        send("JOIN r\(room) \(Self.roomOptions[room])", from: client)
    }

    private func connect(_ client: SimulatedClient) {
        guard !client.isConnected else { return }
        let id = nextConnectionID
        nextConnectionID += 1
        client.connection = id
        byConnection[id] = client
        let peer = PeerAddress("127.0.0.\(client.index % 3 + 1):\(20_000 + id)")
        carryOut(engine.opened(id, peer: peer, at: now))
        if client.isWebSocket {
            let upgrade =
                "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:7777\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Origin: http://127.0.0.1:7777\r\n\r\n"
            deliver(Array(upgrade.utf8), from: client)
        } else {
            // nc says nothing first: its window ends and it is greeted.
            advance(by: configuration.sniffWindow)
        }
    }

    /// The peer closed: the engine hears it ended, then that its descriptor closed.
    private func hangUp(_ client: SimulatedClient, _ id: ConnectionID) {
        carryOut(engine.ended(id, reason: "peer closed", at: now))
        release(id)
    }

    private func release(_ id: ConnectionID) {
        guard let client = byConnection.removeValue(forKey: id) else { return }
        if client.connection == id { client.disconnected() }
        carryOut(engine.closed(id, at: now))
    }

    private func send(_ command: Command, from client: SimulatedClient) { send(command.text, from: client) }

    /// Sends one line, as a line or, from a browser, as a masked text frame; bytes arrive in pieces.
    private func send(_ line: String, from client: SimulatedClient) {
        guard client.isConnected else { return }
        commands += 1
        var bytes = Array(line.utf8)
        if client.isWebSocket {
            bytes = WebSocketClient<EmbeddedClient>.frame(1, bytes, masked: true)
        } else {
            bytes.append(0x0A)
        }
        deliver(bytes, from: client)
        let finals = client.finals
        client.finals = []
        note("\(client.name) \(line.prefix(60)) → \(finals.joined(separator: " | "))")
    }

    /// The network hands the server a client's bytes, one time in four split at a seeded point.
    private func deliver(_ bytes: [UInt8], from client: SimulatedClient) {
        guard let id = client.connection else { return }
        let roll = random.next()
        let cut = bytes.count > 1 && roll % 4 == 0 ? Int((roll >> 2) % UInt64(bytes.count)) : bytes.count
        for piece in [bytes[..<cut], bytes[cut...]] where !piece.isEmpty {
            guard client.connection == id else { return }
            carryOut(engine.received(Array(piece), on: id, at: now))
        }
    }

    private func claim(_ kind: SimulationEvent.ClaimKind, by client: SimulatedClient) {
        let view = client.view
        if view.game == .matchismo {
            let count = max(view.board.count, 1)
            let position = Int(random.next() % UInt64(count))
            let rev = kind == .stale ? view.revision - 1 : view.revision
            let revision = client.kind == .terminal || client.kind == .browser || kind == .stale ? rev : nil
            return send(.choose(picks: [.position(position)], revision: revision), from: client)
        }
        let cards = view.setCards.compactMap { $0 }
        // Memory's face-down board, or a board of the last game's mode: a claim it cannot judge.
        guard !cards.isEmpty, cards.allSatisfy(view.setMode.hasCard) else {
            return send("CHOOSE a b c", from: client)
        }
        let claims = view.setMode.claims(on: cards, chain: view.chain.isEmpty ? nil : view.chain)
        func positions(_ claim: [Card]) -> [Command.Pick] {
            claim.map { card in cards.firstIndex(of: card).map { .position($0) } ?? .code(card.code) }
        }
        switch kind {
        case .byPosition, .withRevision, .byCode:
            guard let found = claims.first else { return send("CHOOSE a b c", from: client) }
            let picks = kind == .byCode ? found.map { Command.Pick.code($0.code) } : positions(found)
            let useRevision = kind == .withRevision || client.kind == .terminal || client.kind == .browser
            send(.choose(picks: picks, revision: useRevision ? view.revision : nil), from: client)
        case .wrong:
            let size = view.setMode.cardsPerClaim
            guard cards.count >= size else { return }
            var picks = Array(0..<size)
            while picks[size - 1] < cards.count, view.setMode.isValidClaim(picks.map { cards[$0] }) {
                picks[size - 1] += 1
            }
            guard picks[size - 1] < cards.count else { return }
            send(.choose(picks: picks.map { .position($0) }, revision: view.revision), from: client)
        case .stale:
            guard let earlier = client.earlierBoard, earlier.cards.allSatisfy(view.setMode.hasCard),
                let old = view.setMode.claims(on: earlier.cards, chain: nil).first
            else {
                return send(
                    .choose(picks: [.position(0), .position(1), .position(2)], revision: 1), from: client)
            }
            let picks = old.compactMap { earlier.cards.firstIndex(of: $0) }.map { Command.Pick.position($0) }
            send(.choose(picks: picks, revision: earlier.revision), from: client)
        }
    }

    // MARK: Time

    /// Moves the clock on, ticking once a second and waking the engine when it asked.
    func advance(by seconds: Double) {
        let end = now.uptime + seconds
        while true {
            let next = min(nextTickAt, wakeAt ?? .infinity)
            guard next <= end else { break }
            now = now.advanced(by: next - now.uptime)
            if let wake = wakeAt, wake <= now.uptime {
                wakeAt = nil
                carryOut(engine.wake(at: now))
            }
            if nextTickAt <= now.uptime {
                nextTickAt = now.uptime + 1
                carryOut(engine.tick(at: now))
                tickJournal()
            }
        }
        now = now.advanced(by: end - now.uptime)
    }

    /// Once a second, as the shell does: flush under `--fsync everysec`; after an outage, rewrite the
    /// journal from the state and tell the engine it can write again.
    private func tickJournal() {
        if configuration.fsync == .everySecond { disk.sync(at: now.uptime) }
        disk.tick()
        guard !engine.isJournalAvailable, !disk.isFull else { return }
        let records = engine.core.snapshotRecords()
        let bodies = disk.rewrite(records, at: now.uptime)
        let rewritten = disk.bytes
        replay = ReplayCheck(configuration: configuration, knownLines: knownLines)
        carryOut(engine.journalRecovered(at: now))
        // Read back from the bytes the disk now holds, as a restart would read them, and compared with
        // the state they were written from, byte for byte.
        if let mismatch = catching({
            try replay.feed(wholeJournal: rewritten[...])
            try replay.compare(rewrite: records, bodies: bodies)
        }) {
            fail("the rewritten journal does not replay: \(mismatch)")
        }
        note("journal rewritten after the outage (\(records.count) records)")
    }

    // MARK: The crash

    /// The process dies: the journal keeps its synced bytes and a torn prefix of the rest; everyone's
    /// connection is gone; a new process restores from what survived, as the daemon does.
    private func crash(tear: Int) {
        restart(from: disk.survivingCrash(tear: tear))
    }

    /// A new process starts on `surviving`, the journal's bytes after the old one died.
    private func restart(from surviving: [UInt8]) {
        // Nothing acknowledged may be lost beyond what the fsync policy allows.
        if configuration.fsync == .always, surviving.count < disk.acknowledged {
            return fail(
                "with --fsync always, a crash lost acknowledged bytes \(surviving.count)..<\(disk.acknowledged)"
            )
        }
        if configuration.fsync == .everySecond, surviving.count < disk.acknowledged,
            let since = disk.unsyncedSince, now.uptime - since > 1.001
        {
            return fail(
                "with --fsync everysec, a crash lost changes acknowledged \(now.uptime - since) s ago")
        }
        let contents: JournalReader.Contents
        do {
            // The daemon's own reading, with the lines it read before (at the last restart, or in the
            // replay checks of the rewrites since) taken from what they held then.
            knownLines.beginWholeJournal()
            contents = try JournalReader.parse(surviving, path: "journal", reading: knownLines.record(body:))
        } catch {
            return fail("the journal left by a crash does not read: \(error)")
        }
        for client in clients where client.isConnected { client.disconnected() }
        byConnection = [:]
        wakeAt = nil
        restarts += 1
        engine = Engine(configuration: configuration, random: .seeded(seed &+ 0x1000 &* restarts))
        let actions: [Action]
        do {
            actions = try engine.restore(contents.records, at: now)
        } catch {
            return fail("the journal left by a crash does not restore: \(error)")
        }
        // The daemon rewrites the journal at once as the state it restored.
        let records = engine.core.snapshotRecords()
        // Ratings are what the restored journal says (a torn tail may have lost a game's).
        pendingRatings = []
        ratings = [:]
        for case .rating(let name, let mode, let bits, _, _, _, _, _) in records {
            ratings[name + " " + mode] = bits
        }
        disk = VirtualDisk()
        let bodies = disk.rewrite(records, at: now.uptime)
        let rewritten = disk.bytes
        replay = ReplayCheck(configuration: configuration, knownLines: knownLines)
        carryOut(actions.filter { if case .journal = $0 { false } else { true } })
        // The snapshot it wrote, replayed, is the state it restored: a compaction loses nothing.
        if let mismatch = catching({
            try replay.feed(wholeJournal: rewritten[...])
            try replay.compare(rewrite: records, bodies: bodies)
        }) {
            fail("the restored state does not survive its own snapshot: \(mismatch)")
        }
        note(
            "crash: \(surviving.count) of \(disk.bytes.count) bytes kept, \(contents.records.count) records restored"
        )
    }

    // MARK: Carrying out

    /// Hands written bytes to the clients of `ids`, checking the journal gate as the shell would.
    private func deliver(_ bytes: [UInt8], to ids: [ConnectionID]) {
        if disk.hasAppended {
            fail("a line left before the journal records ahead of it were written")
        }
        if configuration.fsync == .always, disk.synced < disk.bytes.count {
            fail("with --fsync always, a line left before its records were on disk")
        }
        disk.acknowledge(at: now.uptime)
        for id in ids {
            guard let client = byConnection[id], client.connection == id else { continue }
            client.inbox += bytes
            if !client.hasArrived {
                client.hasArrived = true
                arrived.append(client)
            }
        }
    }

    /// Carries out the engine's actions as the shell does, checking the journal gate on the way: a line
    /// never leaves while a record before it is not written.
    func carryOut(_ actions: [Action]) {
        var batch = actions
        var closing: [ConnectionID] = []
        while !batch.isEmpty {
            var next: [Action] = []
            for action in batch {
                switch action {
                case .write(let id, let bytes):
                    deliver(bytes, to: [id])
                case .broadcast(let ids, let bytes):
                    deliver(bytes, to: ids)
                case .finish(let id), .close(let id):
                    closing.append(id)
                case .journal(let box):
                    disk.append(box.record)
                    noteRating(box.record)
                case .commitJournal:
                    let problem = disk.commit(syncing: configuration.fsync == .always, at: now.uptime)
                    if let problem { note("journal write failed: \(problem)") }
                    next = engine.journalCommitted(problem.map { .failed($0) } ?? .written, at: now)
                    if disk.isFull, engine.isJournalAvailable {
                        // The reserve could not be renewed: the journal says so before the next change.
                        disk.becomeUnavailable()
                        next += engine.journalFailed("No space left on device", at: now)
                        note("the disk is full: changes are refused")
                    }
                case .exit(_, let reason):
                    // The process stops at once; the page cache keeps everything it wrote.
                    note("setd stopped: \(reason)")
                    restart(from: disk.bytes)
                    return
                case .log:
                    break
                case .wake(let uptime):
                    wakeAt = uptime
                }
            }
            batch = next
        }
        // The clients bytes arrived for read them (reading is a function of a client's own bytes, so
        // one with none new would read nothing; a stalled one reads when it reads again).
        if !arrived.isEmpty {
            let reading = arrived
            arrived = []
            for client in reading {
                client.hasArrived = false
                client.read()
            }
        }
        engine.flushed(
            backlogged: clients.compactMap { client in
                guard let id = client.connection, !client.isReading, !client.inbox.isEmpty else { return nil }
                return (id, client.inbox.count)
            })
        for id in closing { release(id) }
    }

    /// Notes a rating record, for the check that a game's rating changes sum to zero.
    private func noteRating(_ record: JournalRecord) {
        guard case .rating(let name, let mode, let bits, _, _, _, _, _) = record else { return }
        pendingRatings.append((name + " " + mode, bits))
    }

    var pendingRatings: [(key: String, bits: UInt64)] = []
    /// The clients bytes were delivered to since the last reading, each once.
    private var arrived: [SimulatedClient] = []
    /// Where each card is, for the partition check: zero between checks (each check clears what it set).
    var placeScratch = [UInt8](repeating: 0, count: Card.universe.count)
    /// Each mode's deck by card index, for the partition check.
    var deckMembership: [SetMode: [Bool]] = [:]
    /// Each mode's deck size, for the partition check.
    var deckCounts: [SetMode: Int] = [:]

    /// Adds a line to the trace, if it is kept; `line` is only made then.
    func note(_ line: @autoclosure () -> String) {
        if isTracing { trace.append(line()) }
    }

    func fail(_ why: String) {
        if failure == nil { failure = why }
    }

    func catching(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
