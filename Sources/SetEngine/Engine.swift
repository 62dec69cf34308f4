import SetProtocol
import SetServerCore
import SetWeb

/// Every connection from accept to close, without I/O: the first-bytes sniff, HTTP and its keep-alive,
/// the WebSocket framer and its pings, the telnet filter, the line framer, the rate limit every input
/// pays, output accounting against one cap, the sniff/408/HTTP-life/closing deadlines, per-address
/// counts (of the real client behind a `--trust-proxy` proxy, named by its PROXY header or its requests'
/// forwarding fields), the journal gate and the drop order. Bytes and times go in; ordered ``Action``s
/// come out.
///
/// Ownership rule: one engine, and the ``ServerCore`` inside it, is owned by one caller — the daemon's
/// shell, or a test's in-memory server — which hands it one input at a time, reads the clock once per
/// input, and carries out the actions of each, in order, before the next. There is one apply loop in
/// the project, this one: the shell only moves bytes, and tests run the same code with a virtual clock.
///
/// Two orders are decided here once:
/// - **A reply waits for its record.** Journal records come before the lines that acknowledge them, and
///   a list that has records ends with ``Action/commitJournal``: the lines after it are held until the
///   shell says the records are written (``journalCommitted(_:at:)``). One input commits once: every
///   line or close that follows its first record waits for that one commit (a read of 20 commands is one
///   journal write, not 20), while its records go to the journal ahead of it in their order.
/// - **The drop order.** A connection dropped for not reading (its output passed the cap) is told to
///   the core after the effects being carried out, never in the middle of a broadcast: everyone sees the
///   event that overflowed it before they see the player go away.
public final class Engine {
    /// The configuration the engine and its core enforce.
    public let configuration: ServerConfiguration
    /// The rules of play, fed by the engine.
    public let core: ServerCore
    var connections = KeyedTable<Connection.ByID>()
    /// Counted connections (every one accepted, in any mode, until its descriptor is closed) by address.
    private var perAddress: [String: Int] = [:]
    private var countedConnections = 0
    /// Each address's bucket of page requests, while it is not full (see
    /// ``EngineLimits/pagesPerSecondPerAddress``).
    var pageBuckets: [String: RateLimiter] = [:]
    /// Every connection's command limit (`--rate-limit`), kept here once rather than in each bucket.
    let commandLimit: RateLimit
    /// Each address's page request limit.
    static let pageLimit = RateLimit(
        rate: EngineLimits.pagesPerSecondPerAddress, burst: EngineLimits.pageBurstPerAddress)
    /// Connections in their sniff window, oldest first.
    var sniffing = SniffQueue()
    /// HTTP connections and closing ones, which the once-a-second tick checks for their deadlines.
    var watched: Set<ConnectionID> = []
    /// The actions of the call in progress, commit markers included.
    private var pending: [Action] = []
    /// How many actions the last input handed out (at least 4, at most 1,024): what `pending` starts at.
    private var actionsHint = 4
    /// How many actions the last input gated (at most 1,024): what `gated` starts at.
    private var gatedHint = 4
    /// Actions made after a commit, waiting for its result; each `.commitJournal` in it starts the next
    /// batch to hand out. Batches leave from `heldStart` on, and the array is emptied once all have: one
    /// read of many commands holds a batch per command, and taking each off the front by moving the rest
    /// would cost the square of their number.
    private var held: [Action] = []
    private var heldStart = 0
    /// The lines and closes of the input in progress that follow a record not yet committed: they are
    /// held behind the input's commit (see ``end()``).
    private var gated: [Action] = []
    private var hasUncommittedRecords = false
    /// Whether the journal can be written; while it cannot, changes are refused by the core and nothing
    /// is gated (there is nothing to wait for: the rewrite that ends the outage captures the effects).
    public private(set) var isJournalAvailable = true
    /// Connections dropped while effects were being carried out; told to the core right after them.
    private var lost: [(ConnectionID, String)] = []
    /// Connections whose output was queued since the shell last said what it wrote.
    var written: [Connection] = []
    /// Lines each room's commands queued in this pass (see ``EngineLimits/linesPerRoomPerPass``).
    var passLines: [ObjectIdentifier: Int] = [:]
    /// Lines read but left for a later pass, their room's budget spent, by connection; and the
    /// connections in the order they began waiting, which is the order they are served in.
    var deferredFrames: [ConnectionID: [LineFramer.Frame]] = [:]
    var deferredOrder: [ConnectionID] = []
    /// Rooms' listener lists and their connections (see ``Audiences``).
    var audiences = Audiences<Connection>()
    /// The array a command's effects are gathered in, kept empty between commands (see
    /// ``receiveLine(_:on:)``).
    var commandEffects: [Effect] = []
    /// The lines of one read, kept between reads (see ``receive(_:on:)``).
    var readFrames: [LineFramer.Frame] = []
    /// Writes queued so far, on any connection: a command's cost to its room's budget is the difference.
    var queuedWriteCount = 0
    private var announcedWake: Double?
    private var refusals = LogThrottle(interval: 1)
    /// The core's `refuse-room` lines (a room refused for a limit): one a second, with the count, so a
    /// fleet that trips the limit a thousand times says so in one line, not a thousand.
    private var roomRefusals = LogThrottle(interval: 1)
    /// PROXY headers from peers not trusted, logged at most once a second with a count: each is a new
    /// connection, and a flood of them must not flood the log.
    var untrustedHeaders = LogThrottle(interval: 1)
    /// `--trust-proxy`: the peers whose PROXY headers and forwarding fields name the client.
    let trustedProxies: [AddressRange]
    /// The origins besides the request's own whose pages may use the page and its WebSocket:
    /// `--allow-origin`'s and `--public-url`'s.
    let allowedOrigins: [String]
    /// The time of the input being handled.
    var now = Instant(uptime: 0, wall: 0)
    let page: [UInt8]
    let tvPage: [UInt8]

