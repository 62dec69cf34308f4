import SetProtocol
import SetServerCore

/// A ``ServerCore`` in memory, with a virtual clock and clients that are byte buffers: the server's
/// behaviour tested without a socket, a thread or a sleep (swift-nio's `EmbeddedChannel`, for setd).
///
/// It plays the shell's part exactly as the daemon does: bytes typed by a client go through a
/// ``TelnetFilter`` (whose answers the client gets first) and a ``LineFramer`` into the core, the effects come back in order, journal records are kept in
/// ``journal``, and a client that stops reading is dropped once its unread output passes the limit,
/// told to the core only after the effects being carried out — never in the middle of a broadcast.
///
/// ```swift
/// let server = EmbeddedServer()
/// let ann = try server.connect("ann")
/// let reply = try ann.request("HELLO ann")
/// server.advance(by: 121)
/// ```
public final class EmbeddedServer {
    /// The core under test.
    public let core: ServerCore
    /// The time the core is told; only ``advance(by:)`` moves it.
    public private(set) var now = Instant(uptime: 1_000, wall: 1_798_761_600)
    /// Every journal record the core produced, in order.
    public private(set) var journal: [JournalRecord] = []
    /// Every log event the core produced, in order.
    public private(set) var logs: [LogEvent] = []
    /// Unread output, in bytes, past which a client that does not read is dropped (as the shell does).
    public var maximumOutputBytes = 1 << 20
    private var clients: [ConnectionID: EmbeddedClient] = [:]
    private var nextID = 1
    private var lost: [(ConnectionID, String)] = []
    private var isApplying = false
    /// Replays the journal after every input and compares it with the live core (see ``ReplayCheck``);
    /// `nil` when a test turned it off.
    private var replayCheck: ReplayCheck?
    private var checkedRecords = 0
    /// The first difference between live play and its replay, until a client's next call throws it.
    private var replayMismatch: ReplayCheck.Mismatch?
    private var isMismatchReported = false

    /// Creates a server; `configure` adjusts the test defaults (seed 42, quiet logs).
    public convenience init(_ configure: (inout ServerConfiguration) -> Void = { _ in }) {
        var configuration = ServerConfiguration()
        configuration.seed = 42
        configuration.logLevel = .info
        configure(&configuration)
        self.init(configuration: configuration)
    }

    private init(configuration: ServerConfiguration) {
        core = ServerCore(configuration: configuration)
        replayCheck = ReplayCheck(configuration: configuration)
    }

    deinit {
        // A difference no client call was left to throw still fails the run, loudly.
        if let replayMismatch, !isMismatchReported { fatalError("\(replayMismatch)") }
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
        let restarted = EmbeddedServer(configuration: core.configuration)
        restarted.now = now.advanced(by: seconds)
        let effects = try restarted.core.restore(try ReplayCheck.reread(journal), at: restarted.now)
        restarted.journal = restarted.core.snapshotRecords()
        restarted.checkedRecords = 0
        restarted.apply(effects.filter { if case .journal = $0 { false } else { true } })
        return restarted
    }

    /// Throws the first difference between live play and the journal's replay, once.
    func throwReplayMismatch() throws {
        guard let replayMismatch, !isMismatchReported else { return }
        isMismatchReported = true
        throw replayMismatch
    }

    // MARK: Clients

    /// Opens a connection from `host` and returns its client, without reading anything.
    public func open(_ label: String, host: String = "127.0.0.1") -> EmbeddedClient {
        let id = nextID
        nextID += 1
        let client = EmbeddedClient(id: id, label: label, server: self)
        clients[id] = client
        apply(core.connect(id, peer: "\(host):\(40_000 + id)", at: now))
        return client
    }

    /// Connects and checks the greeting.
    public func connect(_ label: String, host: String = "127.0.0.1") throws -> EmbeddedClient {
        let client = open(label, host: host)
        let greeting = try client.readLine()
        guard greeting.hasPrefix("SETD 1 ") else {
            throw ClientError(description: "\(label): greeting was '\(greeting)'")
        }
        return client
    }

