import Dispatch
import SetProtocol
import SetSocket

/// One client's socket: its read and write sources, input framer and bounded output queue.
///
/// Ownership rule: a connection is created, used and closed only on the server's queue, like every other
/// piece of server state, so none of its fields needs a lock.
final class Connection: @unchecked Sendable {
    enum State { case open, closing, closed }

    let id: Int
    let peer: String
    let socket: Socket
    private unowned let server: Server
    private let readSource: DispatchSourceRead
    /// Created on the first short write; resumed only while output is pending, since a resumed write
    /// source on a writable socket fires without end.
    private var writeSource: DispatchSourceWrite?
    private var isWriteSourceResumed = false
    private var pendingCancels = 0

    private(set) var state = State.open
    var framer = LineFramer()
    var limiter = RateLimiter()
    /// The player this connection speaks for, after `HELLO` or `RESUME`.
    var session: Session?
    /// The room this connection watches as a spectator.
    var watching: Room?
    var lastActivity: Double
    let connectedAt: Double
    /// When the last server `PING` went out.
    var lastPingAt = -Double.infinity
    /// Whether the client ever said `HELLO`, `RESUME` or `WATCH`, for the registration deadline.
    var hasIdentified = false
    private var closingSince: Double?
    private var output: [UInt8] = []
    private var outputStart = 0
    /// Whether this connection is already in the server's list of connections to flush.
    var isMarkedForFlush = false

    init(id: Int, socket: Socket, peer: String, server: Server, queue: DispatchQueue) {
        self.id = id
        self.socket = socket
        self.peer = peer
        self.server = server
        lastActivity = Clock.now()
        connectedAt = lastActivity
        readSource = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: queue)
        pendingCancels = 1
        readSource.setEventHandler { [unowned self] in self.readAvailable() }
        readSource.setCancelHandler { [unowned self] in self.sourceCancelled() }
        readSource.resume()
    }

    /// The address part of `peer`, for the per-address limit.
    var host: String { Self.host(of: peer) }

    static func host(of peer: String) -> String {
        guard let colon = peer.lastIndex(of: ":") else { return peer }
        return String(peer[..<colon])
    }

    /// Bytes queued and not yet written.
    var pendingOutput: Int { output.count - outputStart }

    /// Queues one line.
    func send(_ line: ServerLine) {
        var text = line.text
        text.append("\n")
        send(bytes: Array(text.utf8))
    }

    /// Queues lines already formatted, each ending in LF.
    func send(bytes: [UInt8]) {
        guard state == .open else { return }
        output.append(contentsOf: bytes)
        if pendingOutput > Limits.maximumOutputBytes {
            server.logger.warn(
                "drop", ["id": id, "peer": peer, "reason": "output queue full, client not reading"])
            close(reason: "output queue full")
            return
        }
        if !isMarkedForFlush { server.markForFlush(self) }
    }

    /// Stops reading, sends what is queued, then closes.
    func finish() {
        guard state == .open else { return }
        state = .closing
        closingSince = Clock.now()
        readSource.cancel()
        flush()
    }

    /// Whether a closing connection has run out of time to drain.
    func hasMissedClosingDeadline(now: Double) -> Bool {
        guard let since = closingSince else { return false }
        return now - since > Limits.closingDeadline
    }

    /// Writes as much queued output as the socket takes.
    func flush() {
        guard state != .closed else { return }
        server.writeJournal()  // Nothing is acknowledged before it is journaled.
        while pendingOutput > 0 {
            let result = try? output.withUnsafeBytes { raw in
                try socket.write(UnsafeRawBufferPointer(rebasing: raw[outputStart...]))
            }
            switch result {
            case .bytes(let n)?:
                outputStart += n
            case .wouldBlock?, .closed?:
                waitUntilWritable()
                return
            case nil:
                close(reason: "write failed")
                return
            }
        }
        // Keep a small buffer for the next update; give back a large one so idle clients stay cheap.
        output.removeAll(keepingCapacity: output.capacity <= 4096)
        outputStart = 0
        if isWriteSourceResumed {
            writeSource?.suspend()
            isWriteSourceResumed = false
        }
        if state == .closing { close(reason: "finished") }
    }

    private func waitUntilWritable() {
        if writeSource == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: socket.fd, queue: server.queue)
            source.setEventHandler { [unowned self] in self.flush() }
            source.setCancelHandler { [unowned self] in self.sourceCancelled() }
            pendingCancels += 1
            writeSource = source
        }
        if !isWriteSourceResumed {
            writeSource?.resume()
            isWriteSourceResumed = true
        }
    }

    /// Closes at once: cancels the sources (the descriptor is closed once both cancel handlers ran) and
    /// tells the server, which releases the seat into its grace period.
    func close(reason: String) {
        guard state != .closed else { return }
        let wasClosing = state == .closing
        state = .closed
        if !wasClosing { readSource.cancel() }
        if let source = writeSource {
            // A suspended source must not be released, and its cancel handler only runs once resumed.
            if !isWriteSourceResumed { source.resume() }
            source.cancel()
        }
        output = []
        server.connectionClosed(self, reason: reason)
    }

    private func sourceCancelled() {
        pendingCancels -= 1
        if pendingCancels == 0 {
            socket.close()
            server.descriptorClosed(self)
        }
    }

    private func readAvailable() {
        guard state == .open else { return }
        for _ in 0..<Limits.readsPerEvent {
            let result: Socket.Transfer
            do {
                result = try socket.read(into: server.readBuffer)
            } catch {
                close(reason: "\(error)")
                return
            }
            switch result {
            case .bytes(let n):
                lastActivity = Clock.now()
                var frames: [LineFramer.Frame] = []
                framer.append(UnsafeRawBufferPointer(rebasing: server.readBuffer[..<n])) { frames.append($0) }
                for frame in frames where state == .open { server.received(frame, from: self) }
                guard state == .open, n == server.readBuffer.count else { return }
            case .wouldBlock:
                return
            case .closed:
                close(reason: "peer closed")
                return
            }
        }
    }
}
