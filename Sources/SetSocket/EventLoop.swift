import CEpoll
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// One epoll set for every ``SocketChannel`` of a serial queue, driven either by a single Dispatch read
/// source or by a thread of the loop's own (see ``Driver``).
///
/// Why not a Dispatch source per socket: libdispatch on Linux re-arms each source's descriptor with
/// `epoll_ctl` after every event and hands the event from its manager thread to a worker, so each line
/// read cost an `epoll_ctl`, an `epoll_wait` and two context switches. Here each socket is added once,
/// edge-triggered for input, output and the peer's close, and never touched again; when the one epoll
/// descriptor turns readable the loop drains `epoll_wait` in batches, on the queue, and hands each ready
/// socket to its channel. A wake-up serves every socket that became ready meanwhile.
///
/// Ownership rule: a loop is created and used only on `queue`; it holds its registered channels until
/// they close, and each holds the loop. Its own thread, when it has one, touches the loop only inside
/// `queue.sync`, so everything the loop and its channels hold is still the queue's alone.
public final class EventLoop {
    /// What wakes the loop when its sockets are ready.
    public enum Driver: Sendable {
        /// A Dispatch read source on the epoll descriptor: each wake-up goes from libdispatch's manager
        /// thread to a worker thread, and deferred work is another source. Cheap to keep for a client's
        /// one or few sockets.
        case dispatchSource
        /// A thread of the loop's own blocking in `epoll_wait`, as a plain C server's loop does: it runs
        /// each pass (the ready sockets, then the deferred work, see ``runSoon(_:)``) inside `queue.sync`,
        /// which on an idle serial queue runs on the calling thread, so a wake-up is one switch into this
        /// thread, not two through Dispatch's. Work posted to the queue otherwise (timers, signals, the
        /// journal's sync) runs between passes as before. For a server: its sockets are busy.
        case ownThread
    }

    /// The queue every channel of the loop, and the loop itself, runs on.
    public let queue: DispatchQueue
    private let epoll: Result<Epoll, SocketError>
    private var source: DispatchSourceRead?
    /// The own thread's wake-up descriptor and the epoll set it shares with the loop (``Driver/ownThread``).
    private var threadDescriptors: ThreadDescriptors?
    // A table, not the channel's address as its token (as a C server keeps a pointer in `epoll_data`):
    // tried for 16 bytes a connection, and left, since a mistake in a channel's lifetime would then be
    // a use after free in the daemon rather than an event nobody hears. A table of the references alone
    // (8 bytes a slot; each channel carries its token), not a dictionary (26 bytes a connection).
    private var channels = TokenTable<SocketChannel>()
    /// Tokens are never reused, so an event still in a batch for a channel closed earlier in the same
    /// batch (whose descriptor number a new connection may already have) finds nobody. 0 is the own
    /// thread's wake-up.
    private var nextToken: UInt64 = 1
    /// Channels that stopped reading at their per-event cap with more input waiting: edge-triggered
    /// epoll will not report that input again, so the loop reads them again on the next pass.
    private var unfinished: [SocketChannel] = []
    /// Work for right after what runs now (see ``runSoon(_:)``), and the source that runs it when the
    /// loop is driven by Dispatch.
    private var soon: [() -> Void] = []
    private var soonSource: DispatchSourceUserDataAdd?
    /// Whether the own thread is in a pass: deferred work then runs at its end, with no wake-up.
    private var isInPass = false
    private let events: UnsafeMutableBufferPointer<epoll_event>
    /// Events taken per `epoll_wait`, and batches per wake-up before the other work of the queue runs.
    static let batchSize = 256
    static let batchesPerWakeUp = 8
    /// The epoll token of the own thread's wake-up descriptor; channels' tokens start at 1.
    static let wakeUpToken: UInt64 = 0

