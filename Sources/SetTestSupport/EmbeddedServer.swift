import SetEngine
import SetProtocol
import SetServerCore

/// The daemon's ``Engine`` in memory, with a virtual clock, virtual sockets and a virtual journal disk:
/// the server's behaviour tested without a socket, a thread or a sleep (swift-nio's `EmbeddedChannel`,
/// for setd).
///
/// It runs the real pipeline: bytes a client types go to the same engine the daemon runs (sniff, HTTP,
/// WebSocket, telnet, framing, rate limits, output accounting, deadlines, the journal gate, the drop
/// order); its actions come back in order and are carried out here as the shell carries them out, on
/// byte buffers instead of sockets. After every input the journal written so far is replayed and
/// compared with the live state (see ``ReplayCheck``).
///
/// ```swift
/// let server = EmbeddedServer()
/// let ann = try server.connect("ann")
/// let reply = try ann.request("HELLO ann")
/// server.advance(by: 121)
/// ```
public final class EmbeddedServer {
    /// The engine under test.
    public let engine: Engine
    /// The rules of play inside it.
    public var core: ServerCore { engine.core }
    /// The time the engine is told; only ``advance(by:)`` (and ``connect(_:host:)``, through the sniff
    /// window) moves it.
    public private(set) var now = Instant(uptime: 1_000, wall: 1_798_761_600)
    /// Every journal record written (committed), in order: what the disk holds.
    public private(set) var journal: [JournalRecord] = []
    /// Records appended and not yet committed.
    private var appended: [JournalRecord] = []
    /// Why the engine stopped the server (a journal write failed), once it did: nothing more happens
    /// until a test restarts it from its journal.
    public private(set) var exitReason: String?
    /// Every log event, in order.
    public private(set) var logs: [LogEvent] = []
    /// While set, the virtual disk fails every journal write with this reason.
    public var journalWriteFailure: String?
    /// Journal commits carried out (each a `write`, and an `fsync` under `--fsync always`).
    public private(set) var commitCount = 0
    private var clients: [ConnectionID: EmbeddedClient] = [:]
    private var nextID = 1
    /// When the engine asked to be woken.
    private var wakeAt: Double?
    /// Whether every input is a pass of its own, ended at once (lines that wait for the next pass are
    /// handled before the input returns), as on by default; off, a test ends passes with ``endPass()``.
    public var endsPassAfterEveryInput = true
    /// Clients that stopped reading: their unread bytes are the backlog the engine is told of.
    private var stalled: Set<ConnectionID> = []
    /// Replays the journal after every input and compares it with the live core (see ``ReplayCheck``);
    /// `nil` when a test turned it off.
    private var replayCheck: ReplayCheck?
    private var checkedRecords = 0
    private var recordBatches = 0
    /// The first difference between live play and its replay, until a client's next call throws it.
    private var replayMismatch: ReplayCheck.Mismatch?
    private var isMismatchReported = false

    /// Creates a server; `configure` adjusts the test defaults (seed 42, logs at info).
    public convenience init(_ configure: (inout ServerConfiguration) -> Void = { _ in }) {
        var configuration = ServerConfiguration()
        configuration.seed = 42
        configuration.logLevel = .info
        configure(&configuration)
        self.init(configuration: configuration)
    }

    private init(configuration: ServerConfiguration) {
        engine = Engine(configuration: configuration)
        replayCheck = ReplayCheck(configuration: configuration)
    }

    deinit {
        // A difference no client call was left to throw still fails the run, loudly.
        if let replayMismatch, !isMismatchReported { fatalError("\(replayMismatch)") }
    }

    /// Unread output, in bytes, past which a client that does not read is dropped (the engine's
    /// ``Engine/outputLimit``).
    public var maximumOutputBytes: Int {
        get { engine.outputLimit }
        set { engine.outputLimit = newValue }
    }

    /// Whether every input is followed by a replay of the journal compared with live play (on unless
    /// turned off). Tests that build thousands of rooms turn it off: each check copies the whole state.
    public var checksReplay: Bool {
        get { replayCheck != nil }
        set {
            precondition(!newValue || replayCheck != nil, "a replay check starts with the server")
            if !newValue { replayCheck = nil }
        }
    }

    /// A new server restored from this one's journal, read back through its bytes, `seconds` later: what
    /// the daemon does when it starts again on its state directory after a crash or a stop. This server's
    /// clients are not carried over (nobody is connected to a process that just started); the new
    /// server's journal starts as the daemon's does, with the snapshot it compacts to.
    public func restarted(after seconds: Double = 0) throws -> EmbeddedServer {
        try restarted(from: try ReplayCheck.reread(journal), after: seconds)
    }

