import SetServer
import SetServerCore
import Synchronization

/// Stopped servers are kept, never freed: a server's sockets finish cancelling on its queue after
/// `stop()` returns, and a test must not race that teardown.
private let stoppedServers = Mutex<[Server]>([])

/// An in-process `setd` on 127.0.0.1 and a free port, with a fixed seed so every deal replays.
public final class TestServer {
    public let server: Server
    public let port: UInt16
    private var isStopped = false

    /// Starts a server; `configure` adjusts the test defaults (loopback, port 0, seed 42, quiet logs, a
    /// 20 ms sniff window).
    public init(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.seed = 42
        configuration.logLevel = .error
        // Every test connection waits out the window before its greeting; a short one keeps the suite's
        // wall time (tests about the window set their own).
        configuration.sniffWindow = 0.02
        configure(&configuration)
        server = Server(configuration: configuration)
        port = try server.start()
    }

    /// Stops the server (everyone gets `BYE`); safe to call twice.
    public func stop() {
        guard !isStopped else { return }
        isStopped = true
        server.stop()
        let server = self.server
        stoppedServers.withLock { $0.append(server) }
    }

    /// Connects and checks the greeting.
    public func connect(_ label: String, receiveBufferSize: Int32? = nil) throws -> TestClient {
        let client = try TestClient(port: port, label: label, receiveBufferSize: receiveBufferSize)
        let greeting = try client.readLine()
        guard greeting.hasPrefix("SETD 1 ") else {
            throw ClientError(description: "\(label): greeting was '\(greeting)'")
        }
        return client
    }

    /// Connects and says `HELLO <name>`; returns the client and its token.
    public func named(_ name: String, receiveBufferSize: Int32? = nil) throws -> (TestClient, String) {
        let client = try connect(name, receiveBufferSize: receiveBufferSize)
        return (client, try client.hello(name))
    }

    /// Connects, says `HELLO <name>` and joins `room` (creating it with `options`); returns the client
    /// and the join reply (the snapshot).
    public func player(
        _ name: String, room: String, options: String = "", receiveBufferSize: Int32? = nil
    ) throws -> (TestClient, Reply) {
        let (client, _) = try named(name, receiveBufferSize: receiveBufferSize)
        let reply = try client.request(options.isEmpty ? "JOIN \(room)" : "JOIN \(room) \(options)")
        guard reply.isOK("JOIN \(room)") else {
            throw ClientError(description: "\(name): JOIN got \(reply)")
        }
        return (client, reply)
    }
}
