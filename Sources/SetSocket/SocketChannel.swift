import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// One non-blocking socket driven by an ``EventLoop`` on one serial queue, with a bounded-by-its-owner
/// output buffer.
///
/// Lifecycle rules, kept here once for the server, set-cli and the bots:
/// - The socket joins the loop's epoll set once, at ``start()`` or ``startConnecting()``, edge-triggered
///   for input, output and the peer's close, and is never modified: output waits for the writable edge
///   only after a write met `EAGAIN` (or, for an outgoing connection, while `connect` is in progress).
/// - Reads: edge-triggered epoll reports new input once, so input must be read until the socket is
///   empty. A read that fills less than the buffer has emptied it (TCP hands over everything waiting),
///   so one read per incoming batch is the rule; only a full buffer calls for another read, at most
///   `readsPerEvent` per event, and then the loop comes back to the channel on its next pass.
/// - ``close()`` closes the descriptor at once (which takes it out of the epoll set); ``onRelease`` and
///   the release of the callbacks follow on the queue, after whatever runs now.
/// - A started channel keeps itself alive until it is released, so its owner may let go of it right
///   after ``close()``; the callbacks are released then too, which breaks any cycle through them.
///
/// Ownership rule: a channel is created and used only on its loop's queue; its callbacks run there.
public final class SocketChannel {
    /// Where a channel is in its life.
    public enum State: Sendable {
        /// Waiting for a non-blocking `connect` to finish; output queued meanwhile leaves once it has.
        case connecting
        /// Reading and writing.
        case open
        /// No longer reading; closes once the queued output is written.
        case closing
        /// The descriptor is closed.
        case closed
    }

    /// The socket; the channel closes it.
    public let socket: Socket
    /// `read` calls so far, counted in 32 bits (it wraps after four billion, which only a test reads);
    /// beside the descriptor's 4 bytes, in one word.
    private var reads: UInt32 = 0
    /// Told of everything that happens to the channel, on the channel's queue; held until the channel is
    /// released (which breaks any cycle through it). One object for all five events, instead of a closure
    /// for each: a server holds thousands of channels. Setting one of the `on…` closures below replaces
    /// the delegate with one that calls the closures.
    public var delegate: (any SocketChannelDelegate)?
    /// Called with each chunk read. The bytes are valid only during the call.
    public var onRead: ((UnsafeRawBufferPointer) -> Void)? {
        get { (delegate as? Callbacks)?.onRead }
        set { callbacks.onRead = newValue }
    }
    /// Called once when an outgoing connection is made (see ``startConnecting()``), before any read.
    public var onConnect: (() -> Void)? {
        get { (delegate as? Callbacks)?.onConnect }
        set { callbacks.onConnect = newValue }
    }
    /// Called once when the channel ends by itself: the peer closed (the channel then writes what is
    /// queued before it closes), a read or write failed, or the connection could not be made. Not called
    /// for ``close()`` or a ``finish()`` that drained.
    public var onEnd: ((End) -> Void)? {
        get { (delegate as? Callbacks)?.onEnd }
        set { callbacks.onEnd = newValue }
    }
    /// Called once the descriptor is closed, when the channel may be released.
    public var onRelease: (() -> Void)? {
        get { (delegate as? Callbacks)?.onRelease }
        set { callbacks.onRelease = newValue }
    }
    /// Called after the socket turned writable and took queued output, with what is still queued: how
    /// a server learns that a reader that fell behind caught up.
    public var onDrain: ((Int) -> Void)? {
        get { (delegate as? Callbacks)?.onDrain }
        set { callbacks.onDrain = newValue }
    }
    /// The delegate that calls the `on…` closures, made when the first one is set.
    private var callbacks: Callbacks {
        if let callbacks = delegate as? Callbacks { return callbacks }
        let callbacks = Callbacks()
        delegate = callbacks
        return callbacks
    }