    /// Creates an engine with no connections and no rooms; `page` is what `GET /` serves, `tvPage` what
    /// `GET /tv` serves, and the core's secrets come from `random`.
    public init(
        configuration: ServerConfiguration, page: [UInt8] = Array(WebPage.html.utf8),
        tvPage: [UInt8] = WebPage.tvBytes, random: Randomness = .system
    ) {
        self.configuration = configuration
        self.page = page
        self.tvPage = tvPage
        trustedProxies = configuration.trustedProxies
        allowedOrigins = configuration.allowedOrigins + (configuration.publicURL.map { [$0] } ?? [])
        outputLimit = configuration.maximumOutputBytes
        commandLimit = RateLimit(rate: configuration.commandsPerSecond, burst: configuration.commandBurst)
        core = ServerCore(configuration: configuration, random: random)
    }

    /// Bytes of output a connection may have waiting, whatever they are (lines, pages, pongs, close
    /// frames, telnet's answers), before it is dropped (``ServerConfiguration/maximumOutputBytes``; tests
    /// lower it to reach it quickly).
    public var outputLimit: Int

    /// Connections accepted and not yet closed, in any mode.
    public var connectionCount: Int { connections.count }

    // MARK: Inputs

    /// The shell accepted connection `id` from `peer`: greeted at once, or (while HTTP is on, and always
    /// for a trusted proxy, whose first bytes may be a PROXY header) after its first bytes or its sniff
    /// window; turned away when the server or the peer's address is full.
    ///
    /// Every connection counts against `--max-clients` from here. One from a trusted proxy is counted
    /// under an address (`--max-per-ip`) only once its client is known, by its PROXY header, its HTTP
    /// request's forwarding fields, or its first line (then it is the proxy's own): counted under the
    /// proxy's address meanwhile, a busy proxy would be refused for all its clients together.
    public func opened(_ id: ConnectionID, peer: PeerAddress, at now: Instant) -> [Action] {
        begin(at: now)
        precondition(connections[id] == nil, "connection IDs are never reused")
        audiences.forget()
        let limiter = RateLimiter(commandLimit)
        let isFromProxy = isTrusted(peer)
        var refusal: (text: String, reason: String)?
        if countedConnections >= configuration.maxClients {
            refusal = ("the server has \(configuration.maxClients) clients; try again later", "full")
        } else if !isFromProxy, let text = addressFullText(peer) {
            refusal = (text, "max-per-ip")
        }
        let connection = Connection(
            id: id, peer: peer, mode: .lineProtocol, limiter: limiter, at: now.uptime)
        connection.awaitsProxyHeader = isFromProxy
        connections.insert(connection)
        if let refusal {
            connection.isCounted = false
            logRefusal(of: peer, reason: refusal.reason)
            if configuration.isHTTPEnabled {
                connection.mode = .refused(text: refusal.text)
                armSniffWindow(connection)
            } else {
                refuseNow(connection, refusal.text)
            }
            return end()
        }
        countedConnections += 1
        if !isFromProxy { _ = place(connection, as: peer) }
        if configuration.isHTTPEnabled || isFromProxy {
            connection.mode = .sniffing(held: [])
            armSniffWindow(connection)
        } else {
            connection.checksFirstBytes = true
            greet(connection)
        }
        return end()
    }

