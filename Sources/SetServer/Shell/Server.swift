import Dispatch
import SetServerCore
import SetSocket

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon as a library: a ``ServerCore`` behind a listening socket, run on one serial queue.
///
/// Everything it holds lives in a ``Shell`` confined to that queue; this type only hands calls over to
/// it, so it can be used from any thread (tests, the daemon's signal handlers).
public final class Server: Sendable {
    /// The configuration the server runs with.
    public let configuration: ServerConfiguration
    private let shell: QueueConfined<Shell>

    /// Creates a server; nothing happens until ``start()``. With `announces` it answers mDNS/DNS-SD
    /// queries on the LAN (`setd --announce`). `onFatal` runs, on the server's queue, when the server
    /// had to stop at once (a journal write failed): the daemon exits with the status given.
    public init(
        configuration: ServerConfiguration, announces: Bool = false,
        onFatal: @escaping @Sendable (Int32) -> Void = { _ in }
    ) {
        self.configuration = configuration
        let queue = DispatchQueue(label: "setd.server")
        let shell = Shell(configuration: configuration, queue: queue, announces: announces)
        shell.onFatal = onFatal
        self.shell = QueueConfined(shell, to: queue)
    }

    /// Restores the journal (with a state directory), opens the listening socket and starts accepting;
    /// returns the port listened on.
    @discardableResult
    public func start() throws -> UInt16 {
        try shell.sync { try $0.start() }
    }

    /// Says `BYE <reason>` to every client, closes every socket and stops listening. Returns once every
    /// descriptor is closed (or after a second), so the server can be released at once.
    public func stop(reason: String = "server shutting down") {
        shell.sync { $0.stop(reason: reason) }
        // Sources cancel asynchronously, on the queue.
        for _ in 0..<200 where shell.sync(\.descriptorCount) > 0 { usleep(5_000) }
    }

    /// The number of connections open or draining their last lines.
    public var connectionCount: Int { shell.sync(\.openConnectionCount) }
}
