import Dispatch
import SetProtocol
import SetSocket

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon: a listening socket, its connections, the named players and the rooms.
///
/// Ownership rule: every piece of server state — connections, sessions, rooms and games — is touched
/// only on `queue`, one serial queue for all. Rooms share players and fan out to each other's
/// connections, so one queue needs no locks and gives every claim a single arrival order. Game logic is
/// microseconds against the ~8 µs of each socket call, so the queue spends its time in `read`/`write`,
/// and those are batched: a connection's output is gathered and written once per pass (see
/// ``markForFlush(_:)``).
public final class Server: @unchecked Sendable {
    /// The configuration the server runs with.
    public let configuration: ServerConfiguration
    let queue = DispatchQueue(label: "setd.server")
    let logger: Logger
    /// One buffer for every read: reads happen one at a time on `queue`.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Limits.readChunk, alignment: 16)

    private var listener: Socket?
    private var listenSource: DispatchSourceRead?
    private var sweepTimer: DispatchSourceTimer?
    private var signalSources: [DispatchSourceSignal] = []
    private var nextConnectionID = 1
    /// Open connections by id.
    private(set) var connections: [Int: Connection] = [:]
    /// Connections closed whose sources have not finished cancelling; they keep the objects alive.
    private var cancelling: [Int: Connection] = [:]
    var sessionsByName: [String: Session] = [:]
    var sessionsByToken: [String: Session] = [:]
    var rooms: [String: Room] = [:]
    private var flushList: [Connection] = []
    /// The journal and the archive of finished games; the journal is opened by ``start()``.
    var recorder = Recorder(journal: nil)
    /// Open connections per peer address, for `--max-per-ip`.
    private var connectionsPerHost: [String: Int] = [:]
    private var pingCounter = 0

    /// Creates a server; nothing happens until ``start()``.
    public init(configuration: ServerConfiguration) {
        self.configuration = configuration
        logger = Logger(minimum: configuration.logLevel)
    }

