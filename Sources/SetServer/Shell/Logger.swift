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
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let millis = now.tv_nsec / 1_000_000
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }
}