    /// Bytes arrived on connection `id`.
    public func received(_ bytes: UnsafeRawBufferPointer, on id: ConnectionID, at now: Instant) -> [Action] {
        begin(at: now)
        if let connection = connections[id], connection.isReading { receive(bytes, on: connection) }
        return end()
    }

    /// Bytes arrived on connection `id`.
    public func received(_ bytes: [UInt8], on id: ConnectionID, at now: Instant) -> [Action] {
        bytes.withUnsafeBytes { received($0, on: id, at: now) }
    }

    /// Connection `id` ended by itself: the peer closed, or a read or write failed. Its player goes away
    /// into the grace period. The shell closes the descriptor and says ``closed(_:at:)`` when it has.
    public func ended(_ id: ConnectionID, reason: String, at now: Instant) -> [Action] {
        begin(at: now)
        if let connection = connections[id] {
            connection.mode = .closing
            // The socket writes what is queued before it closes (a peer that sent its last lines still
            // reads their answers); one that does not drain is cut at the closing deadline.
            connection.closingSince = now.uptime
            watched.insert(id)
            if core.isConnected(id) { lost.append((id, reason)) }
        }
        return end()
    }

    /// Connection `id`'s descriptor is closed: the engine forgets it.
    public func closed(_ id: ConnectionID, at now: Instant) -> [Action] {
        begin(at: now)
        if let connection = connections.remove(id) {
            audiences.forget()
            watched.remove(id)
            deferredFrames[id] = nil
            if connection.isCounted { countedConnections -= 1 }
            uncountAddress(of: connection)
            if core.isConnected(id) { lost.append((id, "closed")) }
        }
        return end()
    }

    /// The shell wrote what it could of every connection's queue: these connections still hold this
    /// many bytes the socket did not take; every other connection written to holds none.
    public func flushed(backlogged: [(ConnectionID, Int)]) {
        // (Most passes of a quiet server wrote nothing: the list is left as it is.)
        if !written.isEmpty {
            for connection in written {
                connection.queued = 0
                connection.backlog = 0
            }
            written.removeAll(keepingCapacity: true)
        }
        for (id, bytes) in backlogged { connections[id]?.backlog = bytes }
    }

    /// A connection the socket was slow to take wrote some more: `pending` bytes are still queued.
    public func writable(_ id: ConnectionID, pending: Int) {
        connections[id]?.backlog = pending
    }

