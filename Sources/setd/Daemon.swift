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
        case .run(let configuration, let showsQRCode):
            run(configuration, showsQRCode: showsQRCode)
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

    private static func run(_ configuration: ServerConfiguration, showsQRCode: Bool) -> Never {
        raiseDescriptorLimit()
        let server = Server(configuration: configuration)
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
            showsQRCode: showsQRCode && isatty(1) == 1)
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
    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }
}