    /// `read` system calls made so far, `EAGAIN` and end of stream included: what the "one read per
    /// incoming batch" rule is checked against.
    public var readCount: Int { Int(reads) }
    /// The loop the channel's socket is registered with.
    public let loop: EventLoop
    private let readBuffer: UnsafeMutableRawBufferPointer
    /// The channel itself from start until it is released; see the lifecycle rules.
    private var keptAlive: SocketChannel?
    /// The channel's name in its loop's epoll set, never reused; 0 when it is not in the set.
    var token: UInt64 = 0
    /// Queued output (see ``OutputQueue``).
    private var output = OutputQueue()
    // The small fields last, in the 7 bytes the output queue's 33 leave in its last word: stored
    // properties are laid out in the order they are declared, and apart each took a word of its own.
    // So a channel is 120 bytes, a 128-byte block of malloc's (a server holds thousands; issue 28).
    /// Where the channel is in its life.
    public private(set) var state = State.open
    /// Whether the owner was told of the channel's end: it hears it once.
    private var isEndReported = false
    private var isStarted = false
    /// Whether a write met `EAGAIN` (or `connect` is in progress), so the writable edge means "flush".
    private var isWaitingForWritable = false
    private let readsPerEvent: UInt16

    /// Wraps a connected non-blocking socket, on a loop of its own on `queue` (one epoll set for this
    /// one socket: right for a single connection such as set-cli's; many channels should share one
    /// ``EventLoop`` through ``init(socket:loop:readBuffer:readsPerEvent:)``).
    public convenience init(
        socket: Socket, queue: DispatchQueue, readBuffer: UnsafeMutableRawBufferPointer,
        readsPerEvent: Int = 4
    ) {
        self.init(
            socket: socket, loop: EventLoop(queue: queue), readBuffer: readBuffer,
            readsPerEvent: readsPerEvent)
    }

    /// Wraps a connected non-blocking socket, driven by `loop`. Reads go into `readBuffer` (which may be
    /// shared by every channel on the loop's queue, since reads happen one at a time there), at most
    /// `readsPerEvent` full buffers per readiness event so that one busy peer cannot starve the others.
    /// Call ``start()`` to begin reading.
    public init(
        socket: Socket, loop: EventLoop, readBuffer: UnsafeMutableRawBufferPointer, readsPerEvent: Int = 4
    ) {
        self.socket = socket
        self.loop = loop
        self.readBuffer = readBuffer
        self.readsPerEvent = UInt16(clamping: readsPerEvent)
    }

    /// Starts reading.
    public func start() {
        guard state == .open, !isStarted else { return }
        keptAlive = self
        register()
    }

    /// Waits for the non-blocking `connect` of ``Socket/connect(host:port:)`` to finish, then starts
    /// reading and calls ``onConnect``; if it failed, the channel closes and ``onEnd`` says why.
    public func startConnecting() {
        guard state == .open, !isStarted else { return }
        keptAlive = self
        state = .connecting
        // The socket turns writable once the connection is made or has failed.
        isWaitingForWritable = true
        register()
    }

    private func register() {
        isStarted = true
        do {
            try loop.register(self)
        } catch {
            // Never in the caller's middle: the end is an input for later, as a peer's close would be.
            let reason: End = state == .connecting ? .connectFailed(error) : .readFailed(error)
            loop.runSoon { if self.state != .closed { self.end(reason) } }
        }
    }

    /// Bytes queued and not yet written.
    public var pendingOutput: Int { output.pending }

    /// Bytes the output queue holds, written or not: what a connection costs in memory (a buffer shared
    /// with other channels counts whole here too, and the queue's tail counts all it allocated). Chunks
    /// written are let go whenever the socket stops taking more, so this stays within what is waiting plus
    /// the one buffer being written from the middle and the tail's unused room (at most 64 KiB each).
    public var retainedOutput: Int { output.held }

