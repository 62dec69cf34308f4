#if canImport(Glibc)
    import Glibc
#endif

/// How important a log line is.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
    case debug, info, warn, error

    /// The name used on the command line and in log lines.
    public var name: String { ["debug", "info", "warn", "error"][rawValue] }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Writes one event per line to stderr: a UTC timestamp, the level, the event name and `key=value` fields.
struct Logger: Sendable {
    let minimum: LogLevel

    func log(_ level: LogLevel, _ event: String, _ fields: KeyValuePairs<String, Any> = [:]) {
        guard level >= minimum else { return }
        var line = "\(Self.timestamp()) \(level.name) \(event)"
        for (key, value) in fields {
            let text = "\(value)"
            line += text.contains(" ") ? " \(key)=\"\(text)\"" : " \(key)=\(text)"
        }
        line += "\n"
        // One write(2) per line, so lines from a busy server never interleave half-way.
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    func debug(_ event: String, _ fields: KeyValuePairs<String, Any> = [:]) { log(.debug, event, fields) }
    func info(_ event: String, _ fields: KeyValuePairs<String, Any> = [:]) { log(.info, event, fields) }
    func warn(_ event: String, _ fields: KeyValuePairs<String, Any> = [:]) { log(.warn, event, fields) }
    func error(_ event: String, _ fields: KeyValuePairs<String, Any> = [:]) { log(.error, event, fields) }

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
