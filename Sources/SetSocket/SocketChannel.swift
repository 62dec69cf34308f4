import Dispatch

/// One non-blocking socket driven by Dispatch on one serial queue: a read source, a write source that
/// runs only while output is waiting, and a bounded-by-its-owner output buffer.
///
/// Lifecycle rules, kept here once for the server, set-cli and the bots:
/// - The write source is created on the first short write and resumed only after `EAGAIN` (or, for an
///   outgoing connection, while `connect` is in progress): a resumed write source on a writable socket
///   fires without end.
/// - A source is cancelled before its descriptor is closed, and the descriptor is closed in the last
///   cancel handler; a suspended source is resumed before it is cancelled (a suspended source must never
///   be released, and its cancel handler only runs once resumed).
/// - A started channel keeps itself alive until its descriptor is closed, so its owner may let go of it
///   right after ``close()``; the callbacks are released then too, which breaks any cycle through them.
///
/// Ownership rule: a channel is created and used only on `queue`; its callbacks run there.
public final class SocketChannel {
    /// Where a channel is in its life.
    public enum State: Sendable {
        /// Waiting for a non-blocking `connect` to finish; output queued meanwhile leaves once it has.
        case connecting
        /// Reading and writing.
        case open
        /// No longer reading; closes once the queued output is written.
        case closing
        /// Sources cancelled; the descriptor closes when they finish.
        case closed
    }

    /// The socket; the channel closes it.
    public let socket: Socket
    /// Where the channel is in its life.
    public private(set) var state = State.open
    /// Called with each chunk read. The bytes are valid only during the call.
    public var onRead: ((UnsafeRawBufferPointer) -> Void)?
    /// Called once when an outgoing connection is made (see ``startConnecting()``), before any read.
    public var onConnect: (() -> Void)?
    /// Called once when the channel closes by itself: the peer closed, a read or write failed, or the
    /// connection could not be made. Not called for ``close()`` or a ``finish()`` that drained.
    public var onEnd: ((End) -> Void)?
    /// Called once the descriptor is closed, when the channel may be released.
    public var onRelease: (() -> Void)?

    private let queue: DispatchQueue
    private let readBuffer: UnsafeMutableRawBufferPointer
    private let readsPerEvent: Int
    private let readSource: DispatchSourceRead
    private var writeSource: DispatchSourceWrite?
    private var isWriteSourceResumed = false
    private var pendingCancels = 1
    private var isReadSourceResumed = false
    /// The channel itself from start until its descriptor is closed; see the lifecycle rules.
    private var keptAlive: SocketChannel?
    private var output: [UInt8] = []
    private var outputStart = 0