    /// The once-a-second work: the core's timers (registration, idle, pings, grace, countdowns), HTTP
    /// heads that take too long, HTTP connections that lived long enough, closing deadlines, and any
    /// sniff window that ended.
    public func tick(at now: Instant) -> [Action] {
        begin(at: now)
        // A room that stopped talking holds no list here for longer than a second.
        audiences.forget()
        endSniffWindows()
        carryOut(core.tick(at: now))
        checkDeadlines()
        if !pageBuckets.isEmpty {
            pageBuckets = pageBuckets.filter { !$0.value.isFull(at: now.uptime, under: Self.pageLimit) }
        }
        return end()
    }

    /// A time asked for with ``Action/wake(at:)`` came: ends the sniff windows due.
    public func wake(at now: Instant) -> [Action] {
        begin(at: now)
        endSniffWindows()
        return end()
    }

    /// Says `BYE <reason>` to every player and closes every connection.
    public func shutDown(reason: String, at now: Instant) -> [Action] {
        begin(at: now)
        carryOut(core.shutDown(reason: reason, at: now))
        for connection in connections.sorted(by: { $0.id < $1.id }) where connection.isReading {
            finish(connection)
        }
        return end()
    }

    /// Rebuilds every room from journal records read at start-up (see ``ServerCore/restore(_:at:)``).
    public func restore(_ records: [JournalRecord], at now: Instant) throws(RestoreError) -> [Action] {
        let effects = try core.restore(records, at: now)
        begin(at: now)
        carryOut(effects)
        return end()
    }

    // MARK: The journal

    /// How the shell's write of the journal went.
    public enum CommitResult: Equatable, Sendable {
        /// The records are in the file (and on disk under `--fsync always`).
        case written
        /// They could not be written; `reason` says why.
        case failed(String)
    }

    /// The shell carried out a ``Action/commitJournal``: on success the lines held behind it go out. On
    /// failure nothing held behind it leaves — no line says a change happened that the journal does not
    /// hold — and the process must stop (``Action/exit(status:reason:)``): its state now holds a change
    /// its journal does not, and only a restart from the journal makes the two one again (PostgreSQL
    /// stops on a failed `fsync` for the same reason). A full disk never gets here: the journal keeps
    /// space reserved and says it is running out before a change is made (``journalFailed(_:at:)``).
    public func journalCommitted(_ result: CommitResult, at now: Instant) -> [Action] {
        begin(at: now)
        // The batch this commit held back, with the next commit (if any) that ends it.
        // No slice of `held` outlives its statement: one alive while `held` changes would copy it whole.
        let batchEnd = held[heldStart...].firstIndex(where: \.isCommit).map { $0 + 1 } ?? held.endIndex
        switch result {
        case .written:
            if heldStart == 0, batchEnd == held.endIndex, pending.isEmpty {
                // The usual case, one input's lines behind its one commit: they go out as they are,
                // without copying each action (and its buffer's reference) from one list to another.
                swap(&pending, &held)
                return end()
            }
            pending.append(contentsOf: held[heldStart..<batchEnd])
            heldStart = batchEnd
            if heldStart == held.endIndex { emptyHeld() }
            return end()
        case .failed(let reason):
            emptyHeld()
            gated = []
            pending = []
            hasUncommittedRecords = false
            let event = LogEvent(
                level: .error, name: "journal-write-failed",
                fields: [
                    ("reason", reason),
                    ("what-to-do", "check the disk; setd restores the journal when it starts"),
                ])
            return [.log(event), .exit(status: 1, reason: "the journal could not be written: \(reason)")]
        }
    }

    /// The journal cannot be written (a failed flush, a full disk found before a write): changes are
    /// refused until ``journalRecovered(at:)``.
    public func journalFailed(_ reason: String, at now: Instant) -> [Action] {
        begin(at: now)
        journalFailed(reason)
        return end()
    }

