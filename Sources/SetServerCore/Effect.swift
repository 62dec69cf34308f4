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
    /// room's hundred sends included, would be that large and be copied at that size. The box is the
    /// one the engine's action carries on to the shell.
    case journal(RecordBox)
    /// Queue these bytes (whole lines, each ending in LF) on a connection.
    case send(ConnectionID, [UInt8])
    /// Queue these bytes (whole lines, each ending in LF) on each of these connections: a room's event,
    /// formatted once. One effect for the room, not one per member, so the engine and the shell touch
    /// the event once and each member's connection once, and the buffer is shared, never copied.
    case broadcast([ConnectionID], [UInt8])
    /// Close a connection once its queued lines are written. The core has already forgotten it: its
    /// player is away (or gone) and nothing more is sent or read for it.
    case close(ConnectionID, reason: String)
}

/// Gathers the effects of one call into the core and hands them out in ``Effect``'s order.
///
/// Shared by the core and its rooms, which only ever append to it; the core drains it once per call.
final class Outbox {
    /// The logs, then the records, then the sends, in ``Effect``'s order as they are made: a log goes in
    /// after the logs, a record after the records (ahead of any send, which are few by then), a send at
    /// the end. One array handed over whole at a drain, not three copied out of one by one.
    private var ordered: [Effect] = []
    private var logCount = 0
    private var sendsStart = 0
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

    /// Goes up whenever any room's listeners change: a seat taken or given up, a spectator come or gone,
    /// a seated player's connection changed (see ``Room/listenersChanged()``).
    private(set) var listenersVersion = 0

    /// Notes that a room's listeners changed.
    func noteListenersChanged() { listenersVersion &+= 1 }

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
        ordered.insert(.log(LogEvent(level: level, name: event, fields: fields())), at: logCount)
        logCount += 1
        sendsStart += 1
    }

    func record(_ record: JournalRecord) {
        guard !isReplaying else { return }
        // Usually nothing has been sent yet: appended, where an insert goes through the general
        // replacement of a range (about 90 instructions a chat line, by callgrind).
        if sendsStart == ordered.count {
            ordered.append(.journal(RecordBox(record)))
        } else {
            ordered.insert(.journal(RecordBox(record)), at: sendsStart)
        }
        sendsStart += 1
    }

    func send(_ bytes: [UInt8], to id: ConnectionID) {
        ordered.append(.send(id, bytes))
    }

    func send(_ line: ServerLine, to id: ConnectionID) {
        send(line.bytes, to: id)
    }

    /// Queues one event for every connection in `ids` (none is left out: an empty list queues nothing).
    func broadcast(_ bytes: [UInt8], to ids: [ConnectionID]) {
        guard !ids.isEmpty else { return }
        ordered.append(.broadcast(ids, bytes))
    }

    func close(_ id: ConnectionID, reason: String) {
        closes.append(.close(id, reason: reason))
    }

    /// Everything gathered since the last drain, in order; the outbox is empty afterwards.
    func drain() -> [Effect] {
        var effects: [Effect] = []
        drain(into: &effects)
        return effects
    }

    /// Appends everything gathered since the last drain to `effects`, in order; the outbox is empty
    /// afterwards. A caller that empties `effects` (keeping its capacity) and passes it again reuses one
    /// array from call to call, where ``drain()`` makes one a call.
    func drain(into effects: inout [Effect]) {
        if effects.isEmpty {
            // The array is handed over whole, and the caller's empty one kept for the next call.
            swap(&effects, &ordered)
        } else {
            effects += ordered
            ordered.removeAll(keepingCapacity: ordered.capacity <= 1024)
        }
        logCount = 0
        sendsStart = 0
        if !closes.isEmpty {
            effects += closes
            closes.removeAll(keepingCapacity: true)
        }
    }
}
