import Dispatch
import SetEngine
import SetProtocol
import SetServerCore
import SetSocket

/// The daemon's I/O around its ``Engine``: the listening socket, one ``SocketChannel`` per client, the
/// timers, the journal file and the log. Every decision is the engine's; the shell reads the clock once
/// per event, hands the engine what happened, and carries out the actions it returns, in order.
///
/// Ownership rule: the shell, its engine and every channel live on `queue`, one serial queue for all.
/// The client sockets' loop runs on a thread of its own that enters the queue for each pass (see
/// ``EventLoop/Driver/ownThread``); the listener, the timers and the announcer are Dispatch sources on
/// the same queue. Output is gathered and written once per pass of the loop, so a claim that reaches a
/// hundred players costs a hundred `write`s, not a hundred per line.
final class Shell {
    let configuration: ServerConfiguration
    let queue: DispatchQueue
    let logger: Logger
    let engine: Engine
    /// One buffer for every read: reads happen one at a time on `queue`.
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: ShellLimits.readChunk, alignment: 16)
    /// One epoll set for every client socket (see ``EventLoop``).
    private let loop: EventLoop
    private var listener: Socket?
    private var listenSource: DispatchSourceRead?
    private var isAcceptPaused = false
    /// The descriptor given up to answer a client when the process runs out (see ``DescriptorReserve``).
    private let reserve = DescriptorReserve()
    private var descriptorShortage = LogThrottle(interval: ShellLimits.shortageLogInterval)
    private var tickTimer: DispatchSourceTimer?
    private var wakeTimer: DispatchSourceTimer?
    /// Ends a pause in accepting (see ``outOfDescriptors(_:_:)``).
    private var resumeTimer: DispatchSourceTimer?
    /// Whether the flush of the marked links is asked of the loop (see ``scheduleFlush()``).
    private var isFlushScheduled = false
    /// Whether ``stop(reason:)`` ran: nothing more is flushed or handled at the end of a pass.
    private var isStopped = false
    private var journal: Journal?
    private var nextConnectionID = 1
    /// Every connection until its descriptor is closed.
    var links = KeyedTable<Link.ByID>()
    private var flushList: [Link] = []
    /// Recent rooms' listener lists and their links (forgotten whenever a connection is accepted or
    /// released, and once a second).
    private var audiences = Audiences<Link>()
    /// What to do when the engine says the process must stop (a journal write failed): the daemon exits
    /// with the status; a server inside a test process only stops.
    var onFatal: @Sendable (Int32) -> Void = { _ in }
    /// Whether the engine stopped the server; nothing more is read, written or accepted.
    private var isDead = false
    /// Whether to answer mDNS/DNS-SD queries for the server (`--announce`).
    let announces: Bool
    /// The mDNS responder's sockets, while announcing.
    private var announcer: Announcer?

    init(configuration: ServerConfiguration, queue: DispatchQueue, announces: Bool = false) {
        self.configuration = configuration
        self.announces = announces
        self.queue = queue
        logger = Logger(minimum: configuration.logLevel)
        engine = Engine(configuration: configuration)
        loop = EventLoop(queue: queue, driver: .ownThread)
    }

    deinit { readBuffer.deallocate() }

    /// Connections open or draining their last lines.
    var openConnectionCount: Int { links.count(where: { $0.channel.state != .closed }) }

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
        let wake = DispatchSource.makeTimerSource(queue: queue)
        wake.setEventHandler { [unowned self] in self.perform(self.engine.wake(at: SystemClock.now())) }
        wake.resume()
        wakeTimer = wake
        let resume = DispatchSource.makeTimerSource(queue: queue)
        resume.setEventHandler { [unowned self] in self.resumeAccepting() }
        resume.resume()
        resumeTimer = resume
        let port = socket.localPort
        logger.log(.info, "listen", [("host", configuration.host ?? "*"), ("port", "\(port)")])
        if announces {
            announcer = Announcer.start(
                port: port, host: configuration.host, isHTTPEnabled: configuration.isHTTPEnabled,
                counts: engine.core.publicRoomCounts, queue: queue, logger: logger)
        }
        return port
    }

    /// Says `BYE <reason>` to every client, writes what the sockets take, closes them and stops listening.
    func stop(reason: String) {
        // Goodbye to the LAN first: finders stop listing a server that is going away.
        announcer?.stop()
        announcer = nil
        perform(engine.shutDown(reason: reason, at: SystemClock.now()))
        // A suspended source is resumed before it is cancelled: one must never be released suspended.
        if isAcceptPaused { listenSource?.resume() }
        isAcceptPaused = false
        listenSource?.cancel()
        listenSource = nil
        for timer in [tickTimer, wakeTimer, resumeTimer] { timer?.cancel() }
        tickTimer = nil
        wakeTimer = nil
        resumeTimer = nil
        isStopped = true
        for link in links {
            link.channel.flush()
            link.channel.close()
        }
        flushList = []
        journal?.write()
        journal?.sync()
    }

    // MARK: Connections

    private func acceptPending() {
        guard let listener, !isAcceptPaused else { return }
        for _ in 0..<256 {
            let accepted: (Socket, String)?
            do {
                accepted = try listener.accept()
            } catch {
                if error.isOutOfDescriptors { return outOfDescriptors(listener, error) }
                logger.log(.warn, "accept-failed", [("error", "\(error)")])
                return
            }
            guard let (socket, peer) = accepted else { return }
            socket.setUserTimeout(seconds: configuration.pingInterval)
            let id = nextConnectionID
            nextConnectionID += 1
            let channel = SocketChannel(
                socket: socket, loop: loop, readBuffer: readBuffer, readsPerEvent: ShellLimits.readsPerEvent)
            let link = Link(id: id, channel: channel, shell: self)
            channel.delegate = link
            links.insert(link)
            forgetAudiences()
            channel.start()
            perform(engine.opened(id, peer: PeerAddress(peer), at: SystemClock.now()))
        }
    }

    /// Out of descriptors: the reserve one answers the oldest waiting client and is taken back, accepting
    /// pauses for a moment (a backlog that cannot be served must not spin the loop), and the log says so
    /// once per interval with a count.
    private func outOfDescriptors(_ listener: Socket, _ error: SocketError) {
        reserve.release()
        listener.acceptAndRefuse(Array("ERR - FULL the server has no room for another connection now\n".utf8))
        reserve.renew()
        if let count = descriptorShortage.note(at: SystemClock.now().uptime) {
            logger.log(
                .warn, "accept-paused",
                [
                    ("error", "\(error)"), ("refused", "\(count)"),
                    ("what-to-do", "raise the descriptor limit (ulimit -n) or lower --max-clients"),
                ])
        }
        guard !isAcceptPaused, let source = listenSource else { return }
        isAcceptPaused = true
        source.suspend()
        resumeTimer?.schedule(deadline: .now() + ShellLimits.acceptPause)
    }

    private func resumeAccepting() {
        guard isAcceptPaused, let source = listenSource else { return }
        isAcceptPaused = false
        source.resume()
    }

    // MARK: Actions

    /// Carries out the engine's actions in order; a journal commit is reported back at once, and what
    /// the engine held behind it is carried out next.
    func perform(_ actions: consuming [Action]) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !isDead else { return }
        var batch = actions
        while !batch.isEmpty {
            var next: [Action] = []
            // Each action moved out of the list, not copied; a wake-up, holding nothing, takes its place.
            let stopped = batch.withUnsafeMutableBufferPointer { actions in
                for index in actions.indices {
                    // A nested call (a write failed, the engine said exit) may have stopped the shell.
                    if isDead { return true }
                    let action = actions.take(at: index, leaving: .wake(at: 0))
                    switch consume action {
                    case .write(let id, let bytes):
                        // Borrowed, not held: `links` keeps it, and queueing and marking only add.
                        links.withElement(id) { link in
                            if link.channel.enqueue(bytes) { markForFlush(link) }
                        }
                    case .broadcast(let ids, let bytes):
                        enqueue(bytes, on: audience(ids))
                    case .finish(let id):
                        links[id]?.channel.finish()
                    case .close(let id):
                        links[id]?.channel.close()
                    case .journal(let box):
                        journal?.append(box.record)
                    case .commitJournal:
                        next = engine.journalCommitted(commitJournal(), at: SystemClock.now())
                    case .log(let event):
                        logger.log(event)
                    case .exit(let status, let reason):
                        logger.log(.error, "stopping", [("reason", reason)])
                        die()
                        onFatal(status)
                        return true
                    case .wake(let uptime):
                        let delay = max(0, uptime - SystemClock.now().uptime)
                        wakeTimer?.schedule(
                            deadline: .now() + .nanoseconds(Int(delay * 1e9)), leeway: .milliseconds(5))
                    }
                }
                return false
            }
            if stopped { return }
            batch = next
        }
        // Lines that wait for the next pass are handled after this pass's flush, which must then come.
        if engine.hasDeferredInput, flushList.isEmpty { scheduleFlush() }
        // The write fitted its reserved blocks, but no more can be had: changes are refused from now on.
        reportJournalProblem()
    }

    /// Queues a room's event on each of `members` still open, and marks them for the pass's flush.
    ///
    /// This runs once per member and line, and holding each link (and its channel) for the call cost
    /// two pairs of atomic reference-count changes each time (a fifth of setd's time flat out; issue 28).
    /// So the links are borrowed, not held: `members` holds every one of them until the loop is done,
    /// and nothing in it lets go of a link (queueing and marking only add).
    private func enqueue(_ bytes: [UInt8], on members: [Link?]) {
        members.withBorrowedReferences { borrowed in
            for case let member? in borrowed {
                member._withUnsafeGuaranteedRef { link in
                    if link.channel.enqueue(bytes) { markForFlush(link) }
                }
            }
        }
    }

    /// The links of `ids`, found once per listener list (see ``audiences``).
    private func audience(_ ids: [ConnectionID]) -> [Link?] {
        audiences.members(of: ids) { links[$0] }
    }

    /// Forgets every listener list's links: a connection came or went.
    func forgetAudiences() { audiences.forget() }

    /// Stops at once, as a crash would: nothing queued is written, every socket and the listener close.
    private func die() {
        isDead = true
        announcer?.stop()
        announcer = nil
        if isAcceptPaused { listenSource?.resume() }
        isAcceptPaused = false
        listenSource?.cancel()
        listenSource = nil
        for timer in [tickTimer, wakeTimer, resumeTimer] { timer?.cancel() }
        flushList = []
        for link in links { link.channel.close() }
    }

    /// Writes the records appended so far (flushed to disk with `--fsync always`).
    private func commitJournal() -> Engine.CommitResult {
        guard let journal, let failure = journal.write() else { return .written }
        return .failed(failure.description)
    }

    /// Queues `link` to be written at the end of this pass. Lines queued by many events before the flush
    /// runs leave in one `write`.
    func markForFlush(_ link: Link) {
        guard !link.isMarkedForFlush else { return }
        link.isMarkedForFlush = true
        flushList.append(link)
        scheduleFlush()
    }

    /// Asks the loop to flush the marked links once its pass's ready sockets are handled: at the end of
    /// the pass on the loop's thread, or soon after whatever timer or source runs now.
    private func scheduleFlush() {
        guard !isFlushScheduled, !isStopped else { return }
        isFlushScheduled = true
        loop.runSoon { [weak self] in self?.flushMarked() }
    }

    private func flushMarked() {
        isFlushScheduled = false
        guard !isStopped, !isDead else { return }
        // The list is swapped with an empty one that kept the last pass's room, and handed back emptied:
        // a new list each pass grew by doubling, a malloc a doubling.
        var list: [Link] = []
        swap(&list, &flushList)
        var backlogged: [(ConnectionID, Int)] = []
        for link in list {
            link.isMarkedForFlush = false
            link.channel.flush()
            let pending = link.channel.pendingOutput
            if pending > 0 { backlogged.append((link.id, pending)) }
        }
        list.removeAll(keepingCapacity: list.count <= 4_096)
        // Flushing marks nothing, so the shell's list is still the empty one.
        if flushList.isEmpty { swap(&list, &flushList) }
        engine.flushed(backlogged: backlogged)
        // The pass is over: its lines are written (the quiet rooms' among them, before any flood's next
        // share); the rooms' budgets start again and the lines that waited are handled.
        perform(engine.passEnded(at: SystemClock.now()))
    }

    // MARK: Timers

    private func tick() {
        forgetAudiences()
        perform(engine.tick(at: SystemClock.now()))
        announcer?.update(counts: engine.core.publicRoomCounts)
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
        let restored: [Action]
        do {
            restored = try engine.restore(contents.records, at: SystemClock.now())
        } catch {
            let (line, offset) = contents.positions[error.index]
            throw JournalReader.Damage(
                path: state.journalPath, line: line,
                offset: offset,
                reason: error.reason
                    + "; setd --check-journal \(directory) says what a repair would drop")
        }
        journal = try Journal(directory: state, policy: configuration.fsync)
        perform(restored)
        // The journal is rewritten at once: in the current format, without the torn tail, as snapshots.
        compactJournal()
        reportJournalProblem()
    }

    /// Tells the engine when the journal became unavailable; it then refuses changes.
    private func reportJournalProblem() {
        guard let problem = journal?.problem, engine.isJournalAvailable else { return }
        perform(engine.journalFailed(problem.description, at: SystemClock.now()))
    }

    /// Once a second: flush to disk (`--fsync everysec`), end an outage when the disk has room again,
    /// compact when the journal has grown.
    private func tickJournal() {
        guard let journal else { return }
        if journal.problem == nil, configuration.fsync == .everySecond { journal.sync() }
        if journal.problem != nil, !engine.isJournalAvailable {
            compactJournal()
            if journal.problem == nil { perform(engine.journalRecovered(at: SystemClock.now())) }
        } else if journal.recordsSinceSnapshot > Journal.compactionThreshold {
            compactJournal()
        }
        reportJournalProblem()
    }

    /// Rewrites the journal as the core's current state.
    private func compactJournal() {
        guard let journal else { return }
        let records = engine.core.snapshotRecords()
        do {
            try journal.compact(to: records)
            logger.log(.info, "journal-compacted", [("records", "\(records.count)")])
        } catch {
            // The old journal stays; an outage is reported once, not every second.
            if engine.isJournalAvailable { logger.log(.error, "journal-compaction", [("error", "\(error)")]) }
        }
    }
}

/// A link hears its channel's events for the shell: one object per connection, not a closure per event.
extension Link: SocketChannelDelegate {
    func channel(_ channel: SocketChannel, read bytes: UnsafeRawBufferPointer) {
        shell.perform(shell.engine.received(bytes, on: id, at: SystemClock.now()))
    }

    func channel(_ channel: SocketChannel, endedWith end: SocketChannel.End) {
        shell.perform(shell.engine.ended(id, reason: end.description, at: SystemClock.now()))
    }

    func channel(_ channel: SocketChannel, drainedTo pending: Int) {
        shell.engine.writable(id, pending: pending)
    }

    func channelReleased(_ channel: SocketChannel) {
        shell.links.remove(id)
        shell.forgetAudiences()
        shell.perform(shell.engine.closed(id, at: SystemClock.now()))
    }
}