    private func journalFailed(_ reason: String) {
        guard isJournalAvailable else { return }
        isJournalAvailable = false
        // Nothing more waits for the journal: what is held goes out without its commits.
        pending += held[heldStart...].filter { !$0.isCommit }
        emptyHeld()
        pending += gated
        gated = []
        hasUncommittedRecords = false
        carryOut(core.journalFailed(reason, at: now))
    }

    /// The journal can be written again: the shell rewrote it from ``ServerCore/snapshotRecords()``.
    public func journalRecovered(at now: Instant) -> [Action] {
        begin(at: now)
        isJournalAvailable = true
        carryOut(core.journalRecovered(at: now))
        return end()
    }

    // MARK: Carrying out

    func begin(at now: Instant) {
        self.now = now
    }

    /// Forgets every held action; keeps the array's storage while it is small, for the next batches.
    private func emptyHeld() {
        held.removeAll(keepingCapacity: held.count <= 1024)
        heldStart = 0
    }

    /// Ends an input: the core hears of connections lost meanwhile (after the effects that lost them),
    /// records without a line to carry them are committed, and the next wake-up is asked for. Hands out
    /// the actions up to the first commit; the rest wait for its result.
    func end() -> [Action] {
        while !lost.isEmpty {
            let (id, reason) = lost.removeFirst()
            carryOut(core.disconnected(id, reason: reason, at: now))
        }
        // Lines are gated only behind records, so gated lines mean records to commit.
        if hasUncommittedRecords { commit() }
        if !gated.isEmpty {
            gatedHint = min(gated.count, 1024)
            if held.isEmpty { swap(&held, &gated) } else { held += gated }
            gated.removeAll(keepingCapacity: gated.capacity <= 1024)
        }
        var out: [Action]
        if let commit = pending.firstIndex(where: \.isCommit), commit != pending.endIndex - 1 {
            out = Array(pending[...commit])
            held += pending[(commit + 1)...]
            pending.removeAll(keepingCapacity: true)
        } else {
            // One commit at most, and last (or none): the list itself goes out, without a copy.
            out = pending
            pending = []
        }
        actionsHint = min(max(out.count, 4), 1024)
        if let next = sniffing.nextDeadline, next != announcedWake {
            announcedWake = next
            // A wake-up is no acknowledgement: it goes out now, before the commit (which stays last).
            out.insert(.wake(at: next), at: out.last?.isCommit == true ? out.count - 1 : out.count)
        }
        return out
    }

    /// Adds an action; a line or a close after records not yet committed waits for the input's commit.
    func emit(_ action: Action) {
        switch action {
        case .journal:
            if isJournalAvailable { hasUncommittedRecords = true }
        case .write, .broadcast, .finish, .close:
            if hasUncommittedRecords || !gated.isEmpty {
                // Handed on whole at the input's end, the list starts again at the size it reached.
                if gated.capacity == 0 { gated.reserveCapacity(gatedHint) }
                return gated.append(action)
            }
        case .log, .wake, .commitJournal, .exit:
            break
        }
        // Handed out whole at the end of an input, the list starts again at the size the last one
        // reached, not grown from nothing by doubling (a malloc a doubling).
        if pending.capacity == 0 { pending.reserveCapacity(actionsHint) }
        pending.append(action)
    }

    private func commit() {
        hasUncommittedRecords = false
        pending.append(.commitJournal)
    }

    /// Carries out the core's effects, in their order.
    func carryOut(_ effects: consuming [Effect]) {
        var effects = effects
        carryOut(moving: &effects)
    }

