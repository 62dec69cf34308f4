import Dispatch
import SetServer
import SetServerCore
import SetSocket

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `setd`: parses the command line, starts the server, prints how friends connect, and exits on
/// SIGINT or SIGTERM after telling every client `BYE`.
enum Daemon {
    /// Runs `setd` with the process's arguments; never returns.
    static func main(_ arguments: [String]) -> Never {
        let action: DaemonCommand.Action
        do {
            action = try DaemonCommand.parse(Array(arguments.dropFirst()))
        } catch {
            printError("setd: \(error)")
            exit(2)
        }
        switch action {
        case .help:
            print(DaemonCommand.usage)
            exit(0)
        case .version:
            print(DaemonCommand.version)
            exit(0)
        case .run(let configuration, let showsQRCode, let announces):
            run(configuration, showsQRCode: showsQRCode, announces: announces)
        case .checkJournal(let directory):
            report(JournalTool.check(directory: directory))
        case .repairJournal(let directory):
            report(JournalTool.repair(directory: directory))
        }
    }

    private static func report(_ report: JournalTool.Report) -> Never {
        write(report.isHealthy ? 1 : 2, report.text + "\n")
        exit(report.isHealthy ? 0 : 1)
    }

    private static func run(_ configuration: ServerConfiguration, showsQRCode: Bool, announces: Bool) -> Never
    {
        var configuration = configuration
        let descriptors = raiseDescriptorLimit()
        // As nginx warns when worker_connections exceed the open file limit: past the limit, accepts
        // fail; below it, a connection over --max-clients gets a clear ERR - FULL.
        if let descriptors, configuration.maxClients > descriptors - reservedDescriptors {
            let fitting = max(1, descriptors - reservedDescriptors)
            // Said only when the host asked for more: the default is a ceiling, not a promise.
            if configuration.maxClients != ServerConfiguration().maxClients {
                printError(
                    "setd: --max-clients \(configuration.maxClients) needs more descriptors than the "
                        + "\(descriptors) this process may open (ulimit -n); serving at most \(fitting) clients"
                )
            }
            configuration.maxClients = fitting
        }
        let server = Server(configuration: configuration, announces: announces) { status in exit(status) }
        // Before start: a stop requested while a long journal is being restored is not lost either.
        let signals = exitOnSignals(server)
        let port: UInt16
        do {
            port = try server.start()
        } catch let error as SocketError {
            printError("setd: cannot listen on port \(configuration.port): \(error)")
            exit(1)
        } catch {
            printError("setd: cannot start: \(error)")
            exit(1)
        }
        let addresses = configuration.host.map { [$0] } ?? Socket.localAddresses()
        // The QR code is for a person looking at the terminal, not for a log file or a script.
        let banner = DaemonBanner.text(
            port: port, addresses: addresses, isHTTPEnabled: configuration.isHTTPEnabled,
            showsQRCode: showsQRCode && isatty(1) == 1, publicURL: configuration.publicURL)
        // Unbuffered, so that a script reading the port sees it at once.
        write(1, banner)
        withExtendedLifetime(signals) { dispatchMain() }
    }

    /// Says `BYE` to every client when SIGINT or SIGTERM arrives, closes everything and exits with 0.
    private static func exitOnSignals(_ server: Server) -> DispatchSourceRead? {
        SignalPipe.install { _ in
            server.stop(reason: "server shutting down")
            exit(0)
        }
    }

    private static func printError(_ text: String) { write(2, text + "\n") }

    private static func write(_ fd: Int32, _ text: String) {
        FileDescriptor.writeAll(Array(text.utf8), to: fd)
    }

    /// Lifts the soft descriptor limit to the hard one: 10,000 players need 10,000 descriptors.
    /// Descriptors kept for everything but clients: the listener, epoll, the journal, the log, the
    /// reserve descriptor, Dispatch's own.
    private static let reservedDescriptors = 32

    /// Raises the soft limit of open descriptors to the hard one; returns the limit in force.
    private static func raiseDescriptorLimit() -> Int? {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            let raised = rlimit(rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max)
            var wanted = raised
            if setrlimit(resource, &wanted) == 0 { limit = raised }
        }
        // RLIM_INFINITY is all ones.
        return limit.rlim_cur == rlim_t.max ? nil : Int(clamping: limit.rlim_cur)
    }
}
