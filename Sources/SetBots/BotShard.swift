import Dispatch
import SetProtocol
import SetSocket

/// A group of bots, all driven by one serial Dispatch queue: thousands of bots share a queue, a read
/// buffer and a timer instead of a thread each.
///
/// Ownership: everything here is touched only on ``queue``. The fleet reaches in with `queue.sync` for
/// statistics and `queue.async` for commands. Dispatch handlers hold the shard strongly: every source
/// and the timer are cancelled by ``tearDown()``, which releases the handlers, so a fleet that is gone
/// never has a handler left running on a freed shard.
final class BotShard: @unchecked Sendable {
    /// One bot's socket and its Dispatch sources.
    ///
    /// Ownership: used only on the shard's queue. The descriptor is closed once, after every source on
    /// it has been cancelled, so Dispatch never watches a number the kernel has handed to someone else.
    final class Link: @unchecked Sendable {
        let socket: Socket
        /// Server lines can be longer than client lines (an `OVER` of a full room), so the cap is wide.
        var framer = LineFramer(maximumLineLength: 1 << 16)
        var readSource: DispatchSourceRead?
        var writeSource: DispatchSourceWrite?
        /// Bytes the socket did not take yet, written when it becomes writable.
        var unsent: [UInt8] = []
        var liveSources = 0
        var isOpen = false
        var isClosed = false

        init(socket: Socket) { self.socket = socket }
    }

    /// How often the shard wakes to run due timers; the resolution of think times.
    static let tick = DispatchTimeInterval.milliseconds(1)