    /// Carries out `effects`, in their order, moving each out of the array (a spent effect, holding
    /// nothing, takes its place; see ``Swift/UnsafeMutableBufferPointer/take(at:leaving:)``): the caller
    /// empties it, keeping its capacity for the next command. Copied, a line's three effects made a
    /// tenth of setd's reference counting with every member chatting.
    func carryOut(moving effects: inout [Effect]) {
        // A room's event is one buffer for all its members; framed once for all its WebSocket members
        // too (the last lines framed, and their frames, kept for the next receiver of the same lines).
        var framing: (lines: [UInt8], frames: [UInt8])?
        effects.withUnsafeMutableBufferPointer { effects in
            for index in effects.indices {
                let effect = effects.take(at: index, leaving: .close(0, reason: ""))
                switch consume effect {
                case .log(var event):
                    if event.name == "refuse-room" {
                        guard let count = roomRefusals.note(at: now.uptime) else { continue }
                        event.fields.append(("refused", "\(count)"))
                    }
                    emit(.log(event))
                case .journal(let record):
                    emit(.journal(record))
                case .send(let id, let bytes):
                    // Borrowed, not held: `connections` keeps it (only ``closed(_:at:)`` takes one out).
                    let isWebSocket =
                        connections.withElement(id) { connection -> Bool in
                            guard connection.isReading, !connection.isWebSocket else {
                                return connection.isReading
                            }
                            queue(bytes, on: connection)
                            return false
                        } ?? false
                    if isWebSocket, let connection = connections[id] {
                        queue(framed(bytes, framing: &framing), on: connection)
                    }
                case .broadcast(let ids, let bytes):
                    broadcast(bytes, to: ids, framing: &framing)
                case .close(let id, _):
                    guard let connection = connections[id], connection.isReading else { continue }
                    if connection.isWebSocket { queue(WebSocketFrame.close(.normal), on: connection) }
                    finish(connection)
                }
            }
        }
    }

    // MARK: Output

    /// Queues bytes on a connection, counted against its cap; a connection past the cap is dropped.
    func queue(_ bytes: [UInt8], on connection: Connection) {
        guard connection.isReading, !bytes.isEmpty else { return }
        guard admitOutput(bytes.count, on: connection) else { return }
        emit(.write(connection.id, bytes))
    }

    /// Counts `count` bytes about to be queued on a reading connection against its cap: true when they
    /// fit; otherwise the connection is dropped and false.
    func admitOutput(_ count: Int, on connection: Connection) -> Bool {
        if connection.queued == 0 { written.append(connection) }
        connection.queued += count
        queuedWriteCount &+= 1
        guard connection.backlog + connection.queued <= outputLimit else {
            drop(connection)
            return false
        }
        return true
    }

    /// Queues one protocol line (a reply the engine makes itself: `SLOWDOWN`, `TOOLONG`), framed for
    /// a WebSocket.
    func queue(lineBytes line: ServerLine, on connection: Connection) {
        let bytes = line.bytes
        queue(connection.isWebSocket ? WebSocketLines.frames(forLines: bytes) : bytes, on: connection)
    }

    /// Drops a connection that does not read: closed at once, its output dropped, and its player told
    /// to the core after the effects being carried out.
    func drop(_ connection: Connection) {
        emit(
            .log(
                LogEvent(
                    level: .warn, name: "drop",
                    fields: [
                        ("id", "\(connection.id)"), ("peer", connection.peer.text),
                        ("reason", "output queue full, client not reading"),
                    ])))
        let wasClient = core.isConnected(connection.id)
        connection.mode = .closing
        connection.closingSince = nil
        emit(.close(connection.id))
        if wasClient { lost.append((connection.id, "output queue full")) }
    }

    /// Stops reading a connection; it closes once what is queued is written, or at the closing deadline.
    func finish(_ connection: Connection) {
        guard connection.isReading else { return }
        connection.mode = .closing
        connection.closingSince = now.uptime
        watched.insert(connection.id)
        emit(.finish(connection.id))
    }

    /// A refused connection is told in the line protocol and closed.
    private func refuseNow(_ connection: Connection, _ text: String) {
        connection.mode = .lineProtocol
        queue(lineBytes: ProtocolError(nil, .full, text).line, on: connection)
        finish(connection)
    }