    /// Connects and says `HELLO <name>`; returns the client and its token.
    public func named(_ name: String) throws -> (EmbeddedClient, String) {
        let client = try connect(name)
        let reply = try client.request("HELLO \(name)")
        let words = reply.final.split(separator: " ")
        guard words.count == 4, words[0] == "OK", words[1] == "HELLO", words[2] == name else {
            throw ClientError(description: "\(name): HELLO got \(reply)")
        }
        return (client, String(words[3]))
    }

    /// Connects, says `HELLO <name>` and joins `room` (creating it with `options`); returns the client
    /// and the join reply (the snapshot).
    public func player(_ name: String, room: String, options: String = "") throws -> (EmbeddedClient, Reply) {
        let (client, _) = try named(name)
        let reply = try client.request(options.isEmpty ? "JOIN \(room)" : "JOIN \(room) \(options)")
        guard reply.isOK("JOIN \(room)") else {
            throw ClientError(description: "\(name): JOIN got \(reply)")
        }
        return (client, reply)
    }

    /// Connections the core has open.
    public var connectionCount: Int { core.clientCount }

    // MARK: Time

    /// Moves the virtual clock on by `seconds`, running the core's timers once a second on the way, as
    /// the daemon's one-second tick does.
    public func advance(by seconds: Double) {
        var left = seconds
        while left > 0 {
            let step = min(left, 1)
            now = now.advanced(by: step)
            left -= step
            apply(core.tick(at: now))
        }
    }

    /// Says `BYE` to everyone, as the daemon does when it stops.
    public func stop(reason: String = "server shutting down") {
        apply(core.shutDown(reason: reason, at: now))
    }

    /// Tells the core its journal cannot be written, as the shell does on a full disk.
    public func failJournal(_ reason: String) {
        apply(core.journalFailed(reason, at: now))
    }

    /// Tells the core its journal can be written again.
    public func recoverJournal() {
        apply(core.journalRecovered(at: now))
    }

    // MARK: The shell's part

    func received(_ bytes: [UInt8], from client: EmbeddedClient) {
        var effects: [Effect] = []
        var replies: [UInt8] = []
        bytes.withUnsafeBytes { raw in
            client.telnet.filter(raw, replies: &replies) { data in
                client.framer.append(data) { frame in effects += core.handle(frame, from: client.id, at: now)
                }
            }
        }
        // Telnet's answers go before anything the core answers to the same bytes, as in the shell.
        if !replies.isEmpty, client.state == .open { client.deliver(replies) }
        apply(effects)
    }

    func closedByPeer(_ client: EmbeddedClient) {
        lost.append((client.id, "peer closed"))
        if !isApplying { apply([]) }
    }

    private func apply(_ effects: [Effect]) {
        isApplying = true
        defer { isApplying = false }
        var batch = effects
        while true {
            for effect in batch { carryOut(effect) }
            guard !lost.isEmpty else { break }
            let (id, reason) = lost.removeFirst()
            batch = core.disconnected(id, reason: reason, at: now)
        }
        checkReplay()
    }

    private func checkReplay() {
        guard replayMismatch == nil, replayCheck != nil else { return }
        let records = Array(journal[checkedRecords...])
        checkedRecords = journal.count
        do {
            try replayCheck!.check(after: records, live: core)
        } catch {
            replayMismatch = error
        }
    }

    private func carryOut(_ effect: Effect) {
        switch effect {
        case .log(let event):
            logs.append(event)
        case .journal(let record):
            journal.append(record)
        case .send(let id, let bytes):
            guard let client = clients[id], client.state == .open else { return }
            client.deliver(bytes)
            if !client.isReading, client.unreadBytes > maximumOutputBytes {
                client.state = .dropped
                lost.append((id, "output queue full"))
            }
        case .close(let id, _):
            clients[id]?.state = .closed
        }
    }
}
