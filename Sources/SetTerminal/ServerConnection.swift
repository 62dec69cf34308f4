import Dispatch
import SetProtocol
import SetSocket

/// One connection to `setd`, driven by Dispatch sources on the owner's serial queue: it connects
/// without blocking, splits what arrives into ``ServerLine``s, and queues what is sent until the socket
/// takes it.
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
    private var socket: Socket?
    private var readSource: DispatchSourceRead?
    private var writeSource: DispatchSourceWrite?
    private var liveSources = 0
    private var isConnected = false
    private var isClosed = false
    private var framer = LineFramer(maximumLineLength: ServerConnection.maximumServerLine)
    private var outbox: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: ServerConnection.readSize)

    /// Creates a connection that reports on `queue`.
    public init(queue: DispatchQueue, onEvent: @escaping @Sendable (Event) -> Void) {
        self.queue = queue
        self.onEvent = onEvent
    }

    /// Starts connecting; `.connected` or `.closed` follows, the latter at the latest after `timeout`
    /// seconds.
    public func open(host: String, port: UInt16, timeout: Double = 5) {
        dispatchPrecondition(condition: .onQueue(queue))
        do {
            let socket = try Socket.connect(host: host, port: port)
            self.socket = socket
            // The socket turns writable when the connection is made (or has failed).
            let source = DispatchSource.makeWriteSource(fileDescriptor: socket.fd, queue: queue)
            source.setEventHandler { [self] in connectFinished() }
            adopt(source)
            writeSource = source
            source.resume()
            queue.asyncAfter(deadline: .now() + timeout) { [self] in
                if !isConnected { finish("no answer from \(host):\(port) after \(Int(timeout)) s") }
            }
        } catch {
            isClosed = true
            let reason = error.description
            queue.async { [onEvent] in onEvent(.closed(reason: reason)) }
        }
    }

    /// Queues `line` (an LF is added) and sends what the socket takes now.
    public func send(_ line: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !isClosed else { return }
        outbox += Array(line.utf8) + [0x0A]
        if isConnected { flush() }
    }

    /// Whether nothing is waiting to be sent.
    public var isDrained: Bool { outbox.isEmpty }

    /// Closes the connection without a `.closed` event.
    public func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !isClosed else { return }
        isClosed = true
        tearDown()
    }

    private func connectFinished() {
        guard !isClosed, !isConnected, let socket else { return }
        if let error = socket.pendingError() {
            finish(error.description)
            return
        }
        isConnected = true
        writeSource?.cancel()
        writeSource = nil
        let source = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: queue)
        source.setEventHandler { [self] in readAvailable() }
        adopt(source)
        readSource = source
        source.resume()
        onEvent(.connected)
        flush()
    }

    private func readAvailable() {
        guard !isClosed, let socket else { return }
        let transfer: Socket.Transfer
        do {
            transfer = try buffer.withUnsafeMutableBytes { try socket.read(into: $0) }
        } catch {
            finish("\(error)")
            return
        }
        switch transfer {
        case .bytes(let n):
            var lines: [ServerLine] = []
            buffer.withUnsafeBytes { raw in
                framer.append(UnsafeRawBufferPointer(rebasing: raw[0..<n])) { frame in
                    if case .line(let bytes) = frame {
                        lines.append(ServerLine(parsing: bytes))
                    }
                }
            }
            for line in lines where !isClosed { onEvent(.line(line)) }
        case .wouldBlock:
            break
        case .closed:
            finish("the server closed the connection")
        }
    }

    private func flush() {
        guard let socket, isConnected, !isClosed else { return }
        while !outbox.isEmpty {
            let transfer: Socket.Transfer
            do {
                transfer = try outbox.withUnsafeBytes { try socket.write($0) }
            } catch {
                finish("\(error)")
                return
            }
            switch transfer {
            case .bytes(let n):
                outbox.removeFirst(n)
            case .wouldBlock, .closed:
                if writeSource == nil {
                    let source = DispatchSource.makeWriteSource(fileDescriptor: socket.fd, queue: queue)
                    source.setEventHandler { [self] in
                        writeSource?.cancel()
                        writeSource = nil
                        flush()
                    }
                    adopt(source)
                    writeSource = source
                    source.resume()
                }
                return
            }
        }
    }

    /// Counts a source on the descriptor; the descriptor is closed only after every source on it is
    /// cancelled, as Dispatch requires.
    private func adopt(_ source: DispatchSourceProtocol) {
        liveSources += 1
        source.setCancelHandler { [self] in
            liveSources -= 1
            if liveSources == 0, isClosed, let socket {
                socket.close()
                self.socket = nil
            }
        }
    }

    private func finish(_ reason: String) {
        guard !isClosed else { return }
        isClosed = true
        tearDown()
        onEvent(.closed(reason: reason))
    }

    private func tearDown() {
        readSource?.cancel()
        writeSource?.cancel()
        readSource = nil
        writeSource = nil
        if liveSources == 0, let socket {
            socket.close()
            self.socket = nil
        }
    }
}
