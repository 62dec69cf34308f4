/// How important a log line is.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
    case debug, info, warn, error

    /// The name used on the command line and in log lines.
    public var name: String { ["debug", "info", "warn", "error"][rawValue] }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One event for the log: its level, its name and `key=value` fields; the shell adds the time and
/// writes it.
public struct LogEvent: Equatable, Sendable, CustomStringConvertible {
    /// How important it is.
    public var level: LogLevel
    /// The event's name, e.g. `connect` or `room-created`.
    public var name: String
    /// The fields, in order.
    public var fields: [(String, String)]

    /// Creates an event.
    public init(level: LogLevel, name: String, fields: [(String, String)] = []) {
        self.level = level
        self.name = name
        self.fields = fields
    }

    /// `<level> <name> key=value ...`, a value with a space in quotes.
    public var description: String {
        var line = "\(level.name) \(name)"
        for (key, value) in fields {
            line += value.contains(" ") ? " \(key)=\"\(value)\"" : " \(key)=\(value)"
        }
        return line
    }

    public static func == (lhs: LogEvent, rhs: LogEvent) -> Bool { lhs.description == rhs.description }
}