    /// A new server restored from `records` (a journal as the disk kept it), `seconds` after this one's
    /// clock.
    public func restarted(from records: [JournalRecord], after seconds: Double = 0) throws -> EmbeddedServer {
        let restarted = EmbeddedServer(configuration: engine.configuration)
        restarted.now = now.advanced(by: seconds)
        let actions = try restarted.engine.restore(records, at: restarted.now)
        restarted.journal = restarted.core.snapshotRecords()
        restarted.perform(actions.filter { if case .journal = $0 { false } else { true } })
        return restarted
    }

    /// Throws the first difference between live play and the journal's replay, once.
    func throwReplayMismatch() throws {
        guard let replayMismatch, !isMismatchReported else { return }
        isMismatchReported = true
        throw replayMismatch
    }

    // MARK: Clients

    /// Opens a connection from `host` and returns its client, without reading anything: while HTTP is
    /// on, nothing arrives before the client speaks or its sniff window ends.
    public func open(_ label: String, host: String = "127.0.0.1") -> EmbeddedClient {
        let id = nextID
        nextID += 1
        let client = EmbeddedClient(id: id, label: label, server: self)
        clients[id] = client
        let peer = host.contains(":") ? "[\(host)]:\(40_000 + id)" : "\(host):\(40_000 + id)"
        perform(engine.opened(id, peer: PeerAddress(peer), at: now))
        return client
    }

    /// Connects as `nc` does (saying nothing first), waits out the sniff window, and checks the greeting.
    public func connect(_ label: String, host: String = "127.0.0.1") throws -> EmbeddedClient {
        let client = open(label, host: host)
        if engine.configuration.isHTTPEnabled { advance(by: engine.configuration.sniffWindow) }
        let greeting = try client.readLine()
        guard greeting.hasPrefix("SETD 1 ") else {
            throw ClientError(description: "\(label): greeting was '\(greeting)'")
        }
        return client
    }

    /// Connects and says `HELLO <name>`; returns the client and its token.
    public func named(_ name: String, host: String = "127.0.0.1") throws -> (EmbeddedClient, String) {
        let client = try connect(name, host: host)
        return (client, try client.hello(name))
    }

    /// Connects from `host`, says `HELLO <name>` and joins `room` (creating it with `options`); returns the
    /// client and the join reply (the snapshot).
    public func player(_ name: String, room: String, options: String = "", host: String = "127.0.0.1") throws
        -> (EmbeddedClient, Reply)
    {
        let (client, _) = try named(name, host: host)
        let reply = try client.request(options.isEmpty ? "JOIN \(room)" : "JOIN \(room) \(options)")
        guard reply.isOK("JOIN \(room)") else {
            throw ClientError(description: "\(name): JOIN got \(reply)")
        }
        return (client, reply)
    }

    /// Connections the engine has open, in any mode.
    public var connectionCount: Int { engine.connectionCount }

    // MARK: Time

    /// Moves the virtual clock on by `seconds`, running the engine's once-a-second tick at every whole
    /// second on the way (and at the end), and waking it at the times it asked for in between.
    public func advance(by seconds: Double) {
        let end = now.uptime + seconds
        var nextTick = now.uptime + min(1, seconds)
        while true {
            if let wake = wakeAt, wake <= nextTick, wake <= end {
                wakeAt = nil
                now = now.advanced(by: max(0, wake - now.uptime))
                perform(engine.wake(at: now))
                continue
            }
            guard now.uptime < end || nextTick <= end else { return }
            now = now.advanced(by: nextTick - now.uptime)
            perform(engine.tick(at: now))
            if nextTick >= end { return }
            nextTick = min(nextTick + 1, end)
        }
    }

    /// Says `BYE` to everyone, as the daemon does when it stops.
    public func stop(reason: String = "server shutting down") {
        perform(engine.shutDown(reason: reason, at: now))
    }

    /// Tells the engine its journal cannot be written, as the shell does when a flush fails.
    public func failJournal(_ reason: String) {
        perform(engine.journalFailed(reason, at: now))
    }

    /// Tells the engine its journal can be written again: the journal is rewritten from the state, as
    /// the shell does when the disk has room again (records made meanwhile were dropped).
    public func recoverJournal() {
        journalWriteFailure = nil
        appended = []
        journal = core.snapshotRecords()
        checkedRecords = 0
        if replayCheck != nil { replayCheck = ReplayCheck(configuration: engine.configuration) }
        perform(engine.journalRecovered(at: now))
    }

    // MARK: The shell's part

    func received(_ bytes: [UInt8], from client: EmbeddedClient) {
        perform(engine.received(bytes, on: client.id, at: now))
        guard endsPassAfterEveryInput else { return }
        repeat { endPass() } while engine.hasDeferredInput
    }

    /// Ends a pass of the virtual shell: the rooms' budgets start again and lines that waited for the
    /// next pass are handled (see ``Engine/passEnded(at:)``).
    public func endPass() {
        let actions = engine.passEnded(at: now)
        if !actions.isEmpty { perform(actions) }
    }

    func closedByPeer(_ client: EmbeddedClient) {
        perform(engine.ended(client.id, reason: "peer closed", at: now))
        release(client)
    }

