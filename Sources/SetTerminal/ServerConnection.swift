import Dispatch
import SetProtocol
import SetSocket

/// One connection to `setd` on the owner's serial queue: a ``SocketChannel`` that connects without
/// blocking, splits what arrives into ``ServerLine``s, and queues what is sent until the socket takes it.
///
/// Ownership rule: every method is called on `queue`, and every callback runs on it, so the state
/// needs no lock. A connection is used once; reconnecting makes a new one.
public final class ServerConnection: @unchecked Sendable {
    /// What happened on the connection.
    public enum Event: Sendable {
        /// The connection is made.
        case connected
        /// A line arrived.
        case line(ServerLine)
        /// The connection ended (or never started); no more events follow.
        case closed(reason: String)
    }

    /// The longest line accepted from the server. Client lines are capped at 1024 bytes; server lines
    /// are bounded by the same rules (a board is 26 cards), so this is only a guard against a broken
    /// peer.
    static let maximumServerLine = 64 * 1024
    /// Bytes read per read call.
    static let readSize = 64 * 1024

    private let queue: DispatchQueue
    private let onEvent: @Sendable (Event) -> Void
    private var channel: SocketChannel?
    private var isConnected = false
    private var isClosed = false
    private var framer = LineFramer(maximumLineLength: ServerConnection.maximumServerLine)
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: ServerConnection.readSize, alignment: 16)

    /// Creates a connection that reports on `queue`.
    public init(queue: DispatchQueue, onEvent: @escaping @Sendable (Event) -> Void) {
        self.queue = queue
        self.onEvent = onEvent
    }

    // The channel's callbacks hold the connection until the channel has closed its descriptor, so the
    // buffer it reads into outlives it.
    deinit { readBuffer.deallocate() }

    /// Starts connecting; `.connected` or `.closed` follows, the latter at the latest after `timeout`
    /// seconds.
    public func open(host: String, port: UInt16, timeout: Double = 5) {
        dispatchPrecondition(condition: .onQueue(queue))
        do {
            let socket = try Socket.connect(host: host, port: port)
            let channel = SocketChannel(socket: socket, queue: queue, readBuffer: readBuffer)
            channel.onConnect = { [self] in connectFinished() }
            channel.onRead = { [self] bytes in received(bytes) }
            channel.onEnd = { [self] end in
                finish(end == .peerClosed ? "the server closed the connection" : end.description)
            }
            self.channel = channel
            channel.startConnecting()
            queue.asyncAfter(deadline: .now() + timeout) { [weak self] in
                guard let self, !isConnected else { return }
                finish("no answer from \(host):\(port) after \(Int(timeout)) s")
            }
        } catch {
            isClosed = true
            let reason = error.description
            queue.async { [onEvent] in onEvent(.closed(reason: reason)) }
        }
    }

    /// Queues `line` (an LF is added) and sends what the socket takes now; lines queued while
    /// connecting leave once the connection is made.
    public func send(_ line: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !isClosed, let channel else { return }
        channel.enqueue(Array(line.utf8) + [0x0A])
        channel.flush()
    }

    /// Whether nothing is waiting to be sent.
    public var isDrained: Bool { (channel?.pendingOutput ?? 0) == 0 }

    /// Closes the connection without a `.closed` event.
    public func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !isClosed else { return }
        isClosed = true
        channel?.close()
        channel = nil
    }

    private func connectFinished() {
        guard !isClosed else { return }
        isConnected = true
        onEvent(.connected)
    }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        guard !isClosed else { return }
        var lines: [ServerLine] = []
        framer.append(bytes) { frame in
            if case .line(let bytes) = frame {
                lines.append(ServerLine(parsing: bytes))
            }
        }
        for line in lines where !isClosed { onEvent(.line(line)) }
    }

    private func finish(_ reason: String) {
        guard !isClosed else { return }
        close()
        onEvent(.closed(reason: reason))
    }
}
