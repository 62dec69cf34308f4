import SetTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback socket driven by hand, for clients that misbehave in ways ``TestClient`` will not: closes
/// that reset.
final class RawClient {
    private(set) var fd: Int32

    /// Connects to 127.0.0.1:`port`; `receiveBufferSize` shrinks the receive buffer before connecting.
    init(port: UInt16, receiveBufferSize: Int32? = nil) throws {
        fd = try connectToLoopback(port: port, label: "raw client", receiveBufferSize: receiveBufferSize)
    }

    deinit { close() }

    /// Waits up to `timeout` seconds for the greeting (or any bytes); returns whether some arrived.
    func awaitBytes(timeout: Double) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 256)
        return chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) } > 0
    }

    /// Closes with `SO_LINGER` 0: the kernel sends a reset instead of a FIN.
    func reset() {
        guard fd >= 0 else { return }
        var linger = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        close()
    }

    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }
}

/// A well-behaved player alone in a room of its own while something else goes on in other rooms: its
/// game must not change, and it must be answered promptly.
struct Bystander {
    let client: TestClient
    let board: String
    let deck: String

    init(on server: TestServer, room: String = "calm") throws {
        let (client, join) = try server.player("calm", room: room)
        self.client = client
        board = try #require(join.lines.first { $0.hasPrefix("BOARD ") })
        deck = try #require(join.lines.first { $0.hasPrefix("DECK ") })
    }

    /// Checks the board and deck are as they were, and that a `PING` comes back within a second.
    func expectUndisturbed(_ context: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try client.discardAvailable()
        let start = monotonicNow()
        let ping = try client.request("PING", timeout: 5)
        let roundTrip = monotonicNow() - start
        #expect(ping.final == "OK PING", "\(context): \(ping)", sourceLocation: sourceLocation)
        #expect(roundTrip < 1, "\(context): PING took \(roundTrip) s", sourceLocation: sourceLocation)
        let state = try client.request("STATE", timeout: 5)
        #expect(
            state.lines.contains(board), "\(context): board changed: \(state)", sourceLocation: sourceLocation
        )
        #expect(
            state.lines.contains(deck), "\(context): deck changed: \(state)", sourceLocation: sourceLocation)
        #expect(
            state.lines.contains("PLAYER calm 0 online"), "\(context): \(state)",
            sourceLocation: sourceLocation)
    }
}

/// What a server holds before a test abuses it, to check it returns to exactly that afterwards.
struct Baseline {
    let server: TestServer
    let connections: Int
    let serverSockets: Int
    let descriptors: Int

    init(_ server: TestServer) {
        self.server = server
        connections = server.server.connectionCount
        serverSockets = socketDescriptorCount(localPort: server.port)
        descriptors = openDescriptorCount()
    }

    /// Waits (up to `timeout`) until the connection count and the server's sockets are back to the
    /// baseline, and checks the process holds no more than a few more descriptors than before (other
    /// tests run in parallel and open their own, hence the tolerance).
    func expectRestored(
        _ context: String, timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let connectionsBack = eventually(timeout: timeout) { server.server.connectionCount == connections }
        #expect(
            connectionsBack,
            "\(context): \(server.server.connectionCount) connections, \(connections) before",
            sourceLocation: sourceLocation)
        let socketsBack = eventually(timeout: timeout) {
            socketDescriptorCount(localPort: server.port) == serverSockets
        }
        let sockets = socketDescriptorCount(localPort: server.port)
        #expect(
            socketsBack, "\(context): the server holds \(sockets) sockets, \(serverSockets) before",
            sourceLocation: sourceLocation)
        let tolerance = 200
        let descriptorsBack = eventually(timeout: timeout) {
            openDescriptorCount() <= descriptors + tolerance
        }
        #expect(
            descriptorsBack, "\(context): \(openDescriptorCount()) descriptors open, \(descriptors) before",
            sourceLocation: sourceLocation)
    }
}