    /// Wraps a connected non-blocking socket. Reads go into `readBuffer` (which may be shared by every
    /// channel on `queue`, since reads happen one at a time there), at most `readsPerEvent` per readiness
    /// event so that one busy peer cannot starve the others. Call ``start()`` to begin reading.
    public init(
        socket: Socket, queue: DispatchQueue, readBuffer: UnsafeMutableRawBufferPointer,
        readsPerEvent: Int = 4
    ) {
        self.socket = socket
        self.queue = queue
        self.readBuffer = readBuffer
        self.readsPerEvent = readsPerEvent
        readSource = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: queue)
        readSource.setEventHandler { [unowned self] in self.readAvailable() }
        readSource.setCancelHandler { [unowned self] in self.sourceCancelled() }
    }

    /// Starts reading.
    public func start() {
        keptAlive = self
        resumeReading()
    }

    /// Waits for the non-blocking `connect` of ``Socket/connect(host:port:)`` to finish, then starts
    /// reading and calls ``onConnect``; if it failed, the channel closes and ``onEnd`` says why.
    public func startConnecting() {
        guard state == .open, !isReadSourceResumed else { return }
        keptAlive = self
        state = .connecting
        // The socket turns writable once the connection is made or has failed.
        waitUntilWritable()
    }

    /// Bytes queued and not yet written.
    public var pendingOutput: Int { output.count - outputStart }

    /// Bytes the output buffer holds, written or not: what a connection costs in memory. Compaction keeps
    /// it within about twice ``pendingOutput`` (plus 64 KiB), however much was ever sent.
    public var retainedOutput: Int { output.count }

    /// Queues bytes; they leave at the next ``flush()``.
    public func enqueue(_ bytes: [UInt8]) {
        guard state != .closed else { return }
        output.append(contentsOf: bytes)
    }

    /// Writes as much queued output as the socket takes; waits for the socket to drain the rest.
    public func flush() {
        guard state != .closed, state != .connecting else { return }
        while pendingOutput > 0 {
            // `withUnsafeBytes` only rethrows `any Error`; a `Result` keeps the error a `SocketError`.
            let attempt = output.withUnsafeBytes { raw in
                Result { () throws(SocketError) in
                    try socket.write(UnsafeRawBufferPointer(rebasing: raw[outputStart...]))
                }
            }
            let result: Socket.Transfer
            switch attempt {
            case .success(let transfer): result = transfer
            case .failure(let error):
                end(.writeFailed(error))
                return
            }
            switch result {
            case .bytes(let n):
                outputStart += n
            case .wouldBlock, .closed:
                compactOutput()
                waitUntilWritable()
                return
            }
        }
        // Keep a small buffer for the next update; give back a large one so idle peers stay cheap.
        output.removeAll(keepingCapacity: output.capacity <= 4096)
        outputStart = 0
        if isWriteSourceResumed {
            writeSource?.suspend()
            isWriteSourceResumed = false
        }
        if state == .closing { close() }
    }

    /// Stops reading, writes what is queued, then closes. A channel still connecting closes at once.
    public func finish() {
        guard state == .open else {
            if state == .connecting { close() }
            return
        }
        state = .closing
        resumeReading()  // A source never resumed would never run its cancel handler.
        readSource.cancel()
        flush()
    }

    /// Closes at once, dropping queued output. The descriptor is closed once both sources are cancelled.
    public func close() {
        guard state != .closed else { return }
        let wasClosing = state == .closing
        state = .closed
        // Alive until the cancel handlers have run, even if the owner lets go now.
        keptAlive = self
        if !wasClosing {
            // Never started reading (still connecting, or never started): resume so that the cancel
            // handler runs and the source may be released.
            if !isReadSourceResumed { resumeReading() }
            readSource.cancel()
        }
        if let source = writeSource {
            if !isWriteSourceResumed { source.resume() }
            source.cancel()
        }
        output = []
        outputStart = 0
    }

    /// Drops what was written from the front of the buffer once it is most of it, so a peer that reads
    /// slowly holds at most about twice what is still waiting, not everything ever sent to it.
    private func compactOutput() {
        guard outputStart >= 1 << 16, outputStart * 2 >= output.count else { return }
        output.removeSubrange(..<outputStart)
        outputStart = 0
    }

    private func resumeReading() {
        guard !isReadSourceResumed else { return }
        isReadSourceResumed = true
        readSource.resume()
    }

    private func waitUntilWritable() {
        if writeSource == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: socket.fd, queue: queue)
            source.setEventHandler { [unowned self] in self.writable() }
            source.setCancelHandler { [unowned self] in self.sourceCancelled() }
            pendingCancels += 1
            writeSource = source
        }
        if !isWriteSourceResumed {
            writeSource?.resume()
            isWriteSourceResumed = true
        }
    }

    private func writable() {
        if state == .connecting {
            connectFinished()
        } else {
            flush()
        }
    }

    private func connectFinished() {
        if let error = socket.pendingError() {
            end(.connectFailed(error))
            return
        }
        state = .open
        resumeReading()
        onConnect?()
        // Sends what was queued while connecting; with nothing queued this suspends the write source.
        flush()
    }

    private func end(_ reason: End) {
        close()
        onEnd?(reason)
    }

    private func sourceCancelled() {
        pendingCancels -= 1
        guard pendingCancels == 0 else { return }
        socket.close()
        onRelease?()
        onRead = nil
        onConnect = nil
        onEnd = nil
        onRelease = nil
        keptAlive = nil
    }

    private func readAvailable() {
        guard state == .open else { return }
        for _ in 0..<readsPerEvent {
            let result: Socket.Transfer
            do {
                result = try socket.read(into: readBuffer)
            } catch {
                end(.readFailed(error))
                return
            }
            switch result {
            case .bytes(let n):
                onRead?(UnsafeRawBufferPointer(rebasing: readBuffer[..<n]))
                guard state == .open, n == readBuffer.count else { return }
            case .wouldBlock:
                return
            case .closed:
                end(.peerClosed)
                return
            }
        }
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
