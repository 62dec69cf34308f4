import SetServerCore
import SetSocket

#if canImport(Glibc)
    import Glibc
#endif

/// Writes one event per line to stderr: a UTC timestamp, then the event (its level, name and fields).
struct Logger: Sendable {
    let minimum: LogLevel

    func log(_ event: LogEvent) {
        guard event.level >= minimum else { return }
        let line = "\(Self.timestamp()) \(event)\n"
        // One write(2) per line, so lines from a busy server never interleave half-way.
        FileDescriptor.writeAll(Array(line.utf8), to: 2)
    }

    func log(_ level: LogLevel, _ name: String, _ fields: [(String, String)] = []) {
        log(LogEvent(level: level, name: name, fields: fields))
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UTCTime.format(Double(now.tv_sec) + Double(now.tv_nsec) / 1e9, milliseconds: true)
    }
}
