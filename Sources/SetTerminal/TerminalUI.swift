/// Everything on the screen that is not the game: the input line, the event list, the last command's
/// result, an open list, and the state of the connection.
public struct TerminalUI: Equatable, Sendable {
    /// The state of the connection, shown in the top line.
    public enum Connection: Equatable, Sendable {
        /// The first connection is being made.
        case connecting
        /// Connected.
        case online
        /// The connection dropped; the next attempt is in `seconds`.
        case reconnecting(attempt: Int, seconds: Int)
        /// Disconnected and not trying (the server said goodbye); `/reconnect` tries again.
        case offline(String)
    }

    /// How many events are kept; older ones scroll away.
    public static let eventLimit = 500

    /// The input line.
    public var editor = LineEditor()
    /// The open list, if any.
    public var panel: Panel?
    /// The result of the last command.
    public var status: ClientSession.Status?
    /// What happened, oldest first.
    public private(set) var events: [LogEntry] = []
    /// The connection's state.
    public var connection = Connection.connecting
    /// Positions of cards dealt a moment ago, marked for a couple of seconds.
    public var fresh: Set<Int> = []
    /// The game clock (`3:07`), when a game is running.
    public var clock: String?
    /// Whether the room is followed as a spectator, not played.
    public var isWatching = false

    /// Creates an empty screen state.
    public init() {}

    /// Adds an event, dropping the oldest beyond ``eventLimit``.
    public mutating func log(_ entry: LogEntry) {
        events.append(entry)
        if events.count > Self.eventLimit { events.removeFirst(events.count - Self.eventLimit) }
    }
}

/// The size of a terminal in character cells.
public struct TerminalSize: Equatable, Sendable {
    /// Columns.
    public var columns: Int
    /// Rows.
    public var rows: Int

    /// Creates a size.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// One screen: exactly as many lines as the terminal has rows, none wider than it, and where the
/// cursor goes.
public struct Frame: Equatable, Sendable {
    /// A place on the screen, 0-based.
    public struct Position: Equatable, Sendable {
        /// The row.
        public var row: Int
        /// The column.
        public var column: Int

        /// Creates a position.
        public init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }

    /// The lines, top to bottom.
    public var lines: [StyledText]
    /// Where the cursor shows, or `nil` to hide it.
    public var cursor: Position?

    /// Creates a frame.
    public init(lines: [StyledText], cursor: Position?) {
        self.lines = lines
        self.cursor = cursor
    }

    /// The lines without styles, for tests and logs.
    public var plainLines: [String] { lines.map(\.plainText) }
}
