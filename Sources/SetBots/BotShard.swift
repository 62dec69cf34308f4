import Dispatch
import SetProtocol
import SetSocket

/// A group of bots, all driven by one serial Dispatch queue: thousands of bots share a queue, a read
/// buffer and a timer instead of a thread each.
///
/// Ownership: everything here is touched only on ``queue``. The fleet reaches in with `queue.sync` for
/// statistics and `queue.async` for commands. Dispatch handlers hold the shard strongly: every channel
/// and the timer are closed or cancelled by ``tearDown()``, which releases the handlers, so a fleet that
/// is gone never has a handler left running on a freed shard.
final class BotShard: @unchecked Sendable {
    /// One bot's connection: its ``SocketChannel`` (which owns the sources, the unsent bytes and the
    /// descriptor's close) and the framer of what it reads.
    ///
    /// Ownership: used only on the shard's queue.
    final class Link: @unchecked Sendable {
        let channel: SocketChannel
        /// Server lines can be longer than client lines (an `OVER` of a full room), so the cap is wide.
        var framer = LineFramer(maximumLineLength: 1 << 16)

        init(channel: SocketChannel) { self.channel = channel }
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
    /// One epoll set for every bot of the shard.
    private let loop: EventLoop

    init(label: String, config: BotConfig) {
        queue = DispatchQueue(label: label)
        self.config = config
        loop = EventLoop(queue: queue)
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
            socket = try Socket.connect(
                host: config.options.host, port: config.options.port,
                source: config.source(ofBot: session.index))
        } catch {
            session.connectFailed(now: now, error.description)
            return
        }
        // A few reads per wake-up at most (the channel's default), so one chatty room cannot starve
        // the others; the shard's one buffer serves every read, as they happen one at a time here.
        let channel = SocketChannel(socket: socket, loop: loop, readBuffer: readBuffer)
        let link = Link(channel: channel)
        links[i] = link
        // The handlers hold the link and the shard until the channel has closed its descriptor.
        channel.onConnect = { self.connected(i, link) }
        channel.onRead = { bytes in self.received(bytes, i, link) }
        channel.onEnd = { end in self.ended(i, link, end) }
        channel.startConnecting()
    }

    private func connected(_ i: Int, _ link: Link) {
        guard links[i] === link else { return }
        sessions[i].connected(now: BenchClock.now())
    }

    private func received(_ bytes: UnsafeRawBufferPointer, _ i: Int, _ link: Link) {
        guard links[i] === link else { return }
        let session = sessions[i]
        let now = BenchClock.now()
        stats.value.bytes += bytes.count
        link.framer.append(bytes) { frame in
            guard session.wantsClose == nil else { return }
            switch frame {
            case .line(let bytes):
                if !session.receiveTimedChat(bytes, now: now) {
                    session.receive(ServerLine(parsing: bytes), now: now)
                }
            case .tooLong:
                stats.value.recordProtocolError("\(session.name): a line over 64 KiB")
            }
        }
        // A bot whose think time is already up (flat out) acts in the same pass, before its output goes.
        if let wake = session.nextWake, wake <= now { session.tick(now: now) }
        service(i, now: now)
    }

    /// The channel closed by itself: the connection could not be made, the server closed it, or a read
    /// or write failed. Only the session's state changes here (this may run inside ``service(_:now:)``
    /// when a write fails); its next wake-up does the rest.
    private func ended(_ i: Int, _ link: Link, _ end: SocketChannel.End) {
        guard links[i] === link else { return }
        links[i] = nil
        let session = sessions[i]
        let now = BenchClock.now()
        if case .connectFailed(let error) = end {
            session.connectFailed(now: now, error.description)
        } else if session.wantsClose == nil {
            session.connectionEnded(now: now, byServer: true)
        }
        reschedule(i, now: now)
    }

    private func flush(_ i: Int) {
        let session = sessions[i]
        guard !session.outbox.isEmpty else { return }
        guard let link = links[i], link.channel.state == .open else {
            _ = session.takeOutput(now: 0)
            return
        }
        link.channel.enqueue(session.takeOutput(now: BenchClock.now()))
        link.channel.flush()
    }

    private func closeLink(_ i: Int, reset: Bool) {
        guard let link = links[i] else { return }
        links[i] = nil
        if reset { link.channel.socket.setLingerReset() }
        link.channel.close()
    }
}

/// The monotonic clock every bot timestamp comes from.
enum BenchClock {
    /// Nanoseconds since an arbitrary start.
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