    /// The client resumed reading: what piled up is theirs, and the engine hears the socket drained.
    func resumedReading(_ client: EmbeddedClient) {
        stalled.remove(client.id)
        engine.writable(client.id, pending: 0)
    }

    func stoppedReading(_ client: EmbeddedClient) {
        stalled.insert(client.id)
    }

    /// The descriptor is closed: the engine forgets the connection.
    private func release(_ client: EmbeddedClient) {
        guard clients.removeValue(forKey: client.id) != nil else { return }
        stalled.remove(client.id)
        perform(engine.closed(client.id, at: now))
    }

    /// Carries out the engine's actions as the shell does, then tells it what the sockets took: every
    /// reading client takes everything; a stalled one holds its unread bytes.
    private func perform(_ actions: [Action]) {
        guard exitReason == nil else { return }
        var batch = actions
        var toRelease: [EmbeddedClient] = []
        while !batch.isEmpty {
            var next: [Action] = []
            for action in batch {
                switch action {
                case .write(let id, let bytes):
                    guard let client = clients[id], client.state == .open else { continue }
                    client.deliver(bytes)
                case .broadcast(let ids, let bytes):
                    for id in ids {
                        guard let client = clients[id], client.state == .open else { continue }
                        client.deliver(bytes)
                    }
                case .finish(let id):
                    guard let client = clients[id], client.state == .open else { continue }
                    // The queued bytes are in the client's inbox already: the close follows at once.
                    client.state = .closed
                    toRelease.append(client)
                case .close(let id):
                    guard let client = clients[id] else { continue }
                    if client.state == .open { client.state = .dropped }
                    toRelease.append(client)
                case .journal(let box):
                    // While the journal cannot be written the shell drops records; the rewrite that
                    // ends the outage holds their effect.
                    if engine.isJournalAvailable { appended.append(box.record) }
                case .commitJournal:
                    commitCount += 1
                    let result: Engine.CommitResult =
                        journalWriteFailure.map { .failed($0) } ?? .written
                    if result == .written { journal += appended }
                    appended = []
                    next = engine.journalCommitted(result, at: now)
                case .exit(_, let reason):
                    // The process stops as a crash would: every connection is gone, nothing more is sent.
                    exitReason = reason
                    for client in clients.values where client.state == .open { client.state = .dropped }
                    clients = [:]
                    return
                case .log(let event):
                    logs.append(event)
                case .wake(let uptime):
                    wakeAt = uptime
                }
            }
            batch = next
        }
        engine.flushed(backlogged: stalled.compactMap { id in clients[id].map { (id, $0.unreadBytes) } })
        for client in toRelease { release(client) }
        checkReplay()
    }

    private func checkReplay() {
        guard replayMismatch == nil, replayCheck != nil, engine.isJournalAvailable else { return }
        let records = Array(journal[checkedRecords...])
        checkedRecords = journal.count
        // Every input: the journal's replay against live play. Every 8th input that wrote records (and
        // the first), the snapshot's round trip too: a compaction loses nothing.
        do {
            try replayCheck!.feed(records)
            try replayCheck!.compare(with: core)
            if !records.isEmpty {
                if recordBatches % 8 == 0 { try replayCheck!.compareSnapshotRoundTrip(of: core) }
                recordBatches += 1
            }
        } catch {
            replayMismatch = error
        }
    }
}

extension EmbeddedServer {
    /// The `Host` a browser names for this server in tests.
    public static let testHost = "127.0.0.1:7777"

    /// Opens a connection and upgrades it to a WebSocket as the server's own page does (its `Origin`),
    /// with `fields` in the request (a proxy's `X-Forwarded-For`); with `expectGreeting`, reads the
    /// greeting.
    public func webSocket(
        _ label: String, host: String = "127.0.0.1", origin: String? = "http://\(testHost)",
        fields: [String] = [], expectGreeting: Bool = true
    ) throws -> WebSocketClient<EmbeddedClient> {
        try WebSocketClient(
            over: open(label, host: host), host: Self.testHost, origin: origin, fields: fields,
            expectGreeting: expectGreeting)
    }

    /// Sends `request` on a new connection and reads the response; with `thenClosed`, checks that the
    /// server closed the connection after it. Returns the connection too, for what follows.
    @discardableResult
    public func http(_ request: [UInt8], host: String = "127.0.0.1", thenClosed: Bool = true) throws -> (
        response: HTTPTestResponse, client: EmbeddedClient
    ) {
        let client = open("http", host: host)
        try client.send(bytes: request)
        return (try HTTPTestResponse.read(from: client, thenClosed: thenClosed), client)
    }

    /// `GET target` as curl sends it (`Connection: close`).
    public func get(_ target: String, host: String = "127.0.0.1") throws -> HTTPTestResponse {
        try http(HTTPTestResponse.getRequest(target, host: Self.testHost), host: host).response
    }
}
