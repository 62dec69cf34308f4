import CEpoll
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// One epoll set for every ``SocketChannel`` of a serial queue, watched by a single Dispatch read source.
///
/// Why not a Dispatch source per socket: libdispatch on Linux re-arms each source's descriptor with
/// `epoll_ctl` after every event and hands the event from its manager thread to a worker, so each line
/// read cost an `epoll_ctl`, an `epoll_wait` and two context switches. Here each socket is added once,
/// edge-triggered for input, output and the peer's close, and never touched again; when the one epoll
/// descriptor turns readable the loop drains `epoll_wait` with a zero timeout in batches, on the queue,
/// and hands each ready socket to its channel. A wake-up serves every socket that became ready meanwhile.
///
/// Ownership rule: a loop is created and used only on `queue`; it holds its registered channels until
/// they close, and each holds the loop.
public final class EventLoop {
    /// The queue every channel of the loop, and the loop itself, runs on.
    public let queue: DispatchQueue
    private let epoll: Result<Epoll, SocketError>
    private var source: DispatchSourceRead?
    // A table, not the channel's address as its token (as a C server keeps a pointer in `epoll_data`):
    // tried for 16 bytes a connection, and left, since a mistake in a channel's lifetime would then be
    // a use after free in the daemon rather than an event nobody hears.
    private var channels: [UInt64: SocketChannel] = [:]
    /// Tokens are never reused, so an event still in a batch for a channel closed earlier in the same
    /// batch (whose descriptor number a new connection may already have) finds nobody.
    private var nextToken: UInt64 = 1
    /// Channels that stopped reading at their per-event cap with more input waiting: edge-triggered
    /// epoll will not report that input again, so the loop reads them again on the next pass.
    private var unfinished: [SocketChannel] = []
    /// Work for right after what runs now (see ``runSoon(_:)``), and the source that runs it.
    private var soon: [() -> Void] = []
    private let soonSource: DispatchSourceUserDataAdd
    private let events: UnsafeMutableBufferPointer<epoll_event>
    /// Where a channel copies its many small queued buffers together to write them with one `send`
    /// (see ``OutputQueue/isManySmall``): one for the loop, since its channels write one at a time on
    /// its queue; made at the first such write, so a loop that never has one holds none.
    private var scratch: UnsafeMutableRawBufferPointer?

    /// Bytes of the loop's write scratch buffer: the most one copied-together write sends. The lines a
    /// member of a busy room is sent in one pass are a few kilobytes to a few tens of them.
    public static let scratchSize = 64 * 1024

    /// Events taken per `epoll_wait`, and batches per wake-up before the other work of the queue runs.
    static let batchSize = 256
    static let batchesPerWakeUp = 8

    /// Creates a loop on `queue`. If the epoll set cannot be made (out of descriptors), every channel
    /// that starts on it ends at once with that error.
    public init(queue: DispatchQueue) {
        self.queue = queue
        epoll = Result { () throws(SocketError) in try Epoll.make() }
        events = .allocate(capacity: Self.batchSize)
        soonSource = DispatchSource.makeUserDataAddSource(queue: queue)
        soonSource.setEventHandler { [weak self] in self?.runDeferred() }
        soonSource.resume()
        guard case .success(let epoll) = epoll else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: epoll.fd, queue: queue)
        source.setEventHandler { [weak self] in self?.drain() }
        source.setCancelHandler { epoll.close() }
        source.resume()
        self.source = source
    }

    deinit {
        source?.cancel()
        soonSource.cancel()
        events.deallocate()
        scratch?.deallocate()
    }

    /// The loop's write scratch buffer (see ``scratch``), made on first use.
    var writeScratch: UnsafeMutableRawBufferPointer {
        if let scratch { return scratch }
        let made = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.scratchSize, alignment: 16)
        scratch = made
        return made
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
        channels[token] = channel
    }

    /// Forgets `channel` and takes its descriptor out of the set: a descriptor that outlives its close (a
    /// copy a child inherited) would otherwise go on being reported.
    func unregister(_ channel: SocketChannel) {
        guard channel.token != 0 else { return }
        channels[channel.token] = nil
        channel.token = 0
        if case .success(let epoll) = epoll { epoll.remove(channel.socket) }
    }

    /// Runs `work` on the queue after what runs now: how a channel says something that must not happen
    /// in its caller's middle (an end, a release). Dispatch merges the triggers of one pass.
    func runSoon(_ work: @escaping () -> Void) {
        soon.append(work)
        if soon.count == 1 { soonSource.add(data: 1) }
    }

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
            for i in 0..<n {
                let event = Epoll.event(events, at: i)
                channels[event.token]?.handle(event)
            }
            if n < Self.batchSize { return }
        }
    }
}