    /// Queues bytes; they leave at the next ``flush()``. A line is copied onto the queue's own buffer; a
    /// big buffer is kept as it is, not copied: the same snapshot queued on a hundred channels is one
    /// buffer in memory (see ``OutputQueue``).
    /// Returns whether they were queued: not once the channel is finishing or closed, nor when empty.
    @discardableResult
    public func enqueue(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return false }
        // One access to the channel's state, not two: the queue knows whether the channel is shut.
        return output.append(bytes)
    }

    /// Writes as much queued output as the socket takes, gathered (at most ``Socket/maximumGather``
    /// buffers a call: small ones were already copied together as they were queued), and waits for the
    /// socket to drain the rest.
    public func flush() {
        guard state != .closed, state != .connecting else { return }
        while output.pending > 0 {
            let attempt = writeGathered()
            let result: Socket.Transfer
            switch attempt {
            case .success(let transfer): result = transfer
            case .failure(let error):
                end(.writeFailed(error))
                return
            }
            switch result {
            case .bytes(let n):
                output.advance(by: n)
            case .wouldBlock, .closed:
                output.compact()
                isWaitingForWritable = true
                return
            }
        }
        // Nothing is kept once everything is written: an idle connection holds no output queue.
        output.removeAll()
        isWaitingForWritable = false
        if state == .closing { close() }
    }

    /// One gathered write of the queue's front.
    private func writeGathered() -> Result<Socket.Transfer, SocketError> {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: Socket.maximumGather) { vectors in
            // The pointers are good until the write below returns: the queue does not change meanwhile.
            let count = output.gather(into: vectors)
            return Result { () throws(SocketError) in
                // One buffer (the usual queue: a pass's lines, copied together) leaves with a plain
                // `send`, which spares the kernel reading in a message header and a vector.
                if count == 1 {
                    return try socket.write(
                        UnsafeRawBufferPointer(start: vectors[0].iov_base, count: vectors[0].iov_len))
                }
                return try socket.write(gathering: UnsafeMutableBufferPointer(rebasing: vectors[..<count]))
            }
        }
    }

    /// Stops reading, writes what is queued, then closes. A channel still connecting closes at once.
    public func finish() {
        guard state == .open else {
            if state == .connecting { close() }
            return
        }
        state = .closing
        // What is queued leaves; nothing more joins it.
        output.isShut = true
        flush()
    }

    /// Closes at once, dropping queued output; ``onRelease`` follows on the queue.
    public func close() {
        guard state != .closed else { return }
        state = .closed
        loop.unregister(self)
        socket.close()
        output = OutputQueue(isShut: true)
        isWaitingForWritable = false
        // Alive until released, even if the owner lets go now; released after what runs now, so that a
        // caller in the middle of a callback (``end(_:)`` calls ``onEnd`` after closing) still has them.
        keptAlive = self
        loop.runSoon { self.released() }
    }

    /// One event from the loop's epoll set.
    func handle(_ event: Epoll.Event) {
        if state == .connecting {
            guard event.isWritable || event.isHangUp else { return }
            connectFinished()
        }
        if state == .open, event.isReadable || event.isHangUp {
            readAvailable(hangUp: event.isHangUp)
        }
        if isWaitingForWritable, event.isWritable || event.isHangUp, state == .open || state == .closing {
            flush()
            if state != .closed { delegate?.channel(self, drainedTo: pendingOutput) }
        }
    }

    private func connectFinished() {
        isWaitingForWritable = false
        if let error = socket.pendingError() {
            end(.connectFailed(error))
            return
        }
        state = .open
        delegate?.channelConnected(self)
        // Sends what was queued while connecting.
        flush()
    }

    private func end(_ reason: End) {
        close()
        reportEnd(reason)
    }

    private func reportEnd(_ reason: End) {
        guard !isEndReported else { return }
        isEndReported = true
        delegate?.channel(self, endedWith: reason)
    }

    /// The peer said it sends no more (a FIN: `printf 'HELLO ann\nSTATS\n' | nc HOST 7777` sends its
    /// lines and then this). What it sent is answered: reading stops, the owner hears the end once, and
    /// the channel closes when the answers queued by now are written (or when the owner closes it: a
    /// peer that neither reads nor resets is the owner's deadline to cut).
    private func peerFinished() {
        state = .closing
        // What is queued still leaves (the peer may read after its FIN); nothing more joins it, as for
        // ``finish()``.
        output.isShut = true
        reportEnd(.peerClosed)
        guard state == .closing else { return }
        flush()
    }

    private func released() {
        delegate?.channelReleased(self)
        delegate = nil
        keptAlive = nil
    }

    /// Reads what is waiting, one read per incoming batch (see the lifecycle rules). With `hangUp` (the
    /// peer closed, or the connection broke) it reads on to the end of the stream or the error.
    func readAvailable(hangUp: Bool) {
        guard state == .open else { return }
        for _ in 0..<readsPerEvent {
            let result: Socket.Transfer
            reads &+= 1
            do {
                result = try socket.read(into: readBuffer)
            } catch {
                end(.readFailed(error))
                return
            }
            switch result {
            case .bytes(let n):
                delegate?.channel(self, read: UnsafeRawBufferPointer(rebasing: readBuffer[..<n]))
                guard state == .open else { return }
                if n < readBuffer.count, !hangUp { return }
            case .wouldBlock:
                return
            case .closed:
                peerFinished()
                return
            }
        }
        // Stopped at the cap with the buffer full each time: more may be waiting, and its edge is past.
        loop.readAgain(self)
    }
}