    /// Opens the listening socket and starts accepting; returns the port listened on.
    @discardableResult
    public func start() throws -> UInt16 {
        Socket.ignoreBrokenPipes()
        if let directory = configuration.stateDirectory { try queue.sync { try restore(from: directory) } }
        let socket = try Socket.listen(host: configuration.host, port: configuration.port)
        listener = socket
        let source = DispatchSource.makeReadSource(fileDescriptor: socket.fd, queue: queue)
        source.setEventHandler { [weak self] in self?.acceptPending() }
        source.setCancelHandler { socket.close() }
        listenSource = source
        source.resume()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Limits.sweepInterval, repeating: Limits.sweepInterval)
        timer.setEventHandler { [weak self] in self?.sweep(now: Clock.now()) }
        timer.resume()
        sweepTimer = timer
        let port = socket.localPort
        logger.info("listen", ["host": configuration.host ?? "*", "port": port])
        return port
    }

    /// Says `BYE` to every client when SIGINT or SIGTERM arrives, closes everything and calls `exit(0)`.
    public func exitOnSignals() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [unowned self] in
                self.shutDown(reason: "server shutting down")
                exit(0)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Says `BYE` to every client, closes every socket and stops listening; for tests and embedders.
    public func stop(reason: String = "server shutting down") {
        queue.sync { shutDown(reason: reason) }
        // Sources cancel asynchronously; wait (briefly) until every descriptor is closed, so the server can
        // be released as soon as this returns.
        for _ in 0..<200 where !queue.sync(execute: { cancelling.isEmpty && connections.isEmpty }) {
            usleep(5_000)
        }
    }

    /// Runs `body` on the server's queue and waits for it (for tests and tools).
    public func sync<T>(_ body: () -> T) -> T { queue.sync(execute: body) }

    /// The number of open connections.
    public var connectionCount: Int { sync { connections.count } }

    /// Says `BYE <reason>` to every client, writes what it can and closes all sockets.
    func shutDown(reason: String) {
        logger.info("shutdown", ["clients": connections.count, "reason": reason])
        listenSource?.cancel()
        sweepTimer?.cancel()
        for connection in connections.values {
            connection.session = nil  // Not a drop: nobody goes into grace.
            connection.send(.bye(reason))
            connection.flush()
            connection.close(reason: reason)
        }
    }

    // MARK: Connections

    private func acceptPending() {
        guard let listener else { return }
        for _ in 0..<256 {
            let accepted: (Socket, String)?
            do {
                accepted = try listener.accept()
            } catch {
                // EMFILE and friends: leave the rest in the backlog and try again on the next event.
                logger.warn("accept-failed", ["error": error])
                return
            }
            guard let (socket, peer) = accepted else { return }
            guard connections.count < configuration.maxClients else {
                refuse(
                    socket, peer: peer, "the server has \(configuration.maxClients) clients; try again later",
                    reason: "full")
                continue
            }
            let host = Connection.host(of: peer)
            if let perIP = configuration.maxPerIP, connectionsPerHost[host, default: 0] >= perIP {
                refuse(
                    socket, peer: peer, "\(perIP) connections from your address already; close one first",
                    reason: "max-per-ip")
                continue
            }
            connectionsPerHost[host, default: 0] += 1
            socket.setUserTimeout(seconds: configuration.pingInterval)
            let id = nextConnectionID
            nextConnectionID += 1
            let connection = Connection(id: id, socket: socket, peer: peer, server: self, queue: queue)
            connections[id] = connection
            logger.info("connect", ["id": id, "peer": peer])
            connection.send(.greeting(version: 1, text: "welcome to setd; type HELP"))
        }
    }

    /// Turns a new connection away with one `ERR - FULL` line instead of the greeting.
    private func refuse(_ socket: Socket, peer: String, _ text: String, reason: String) {
        let line = ProtocolError("-", .full, text).line.text + "\n"
        _ = Array(line.utf8).withUnsafeBytes { try? socket.write($0) }
        socket.close()
        logger.warn("refuse", ["peer": peer, "reason": reason])
    }

    /// Queues `connection` to be written at the end of this pass. Lines queued by many events before the
    /// flush runs leave in one `write`.
    func markForFlush(_ connection: Connection) {
        connection.isMarkedForFlush = true
        flushList.append(connection)
        // Strong: the flush must happen even when it is the last thing a stopping server does.
        if flushList.count == 1 { queue.async { self.flushMarked() } }
    }

    private func flushMarked() {
        writeJournal()
        let list = flushList
        flushList = []
        for connection in list {
            connection.isMarkedForFlush = false
            connection.flush()
        }
    }

    /// Called once when a connection closes: its player goes away into grace, a spectator stops watching.
    func connectionClosed(_ connection: Connection, reason: String) {
        connections[connection.id] = nil
        cancelling[connection.id] = connection
        let host = connection.host
        if let count = connectionsPerHost[host], count > 1 {
            connectionsPerHost[host] = count - 1
        } else {
            connectionsPerHost[host] = nil
        }
        logger.info("disconnect", ["id": connection.id, "peer": connection.peer, "reason": reason])
        if let room = connection.watching {
            room.removeSpectator(connection)
            removeIfEmpty(room)
        }
        if let session = connection.session, session.connection === connection {
            session.connection = nil
            session.awaySince = Clock.now()
            session.room?.presenceChanged(session)
        }
        connection.session = nil
    }

    /// Called when both sources of a closed connection are cancelled and its descriptor is closed.
    func descriptorClosed(_ connection: Connection) {
        cancelling[connection.id] = nil
    }

    // MARK: Housekeeping

    /// Closes idle and stuck connections and releases seats whose grace ran out.
    func sweep(now: Double) {
        for connection in connections.values {
            if connection.state == .closing {
                if connection.hasMissedClosingDeadline(now: now) {
                    connection.close(reason: "closing deadline")
                }
            } else if !connection.hasIdentified,
                now - connection.connectedAt > configuration.registrationTimeout
            {
                logger.info("unregistered", ["id": connection.id, "peer": connection.peer])
                connection.send(.bye("no HELLO within \(Int(configuration.registrationTimeout)) s"))
                connection.finish()
            } else if now - connection.lastActivity > configuration.idleTimeout {
                logger.info("idle", ["id": connection.id, "peer": connection.peer])
                connection.send(.bye("idle for \(Int(configuration.idleTimeout)) s"))
                connection.finish()
            } else if now - max(connection.lastActivity, connection.lastPingAt) >= configuration.pingInterval
            {
                pingCounter += 1
                connection.lastPingAt = now
                connection.send(.ping("\(pingCounter)"))
            }
        }
        for session in sessionsByName.values {
            guard let since = session.awaySince, now - since > configuration.grace else { continue }
            logger.info("grace-expired", ["name": session.name])
            release(session)
        }
        if let journal = recorder.journal, journal.recordsSinceSnapshot > Journal.compactionThreshold {
            compactJournal()
        }
    }

    /// Forgets a player: frees the seat and the name.
    func release(_ session: Session) {
        if let room = session.room {
            room.unseat(session)
            removeIfEmpty(room)
        }
        sessionsByName[session.name] = nil
        sessionsByToken[session.token] = nil
    }

    func removeIfEmpty(_ room: Room) {
        guard room.isEmpty, rooms[room.name] === room else { return }
        rooms[room.name] = nil
        recorder.record(.close(room: room.name))
        logger.info("room-closed", ["room": room.name])
    }

    /// A seed for a new room: the configured seed and the room's name, or fresh randomness.
    func makeRoomSeed(for name: String) -> UInt64 {
        guard let seed = configuration.seed else { return UInt64.random(in: .min ... .max) }
        // FNV-1a of the name: stable across runs, unlike `hashValue`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return seed ^ hash
    }
}