    /// Hands a connection to the core as a player's: the greeting, and from then on its lines.
    func greet(_ connection: Connection) {
        if case .webSocket = connection.mode {} else { connection.mode = .lineProtocol }
        if let (address, port) = connection.peer.ipv4 {
            carryOut(core.connect(connection.id, ipv4: address, port: port, at: now))
        } else {
            carryOut(
                core.connect(
                    connection.id, peer: connection.peer.text, addressKey: connection.peer.key, at: now))
        }
    }

    // MARK: Deadlines

    private func endSniffWindows() {
        for id in sniffing.removeExpired(at: now.uptime) {
            // A connection whose PROXY header started a later window waits for that one.
            guard let connection = connections[id], connection.sniffDeadline <= now.uptime else { continue }
            switch connection.mode {
            case .sniffing(let held):
                // A trusted proxy sends its header at once, in one segment: one still unfinished when the
                // window ends is broken, and is refused like a malformed one.
                if connection.awaitsProxyHeader, ProxyHeader.signature(of: held) != .none,
                    ProxyHeader.signature(of: held) != .partial
                {
                    rejectProxyHeader(
                        on: connection,
                        reason:
                            "an incomplete PROXY header when the \(configuration.sniffWindow) s window ended")
                    continue
                }
                // Silent (or only the start of a header or a signature): a line protocol client. From a
                // trusted proxy without a header, it is the proxy's own (an operator's nc on that host).
                connection.awaitsProxyHeader = false
                guard place(connection, as: connection.sender) else {
                    refuseClient(connection, bytes: [], atWindowEnd: true)
                    continue
                }
                greet(connection)
                if held.isEmpty {
                    connection.checksFirstBytes = true
                } else {
                    held.withUnsafeBytes { receive($0, on: connection) }
                }
            case .refused(let text):
                refuseNow(connection, text)
            default:
                break
            }
        }
    }

    /// Starts a connection's sniff window: it is greeted when the window ends unless its first bytes
    /// decide sooner.
    func armSniffWindow(_ connection: Connection) {
        connection.sniffDeadline = now.uptime + configuration.sniffWindow
        sniffing.append(connection.id, deadline: connection.sniffDeadline)
    }

    // MARK: Addresses

    /// Whether `peer` is a trusted proxy (`--trust-proxy`).
    func isTrusted(_ peer: PeerAddress) -> Bool {
        peer.address.map(isTrustedAddress) ?? false
    }