    /// Creates a loop on `queue`, driven as `driver` says (a Dispatch source if the thread cannot be
    /// made). If the epoll set cannot be made (out of descriptors), every channel that starts on it ends
    /// at once with that error.
    public init(queue: DispatchQueue, driver: Driver = .dispatchSource) {
        self.queue = queue
        epoll = Result { () throws(SocketError) in try Epoll.make() }
        events = .allocate(capacity: Self.batchSize)
        guard case .success(let epoll) = epoll else {
            startDispatchSources(nil, closing: false)
            return
        }
        if driver == .ownThread, let descriptors = ThreadDescriptors(epoll: epoll) {
            threadDescriptors = descriptors
            if LoopThread.start(LoopThread(loop: self, queue: queue, descriptors: descriptors)) { return }
            // No thread: Dispatch drives the loop, and the descriptors (which own the set) stay.
            startDispatchSources(epoll, closing: false)
            return
        }
        startDispatchSources(epoll, closing: true)
    }

    /// Drives the loop by Dispatch: a read source on the epoll set (which closes it when cancelled, if
    /// `closing`), and a user-data source for deferred work.
    private func startDispatchSources(_ epoll: Epoll?, closing: Bool) {
        let soonSource = DispatchSource.makeUserDataAddSource(queue: queue)
        soonSource.setEventHandler { [weak self] in self?.runDeferred() }
        soonSource.resume()
        self.soonSource = soonSource
        guard let epoll else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: epoll.fd, queue: queue)
        source.setEventHandler { [weak self] in self?.drain() }
        if closing { source.setCancelHandler { epoll.close() } }
        source.resume()
        self.source = source
    }

    deinit {
        source?.cancel()
        soonSource?.cancel()
        // The own thread sees the loop gone when it wakes, and stops.
        threadDescriptors?.wakeUp()
        events.deallocate()
    }

    /// Channels registered and not yet closed.
    public var channelCount: Int { channels.count }

    /// Adds `channel`'s socket to the set; its events go to it from now on until ``unregister(_:)``.
    func register(_ channel: SocketChannel) throws(SocketError) {
        dispatchPrecondition(condition: .onQueue(queue))
        let epoll = try epoll.get()
        let token = nextToken
        nextToken += 1
        try epoll.add(channel.socket, token: token)
        channel.token = token
        channels.insert(channel)
    }

    /// Forgets `channel` and takes its descriptor out of the set: a descriptor that outlives its close (a
    /// copy a child inherited) would otherwise go on being reported.
    func unregister(_ channel: SocketChannel) {
        guard channel.token != 0 else { return }
        channels.remove(channel.token)
        channel.token = 0
        if case .success(let epoll) = epoll { epoll.remove(channel.socket) }
    }

    /// Runs `work` on the queue after what runs now: how a channel says something that must not happen
    /// in its caller's middle (an end, a release), and how a server flushes once per pass. On the own
    /// thread, work asked for during a pass runs at its end, after every ready socket; asked for from
    /// elsewhere on the queue (a timer), it wakes the thread. Dispatch merges the triggers of one pass.
    public func runSoon(_ work: @escaping () -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        soon.append(work)
        guard soon.count == 1, !isInPass else { return }
        if let soonSource { soonSource.add(data: 1) } else { threadDescriptors?.wakeUp() }
    }

    /// Runs the work deferred so far; what that work defers in turn waits for the next pass.
    private func runDeferred() {
        let work = soon
        soon = []
        for item in work { item() }
    }

    /// Asks for `channel` to read again after the queue's other work (see ``unfinished``).
    func readAgain(_ channel: SocketChannel) {
        unfinished.append(channel)
        if unfinished.count == 1 { runSoon { [weak self] in self?.readUnfinished() } }
    }

    private func readUnfinished() {
        let again = unfinished
        unfinished = []
        for channel in again where channel.token != 0 { channel.readAvailable(hangUp: false) }
    }

    /// Hands every ready event to its channel, up to ``batchesPerWakeUp`` batches from `epoll_wait`.
    /// Whatever is left keeps the epoll descriptor readable, so the source fires again after the
    /// queue's other work.
    private func drain() {
        guard case .success(let epoll) = epoll else { return }
        for _ in 0..<Self.batchesPerWakeUp {
            let n = epoll.ready(into: events)
            handle(events, count: n)
            if n < Self.batchSize { return }
        }
    }

    /// Hands the first `count` events of `buffer` to their channels.
    private func handle(_ buffer: UnsafeMutableBufferPointer<epoll_event>, count: Int) {
        for i in 0..<count {
            let event = Epoll.event(buffer, at: i)
            if event.token == Self.wakeUpToken {
                threadDescriptors?.clearWakeUp()
            } else {
                channels[event.token]?.handle(event)
            }
        }
    }

    /// One pass of the own thread, on the queue, after its `epoll_wait` found `count` events (in `found`,
    /// the thread's buffer): every ready socket (up to ``batchesPerWakeUp`` batches), then the deferred work — a
    /// server's flush among it, so each connection is written once per pass. Returns whether work is
    /// already waiting for the next pass, which then must not block.
    fileprivate func pass(_ found: UnsafeMutableBufferPointer<epoll_event>, count: Int) -> Bool {
        guard case .success(let epoll) = epoll else { return false }
        isInPass = true
        handle(found, count: count)
        var n = count
        var batches = 1
        while n == Self.batchSize, batches < Self.batchesPerWakeUp {
            n = epoll.ready(into: events)
            handle(events, count: n)
            batches += 1
        }
        runDeferred()
        isInPass = false
        return !soon.isEmpty || n == Self.batchSize
    }
}