extension SocketChannel {
    /// Why a channel closed by itself.
    public enum End: Equatable, Sendable, CustomStringConvertible {
        /// The peer closed its end.
        case peerClosed
        /// A read failed (a reset, a timeout).
        case readFailed(SocketError)
        /// A write failed (a reset, a vanished peer).
        case writeFailed(SocketError)
        /// The outgoing connection could not be made.
        case connectFailed(SocketError)

        /// The reason in words, as the server logs it.
        public var description: String {
            switch self {
            case .peerClosed: "peer closed"
            case .readFailed(let error): "\(error)"
            case .writeFailed(let error): "write failed: \(error)"
            case .connectFailed(let error): "\(error)"
            }
        }
    }
}

/// What a ``SocketChannel`` tells its owner, on the channel's queue (see the `on…` closures of the
/// channel for when each is called).
public protocol SocketChannelDelegate: AnyObject {
    /// Bytes were read; they are valid only during the call.
    func channel(_ channel: SocketChannel, read bytes: UnsafeRawBufferPointer)
    /// An outgoing connection was made, before any read.
    func channelConnected(_ channel: SocketChannel)
    /// The channel ended by itself, once.
    func channel(_ channel: SocketChannel, endedWith end: SocketChannel.End)
    /// The descriptor is closed and the channel may be released.
    func channelReleased(_ channel: SocketChannel)
    /// The socket turned writable and took queued output; `pending` bytes are still queued.
    func channel(_ channel: SocketChannel, drainedTo pending: Int)
}

extension SocketChannelDelegate {
    /// Nothing to do: most channels are accepted, not connected.
    public func channelConnected(_ channel: SocketChannel) {}
    /// Nothing to do unless the owner waits for a slow reader to catch up.
    public func channel(_ channel: SocketChannel, drainedTo pending: Int) {}
}

extension SocketChannel {
    /// The delegate behind the `on…` closures.
    final class Callbacks: SocketChannelDelegate {
        var onRead: ((UnsafeRawBufferPointer) -> Void)?
        var onConnect: (() -> Void)?
        var onEnd: ((End) -> Void)?
        var onRelease: (() -> Void)?
        var onDrain: ((Int) -> Void)?

        func channel(_ channel: SocketChannel, read bytes: UnsafeRawBufferPointer) { onRead?(bytes) }
        func channelConnected(_ channel: SocketChannel) { onConnect?() }
        func channel(_ channel: SocketChannel, endedWith end: End) { onEnd?(end) }
        func channelReleased(_ channel: SocketChannel) { onRelease?() }
        func channel(_ channel: SocketChannel, drainedTo pending: Int) { onDrain?(pending) }
    }
}
