import Dispatch
import SetProtocol
import SetServerCore
import SetSocket
import SetWeb

/// The server's I/O around its ``ServerCore``: the listening socket, one ``SocketChannel`` per client,
/// the tick timer, the journal file and the log.
///
/// Ownership rule: the shell, its core and every channel live on `queue`, one serial queue for all. The
/// shell feeds the core one input at a time (bytes framed into lines, a connection opened or lost, a
/// tick) and carries out the effects of each in order before the next: log lines, journal records
/// (written before any line that acknowledges them), lines queued on connections, closes. Output is
/// gathered and written once per pass of the queue, so a claim that reaches a hundred players costs a
/// hundred `write`s, not a hundred per line.
final class Shell {
    let configuration: ServerConfiguration
    let queue: DispatchQueue
    let logger: Logger
    let core: ServerCore
    /// One buffer for every read: reads happen one at a time on `queue`.
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: ShellLimits.readChunk, alignment: 16)
    private var listener: Socket?
    private var listenSource: DispatchSourceRead?
    private var tickTimer: DispatchSourceTimer?
    /// Fires once per pass of the queue in which output was queued; Dispatch merges the triggers.
    private var flushSource: DispatchSourceUserDataAdd?
    private var journal: Journal?
    private var nextConnectionID = 1
    /// Every connection until its descriptor is closed.
    var links: [ConnectionID: Link] = [:]
    private var flushList: [Link] = []
    /// Connections lost while effects were being carried out; told to the core right after them.
    var lost: [(ConnectionID, String)] = []
    /// New connections waiting for their first bytes while HTTP is on, and the timer that greets them
    /// when their window ends (see Shell+Web).
    var sniffing = SniffQueue()
    var sniffTimer: DispatchSourceTimer?
    private var isApplying = false
    /// Whether the core knows the journal cannot be written.
    private var isJournalProblemReported = false

    init(configuration: ServerConfiguration, queue: DispatchQueue) {
        self.configuration = configuration
        self.queue = queue
        logger = Logger(minimum: configuration.logLevel)
        core = ServerCore(configuration: configuration)
    }

    deinit { readBuffer.deallocate() }

    /// Connections open or draining their last lines.
    var openConnectionCount: Int { links.values.count { $0.channel.state != .closed } }

    /// Connections whose descriptors are not closed yet.
    var descriptorCount: Int { links.count }

    // MARK: Start and stop

    /// Restores the journal (when there is a state directory), listens, and starts the timers.
    func start() throws -> UInt16 {
        Socket.ignoreBrokenPipes()
        if let directory = configuration.stateDirectory { try restore(from: directory) }
        let socket = try Socket.listen(host: configuration.host, port: configuration.port)
        listener = socket
        let source = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: queue)
        source.setEventHandler { [unowned self] in self.acceptPending() }
        source.setCancelHandler { socket.close() }
        listenSource = source
        source.resume()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + ShellLimits.tickInterval, repeating: ShellLimits.tickInterval)
        timer.setEventHandler { [unowned self] in self.tick() }
        timer.resume()
        tickTimer = timer
        let flush = DispatchSource.makeUserDataAddSource(queue: queue)
        flush.setEventHandler { [unowned self] in self.flushMarked() }
        flush.resume()
        flushSource = flush
        if configuration.isHTTPEnabled { startSniffTimer() }
        let port = socket.localPort
        logger.log(.info, "listen", [("host", configuration.host ?? "*"), ("port", "\(port)")])
        return port
    }

    /// Says `BYE <reason>` to every client, writes what the sockets take, closes them and stops listening.
    func stop(reason: String) {
        apply(core.shutDown(reason: reason, at: SystemClock.now()))
        listenSource?.cancel()
        listenSource = nil
        tickTimer?.cancel()
        tickTimer = nil
        flushSource?.cancel()
        flushSource = nil
        sniffTimer?.cancel()
        sniffTimer = nil
        for link in links.values {
            link.channel.flush()
            link.channel.close()
        }
        flushList = []
        writeJournal()
        journal?.sync()
    }

    // MARK: Connections

    private func acceptPending() {
        guard let listener else { return }
        for _ in 0..<256 {
            let accepted: (Socket, String)?
            do {
                accepted = try listener.accept()
            } catch {
                // EMFILE and friends: leave the rest in the backlog and try again on the next event.
                logger.log(.warn, "accept-failed", [("error", "\(error)")])
                return
            }
            guard let (socket, peer) = accepted else { return }
            socket.setUserTimeout(seconds: configuration.pingInterval)
            let id = nextConnectionID
            nextConnectionID += 1
            let channel = SocketChannel(
                socket: socket, queue: queue, readBuffer: readBuffer, readsPerEvent: ShellLimits.readsPerEvent
            )
            let link = Link(id: id, peer: peer, channel: channel)
            channel.onRead = { [unowned self, unowned link] bytes in self.received(bytes, on: link) }
            channel.onEnd = { [unowned self] end in self.connectionLost(id, reason: end.description) }
            channel.onRelease = { [unowned self] in self.links[id] = nil }
            links[id] = link
            channel.start()
            admit(link)
        }
    }

    /// Telnet's commands come out first (``TelnetFilter``); its answers are queued before anything the
    /// core answers to the same bytes. They need no output cap of their own: each option is answered
    /// at most once per verb, 1.5 KiB in a connection's life.
    func received(_ bytes: UnsafeRawBufferPointer, on link: Link) {
        guard case .lineProtocol = link.mode else { return receivedWeb(bytes, on: link) }
        let now = SystemClock.now()
        var effects: [Effect] = []
        var replies: [UInt8] = []
        link.telnet.filter(bytes, replies: &replies) { data in
            link.framer.append(data) { frame in effects += core.handle(frame, from: link.id, at: now) }
        }
        if !replies.isEmpty, link.channel.state == .open {
            logger.log(.debug, "telnet", [("id", "\(link.id)"), ("refused", "\(replies.count / 3)")])
            link.channel.enqueue(replies)
            markForFlush(link)
        }
        apply(effects)
    }

    /// A connection ended by itself or was dropped: the core hears of it after the effects being
    /// carried out now, never in the middle of them.
    func connectionLost(_ id: ConnectionID, reason: String) {
        lost.append((id, reason))
        if !isApplying { apply([]) }
    }

    // MARK: Effects

    /// Carries out the core's effects in order; then tells the core of connections lost meanwhile.
    func apply(_ effects: [Effect]) {
        dispatchPrecondition(condition: .onQueue(queue))
        isApplying = true
        defer { isApplying = false }
        var batch = effects
        while true {
            carryOut(batch)
            if let problem = journal?.problem, !isJournalProblemReported {
                // A failed write: from the next input on, the core refuses changes.
                isJournalProblemReported = true
                batch = core.journalFailed(problem.description, at: SystemClock.now())
                continue
            }
            guard !lost.isEmpty else { return }
            let (id, reason) = lost.removeFirst()
            batch = core.disconnected(id, reason: reason, at: SystemClock.now())
        }
    }

    private func carryOut(_ effects: [Effect]) {
        var hasUnwrittenRecords = false
        for effect in effects {
            switch effect {
            case .log(let event):
                logger.log(event)
            case .journal(let record):
                journal?.append(record)
                hasUnwrittenRecords = true
            case .send(let id, let bytes):
                if hasUnwrittenRecords {
                    // Nothing is acknowledged before it is journaled.
                    writeJournal()
                    hasUnwrittenRecords = false
                }
                guard let link = links[id], link.channel.state == .open else { continue }
                link.channel.enqueue(link.mode.isWebSocket ? WebSocketLines.frames(forLines: bytes) : bytes)
                if link.channel.pendingOutput > ShellLimits.maximumOutputBytes {
                    logger.log(
                        .warn, "drop",
                        [
                            ("id", "\(id)"), ("peer", link.peer),
                            ("reason", "output queue full, client not reading"),
                        ])
                    link.channel.close()
                    lost.append((id, "output queue full"))
                } else {
                    markForFlush(link)
                }
            case .close(let id, _):
                guard let link = links[id], link.channel.state == .open else { continue }
                if link.mode.isWebSocket { link.channel.enqueue(WebSocketFrame.close(.normal)) }
                link.closingSince = SystemClock.now().uptime
                link.channel.finish()
            }
        }
        // Records made with no reply to carry them (a drop, a grace expiry) are written at once too.
        if hasUnwrittenRecords { writeJournal() }
    }

    /// Queues `link` to be written at the end of this pass. Lines queued by many events before the flush
    /// runs leave in one `write`.
    func markForFlush(_ link: Link) {
        guard !link.isMarkedForFlush else { return }
        link.isMarkedForFlush = true
        flushList.append(link)
        if flushList.count == 1 { flushSource?.add(data: 1) }
    }

    private func flushMarked() {
        let list = flushList
        flushList = []
        for link in list {
            link.isMarkedForFlush = false
            link.channel.flush()
        }
    }

    // MARK: Timers

    private func tick() {
        let now = SystemClock.now()
        apply(core.tick(at: now))
        expireHTTPHeads(at: now)
        for link in links.values {
            guard let since = link.closingSince, link.channel.state == .closing,
                now.uptime - since > ShellLimits.closingDeadline
            else { continue }
            logger.log(.info, "closing-deadline", [("id", "\(link.id)"), ("peer", link.peer)])
            link.channel.close()
        }
        tickJournal()
    }

    // MARK: Journal

    /// Opens and locks the state directory and rebuilds every room from its journal. Damage (anything
    /// but a torn last record) stops the start with the file, line and offset, and leaves the file as
    /// it is.
    private func restore(from directory: String) throws {
        let state = try StateDirectory(path: directory)
        let contents = try JournalLoader.load(state.journalPath)
        if let torn = contents.tornTail {
            logger.log(
                .warn, "journal-torn-tail",
                [
                    ("path", state.journalPath), ("line", "\(torn.line)"), ("offset", "\(torn.offset)"),
                    ("bytes", "\(torn.length)"),
                ])
        }
        let restored: [Effect]
        do {
            restored = try core.restore(contents.records, at: SystemClock.now())
        } catch {
            let (line, offset) = contents.positions[error.index]
            throw JournalReader.Damage(
                path: state.journalPath, line: line, offset: offset, reason: error.reason)
        }
        journal = try Journal(directory: state, policy: configuration.fsync)
        apply(restored)
        // The journal is rewritten at once: in the current format, without the torn tail, as snapshots.
        compactJournal()
        reportJournalProblem()
    }

    private func writeJournal() {
        guard let journal, journal.hasPending else { return }
        journal.write()
    }

    /// Tells the core when the journal became unavailable; it then refuses changes.
    private func reportJournalProblem() {
        guard let problem = journal?.problem, !isJournalProblemReported else { return }
        isJournalProblemReported = true
        apply(core.journalFailed(problem.description, at: SystemClock.now()))
    }

    /// Once a second: flush to disk (`--fsync everysec`), end an outage when the disk has room again,
    /// compact when the journal has grown.
    private func tickJournal() {
        guard let journal else { return }
        if journal.problem == nil, configuration.fsync == .everySecond { journal.sync() }
        if journal.problem != nil {
            compactJournal()
            if journal.problem == nil {
                isJournalProblemReported = false
                apply(core.journalRecovered(at: SystemClock.now()))
            }
        } else if journal.recordsSinceSnapshot > Journal.compactionThreshold {
            compactJournal()
        }
        reportJournalProblem()
    }

    /// Rewrites the journal as the core's current state.
    private func compactJournal() {
        guard let journal else { return }
        let records = core.snapshotRecords()
        do {
            try journal.compact(to: records)
            logger.log(.info, "journal-compacted", [("records", "\(records.count)")])
        } catch {
            // The old journal stays; an outage is reported once, not every second.
            if !isJournalProblemReported { logger.log(.error, "journal-compaction", [("error", "\(error)")]) }
        }
    }
}
