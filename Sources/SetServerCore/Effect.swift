import SetProtocol

/// Names one client connection for as long as it is open; the shell hands them out and never reuses one.
public typealias ConnectionID = Int

/// One thing the core asks its shell to do.
///
/// The core returns effects as an ordered list, and the order is the contract with the shell: log lines
/// first, then journal records, then lines to send, then connections to close. So a change is handed to
/// the journal before any line acknowledging it, and a connection's last lines (`BYE`, `OK QUIT`) are
/// queued before it is closed. ``Outbox`` is the one place that order is made.
public enum Effect: Equatable, Sendable {
    /// Write a line to the log.
    case log(LogEvent)
    /// Append an accepted change to the journal (a shell without a state directory ignores it).
    /// Boxed: a record (a snapshot, a record event) is hundreds of bytes inline, and every effect, a
    /// room's hundred sends included, would be that large and be copied at that size.
    indirect case journal(JournalRecord)
    /// Queue these bytes (whole lines, each ending in LF) on a connection.
    case send(ConnectionID, [UInt8])
    /// Close a connection once its queued lines are written. The core has already forgotten it: its
    /// player is away (or gone) and nothing more is sent or read for it.
    case close(ConnectionID, reason: String)
}

/// Gathers the effects of one call into the core and hands them out in ``Effect``'s order.
///
/// Shared by the core and its rooms, which only ever append to it; the core drains it once per call.
final class Outbox {
    private var logs: [Effect] = []
    private var records: [Effect] = []
    private var sends: [Effect] = []
    private var closes: [Effect] = []
    /// The lowest level worth making a log line for.
    let logLevel: LogLevel
    /// While restoring, records are read from the journal, not made: nothing is journaled again.
    var isReplaying = false
    /// The wall-clock time (Unix seconds) of the input being handled, for what journals its own time
    /// (a game record's `event`); a replay reads the journaled time, never this.
    var wallTime: Double = 0
    /// Goes up whenever a room is created or closed, or changes its `ROOM` line, so the core can keep
    /// the `ROOMS` listing between changes.
    private(set) var listingVersion = 0

    /// Notes that a room's `ROOM` line, or the set of rooms, changed.
    func roomListChanged() { listingVersion &+= 1 }

    /// How much of one game's log every room keeps (the rooms share the outbox, so they read it here).
    let gameLogLimit: GameLogLimit

    init(logLevel: LogLevel, gameLogLimit: GameLogLimit = .standard) {
        self.logLevel = logLevel
        self.gameLogLimit = gameLogLimit
    }

    /// The fields are built only for a level that is logged: a `debug` line per command must cost
    /// nothing (no strings, no array) when the log is at `info` or above.
    func log(_ level: LogLevel, _ event: String, _ fields: @autoclosure () -> [(String, String)] = []) {
        guard level >= logLevel else { return }
        logs.append(.log(LogEvent(level: level, name: event, fields: fields())))
    }

    func record(_ record: JournalRecord) {
        guard !isReplaying else { return }
        records.append(.journal(record))
    }

    func send(_ bytes: [UInt8], to id: ConnectionID) {
        sends.append(.send(id, bytes))
    }

    func send(_ line: ServerLine, to id: ConnectionID) {
        send(line.bytes, to: id)
    }

    func close(_ id: ConnectionID, reason: String) {
        closes.append(.close(id, reason: reason))
    }

    /// Everything gathered since the last drain, in order; the outbox is empty afterwards.
    func drain() -> [Effect] {
        // The sends (a room's broadcast: one per member) are the bulk: they go out in their own array,
        // the few logs and records moved in ahead of them, never copied effect by effect.
        var effects = sends
        sends = []
        // Room for the next call's as many (one allocation, not a doubling per few members).
        sends.reserveCapacity(min(effects.count, 1024))
        if !(logs.isEmpty && records.isEmpty) {
            effects.insert(contentsOf: logs + records, at: 0)
            logs.removeAll(keepingCapacity: true)
            records.removeAll(keepingCapacity: true)
        }
        if !closes.isEmpty {
            effects += closes
            closes.removeAll(keepingCapacity: true)
        }
        return effects
    }
}

extension ServerLine {
    /// The line as sent: its text and an LF.
    var bytes: [UInt8] {
        var text = self.text
        text.append("\n")
        return Array(text.utf8)
    }
}
