import Dispatch
import SetSocket

#if canImport(Glibc)
    import Glibc
#endif

/// The write end of the signal pipe, for the C signal handler (which can capture nothing).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Delivers SIGINT and SIGTERM to a Dispatch handler without losing one.
///
/// A Dispatch signal source is armed by libdispatch's manager thread some time after `resume()`: a
/// signal that arrives before then (a service manager that stops setd the moment it prints its banner)
/// would be ignored and setd would never stop. Here a plain `sigaction` handler, installed before the
/// banner, writes the signal's number into a pipe; the pipe keeps it until the read source drains it.
enum SignalPipe {
    /// Calls `handler` (on its own queue) for the first SIGINT or SIGTERM; returns the source to keep.
    static func install(_ handler: @escaping @Sendable (Int32) -> Void) -> DispatchSourceRead? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        signalPipeWriteEnd = ends[1]
        let readEnd = ends[0]
        let source = DispatchSource.makeReadSource(
            fileDescriptor: readEnd, queue: DispatchQueue(label: "setd.signals"))
        source.setEventHandler { @Sendable in
            var number: UInt8 = 0
            guard read(readEnd, &number, 1) == 1 else { return }
            handler(Int32(number))
        }
        source.resume()
        let forward: @convention(c) (Int32) -> Void = { number in
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(signalPipeWriteEnd, &byte, 1)  // write(2) is async-signal-safe.
        }
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forward
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        return source
    }
}