    /// Whether `address` is in a `--trust-proxy` range.
    func isTrustedAddress(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    /// The refusal's text when `peer`'s address has `--max-per-ip` connections already, else `nil`.
    func addressFullText(_ peer: PeerAddress) -> String? {
        guard configuration.maxPerIP != nil else { return nil }
        return addressFullText(key: peer.key)
    }

    /// ``addressFullText(_:)`` of a peer whose key is `key`.
    private func addressFullText(key: String) -> String? {
        guard let perIP = configuration.maxPerIP, perAddress[key, default: 0] >= perIP else {
            return nil
        }
        return "\(perIP) connections from your address already; close one first"
    }

    /// Shows `connection` as `client` from now on, and counts it under `client`'s address (moving it from
    /// where it was counted). Returns false when that address already has `--max-per-ip` connections:
    /// the connection is then still counted where it was, and the caller refuses it.
    func place(_ connection: Connection, as client: PeerAddress) -> Bool {
        if connection.peer != client {
            emit(
                .log(
                    LogEvent(
                        level: .debug, name: "proxied",
                        fields: [
                            ("id", "\(connection.id)"), ("peer", client.text),
                            ("via", connection.socketPeer.text),
                        ])))
            connection.peer = client
        }
        // The connection's peer is `client` now: counted under its own key, it stays where it is. (Told
        // without spelling the key, which for an IPv6 peer is most of an accept's work; it is spelled
        // once below when the count moves.)
        guard connection.isCounted, !connection.isCountedUnderPeerKey else { return true }
        let key = client.key
        guard connection.countedKey != key else { return true }
        if addressFullText(key: key) != nil { return false }
        // A proxy's connection carrying another client's request: that client's rate is its own.
        if connection.countedKey != nil {
            connection.limiter = RateLimiter(commandLimit)
        }
        uncountAddress(of: connection)
        perAddress[key, default: 0] += 1
        connection.countUnderPeerKey()
        return true
    }

    private func uncountAddress(of connection: Connection) {
        guard let key = connection.countedKey else { return }
        let left = perAddress[key, default: 1] - 1
        perAddress[key] = left > 0 ? left : nil
        connection.countedKey = nil
    }

    /// Turns away a connection whose client, once known, has `--max-per-ip` connections already: told in
    /// the protocol its bytes speak (`bytes`, its first, or the end of a new sniff window), as one
    /// refused at accept.
    func refuseClient(_ connection: Connection, bytes: [UInt8], atWindowEnd: Bool = false) {
        let text = addressFullText(connection.peer) ?? "too many connections from your address"
        if connection.isCounted {
            connection.isCounted = false
            countedConnections -= 1
        }
        uncountAddress(of: connection)
        logRefusal(of: connection.peer, reason: "max-per-ip")
        connection.mode = .refused(text: text)
        if !bytes.isEmpty {
            bytes.withUnsafeBytes { receive($0, on: connection) }
        } else if configuration.isHTTPEnabled, !atWindowEnd {
            armSniffWindow(connection)
        } else {
            refuseNow(connection, text)
        }
    }

    func logRefusal(of peer: PeerAddress, reason: String) {
        guard let count = refusals.note(at: now.uptime) else { return }
        emit(
            .log(
                LogEvent(
                    level: .warn, name: "refuse",
                    fields: [("peer", peer.text), ("reason", reason), ("refused", "\(count)")])))
    }

    /// Heads older than the registration timeout get 408 (a slow head is held no longer than a silent
    /// line protocol client); an HTTP connection lives at most twice the registration timeout, whatever
    /// it sends (it must outlive the spare connection a browser opens beside the page's, which is greeted
    /// and closed at the registration timeout, but no request keeps it open past what a line client that
    /// never says HELLO gets); closing connections that do not drain are cut.
    private func checkDeadlines() {
        let timeout = configuration.registrationTimeout
        for id in watched.sorted() {
            guard let connection = connections[id] else {
                watched.remove(id)
                continue
            }
            switch connection.mode {
            case .httpHead(let parser, let since):
                if parser.bufferedCount > 0, now.uptime - since > timeout {
                    respond(
                        WebRouter.reply(
                            toFailure: .requestTimeout, "no complete request within \(Int(timeout)) s"),
                        to: nil, on: connection)
                } else if now.uptime - connection.openedAt > 2 * timeout {
                    finish(connection)
                }
            case .closing:
                if let since = connection.closingSince, now.uptime - since > EngineLimits.closingDeadline {
                    emit(
                        .log(
                            LogEvent(
                                level: .info, name: "closing-deadline",
                                fields: [("id", "\(id)"), ("peer", connection.peer.text)])))
                    connection.closingSince = nil
                    emit(.close(id))
                    watched.remove(id)
                }
            default:
                watched.remove(id)
            }
        }
    }
}

/// Says how often something happened, at most once per interval: the first time at once, then with
/// the count since the last line.
public struct LogThrottle: Sendable {
    /// Seconds between lines.
    public let interval: Double
    private var lastAt = -Double.infinity
    private var count = 0

    /// A throttle that lets one line through per `interval` seconds.
    public init(interval: Double) { self.interval = interval }

    /// Counts one more; returns the count to log, or `nil` while within the interval.
    public mutating func note(at now: Double) -> Int? {
        count += 1
        guard now - lastAt >= interval else { return nil }
        lastAt = now
        defer { count = 0 }
        return count
    }
}