/// The own thread's descriptors: the epoll set (shared with its loop) and the eventfd that wakes the
/// thread. Held by the loop and by the thread; whichever lets go last closes them, so neither can be
/// closed, and its number reused, while the other may still use it.
private final class ThreadDescriptors: @unchecked Sendable {
    let epoll: Epoll
    let wake: Int32

    /// Makes the eventfd and adds it to `epoll`, which it then owns; nil (and `epoll` not owned) if
    /// either fails.
    init?(epoll: Epoll) {
        let wake = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard wake >= 0 else { return nil }
        do {
            try epoll.addWakeUp(wake, token: EventLoop.wakeUpToken)
        } catch {
            close(wake)
            return nil
        }
        self.epoll = epoll
        self.wake = wake
    }

    deinit {
        epoll.close()
        close(wake)
    }

    /// Makes the thread's `epoll_wait` return (level-triggered: until ``clearWakeUp()``).
    func wakeUp() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    /// Reads the eventfd back to zero.
    func clearWakeUp() {
        var count: UInt64 = 0
        _ = read(wake, &count, 8)
    }
}

/// The loop's own thread (``EventLoop/Driver/ownThread``): blocks in `epoll_wait`, then runs a pass of
/// the loop inside `queue.sync`. It holds the loop weakly, touching it only on the queue, and stops when
/// it wakes to find the loop gone.
private final class LoopThread: @unchecked Sendable {
    weak let loop: EventLoop?
    let queue: DispatchQueue
    let descriptors: ThreadDescriptors

    init(loop: EventLoop, queue: DispatchQueue, descriptors: ThreadDescriptors) {
        self.loop = loop
        self.queue = queue
        self.descriptors = descriptors
    }

    /// Starts `thread`, detached; false if the system would not make one.
    static func start(_ thread: LoopThread) -> Bool {
        let context = Unmanaged.passRetained(thread).toOpaque()
        var id = pthread_t()
        let made = pthread_create(
            &id, nil,
            { context in
                Unmanaged<LoopThread>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        guard made == 0 else {
            Unmanaged<LoopThread>.fromOpaque(context).release()
            return false
        }
        pthread_detach(id)
        return true
    }

    private func run() {
        let found = UnsafeMutableBufferPointer<epoll_event>.allocate(capacity: EventLoop.batchSize)
        defer { found.deallocate() }
        var isBusy = false
        while true {
            let count = descriptors.epoll.wait(into: found, blocking: !isBusy)
            let next: Bool? = queue.sync { loop?.pass(found, count: count) }
            guard let next else { return }
            isBusy = next
        }
    }
}