    let queue: DispatchQueue
    let config: BotConfig
    let stats = StatsBox()
    private var sessions: [BotSession] = []
    private var links: [Link?] = []
    private var scheduled: [UInt64] = []
    private var heap = DeadlineHeap()
    private var timer: DispatchSourceTimer?
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)

    init(label: String, config: BotConfig) {
        queue = DispatchQueue(label: label)
        self.config = config
    }

    deinit { readBuffer.deallocate() }

    /// Adds a bot before ``start()``.
    func add(_ session: BotSession) {
        sessions.append(session)
        links.append(nil)
        scheduled.append(0)
    }

    /// Starts the timer and schedules every bot's first connection.
    func start() {
        queue.async {
            let now = BenchClock.now()
            for i in self.sessions.indices { self.reschedule(i, now: now) }
            let timer = DispatchSource.makeTimerSource(queue: self.queue)
            timer.schedule(deadline: .now(), repeating: Self.tick, leeway: .microseconds(200))
            timer.setEventHandler { self.runTimers() }
            timer.resume()
            self.timer = timer
        }
    }

    /// Asks every bot to say goodbye (on the queue).
    func stop() {
        queue.async {
            let now = BenchClock.now()
            for i in self.sessions.indices {
                self.sessions[i].stop(now: now)
                self.service(i, now: now)
            }
        }
    }

    /// Whether every bot is done (call on the queue).
    var isFinished: Bool { sessions.allSatisfy(\.isFinished) }

    /// Closes whatever is still open and stops the timer (call on the queue).
    func tearDown() {
        for i in sessions.indices {
            sessions[i].abandon()
            sessions[i].wantsClose = nil
            closeLink(i, reset: false)
        }
        timer?.cancel()
        timer = nil
    }

    // MARK: - Timers

    private func runTimers() {
        let now = BenchClock.now()
        while let entry = heap.popDue(now) {
            let i = entry.bot
            guard scheduled[i] == entry.time else { continue }
            scheduled[i] = 0
            sessions[i].tick(now: now)
            service(i, now: now)
        }
    }

    /// Acts on what a bot asked for: closing, connecting, its output, its next wake-up.
    private func service(_ i: Int, now: UInt64) {
        let session = sessions[i]
        flush(i)
        if let close = session.wantsClose {
            session.wantsClose = nil
            closeLink(i, reset: close == .reset)
        }
        if session.wantsConnect { openLink(i, now: now) }
        reschedule(i, now: now)
    }

    private func reschedule(_ i: Int, now: UInt64) {
        guard let wake = sessions[i].nextWake else { return }
        // Never schedule at or before `now`: the timer loop would pop it again at once.
        let at = max(wake, now &+ 1)
        if scheduled[i] == 0 || at < scheduled[i] {
            scheduled[i] = at
            heap.push(at, bot: i)
        }
    }

    // MARK: - Connections

    private func openLink(_ i: Int, now: UInt64) {
        let session = sessions[i]
        session.connecting(now: now)
        let socket: Socket
        do {
            socket = try Socket.connect(host: config.options.host, port: config.options.port)
        } catch {
            session.connectFailed(now: now, error.description)
            return
        }
        let link = Link(socket: socket)
        links[i] = link
        let source = DispatchSource.makeWriteSource(fileDescriptor: socket.fd, queue: queue)
        link.writeSource = source
        link.liveSources += 1
        source.setEventHandler { self.connectFinished(i, link) }
        source.setCancelHandler { self.sourceCancelled(link) }
        source.resume()
    }

    private func connectFinished(_ i: Int, _ link: Link) {
        guard links[i] === link, !link.isOpen else { return }
        link.writeSource?.cancel()
        link.writeSource = nil
        let now = BenchClock.now()
        let session = sessions[i]
        if let error = link.socket.pendingError() {
            closeLink(i, reset: false)
            session.connectFailed(now: now, error.description)
            service(i, now: now)
            return
        }
        link.isOpen = true
        let source = DispatchSource.makeReadSource(fileDescriptor: link.socket.fd, queue: queue)
        link.readSource = source
        link.liveSources += 1
        source.setEventHandler { self.readable(i, link) }
        source.setCancelHandler { self.sourceCancelled(link) }
        source.resume()
        session.connected(now: now)
    }

    private func readable(_ i: Int, _ link: Link) {
        guard links[i] === link else { return }
        let session = sessions[i]
        let now = BenchClock.now()
        var ended = false
        do {
            // A few reads per wake-up at most, so one chatty room cannot starve the others.
            reading: for _ in 0..<4 {
                switch try link.socket.read(into: readBuffer) {
                case .bytes(let n):
                    stats.value.bytes += n
                    link.framer.append(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n])) { frame in
                        guard session.wantsClose == nil else { return }
                        switch frame {
                        case .line(let bytes):
                            session.receive(ServerLine(parsing: bytes), now: now)
                        case .tooLong:
                            stats.value.recordProtocolError("\(session.name): a line over 64 KiB")
                        }
                    }
                    if n < readBuffer.count { break reading }
                case .wouldBlock:
                    break reading
                case .closed:
                    ended = true
                    break reading
                }
            }
        } catch {
            ended = true
        }
        if ended, session.wantsClose == nil {
            closeLink(i, reset: false)
            session.connectionEnded(now: now, byServer: true)
        }
        // A bot whose think time is already up (flat out) acts in the same pass, before its output goes.
        if let wake = session.nextWake, wake <= now { session.tick(now: now) }
        service(i, now: now)
    }

    private func flush(_ i: Int) {
        let session = sessions[i]
        guard !session.outbox.isEmpty else { return }
        guard let link = links[i], link.isOpen, !link.isClosed else {
            _ = session.takeOutput(now: 0)
            return
        }
        let bytes = session.takeOutput(now: BenchClock.now())
        if !link.unsent.isEmpty {
            link.unsent.append(contentsOf: bytes)
            return
        }
        let written = write(bytes[...], to: link)
        if written < bytes.count {
            link.unsent.append(contentsOf: bytes[written...])
            armWriter(i, link)
        }
    }

    /// Writes what the socket takes now; a failed write is noticed by the read side, which sees the
    /// connection end.
    private func write(_ bytes: ArraySlice<UInt8>, to link: Link) -> Int {
        bytes.withUnsafeBytes { raw in
            guard case .bytes(let n) = try? link.socket.write(raw) else { return 0 }
            return n
        }
    }

    private func armWriter(_ i: Int, _ link: Link) {
        guard link.writeSource == nil else { return }
        let source = DispatchSource.makeWriteSource(fileDescriptor: link.socket.fd, queue: queue)
        link.writeSource = source
        link.liveSources += 1
        source.setEventHandler {
            guard self.links[i] === link else { return }
            let written = self.write(link.unsent[...], to: link)
            link.unsent.removeFirst(written)
            if link.unsent.isEmpty {
                link.writeSource?.cancel()
                link.writeSource = nil
            }
        }
        source.setCancelHandler { self.sourceCancelled(link) }
        source.resume()
    }

    private func closeLink(_ i: Int, reset: Bool) {
        guard let link = links[i] else { return }
        links[i] = nil
        if reset { link.socket.setLingerReset() }
        link.isClosed = true
        link.readSource?.cancel()
        link.writeSource?.cancel()
        link.readSource = nil
        link.writeSource = nil
        if link.liveSources == 0 { link.socket.close() }
    }

    private func sourceCancelled(_ link: Link) {
        link.liveSources -= 1
        if link.liveSources == 0, link.isClosed { link.socket.close() }
    }
}

/// The monotonic clock every bot timestamp comes from.
enum BenchClock {
    /// Nanoseconds since an arbitrary start.
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
