import SetServerCore

/// One thing the engine asks its shell to do. The shell carries out a call's actions in order, and is
/// nothing but those actions: epoll, accept, timers and files.
public enum Action: Equatable, Sendable {
    /// Queue these bytes on the connection; the shell writes every connection's queue once per pass.
    case write(ConnectionID, [UInt8])
    /// Queue these bytes on each of these connections (a room's event: one buffer, shared, for all of
    /// them); the shell writes them as it writes ``write(_:_:)``'s. Each connection's output is
    /// accounted as if written to it alone.
    case broadcast([ConnectionID], [UInt8])
    /// Stop reading the connection and close it once its queued bytes are written (or at the closing
    /// deadline, when the engine says ``close(_:)``).
    case finish(ConnectionID)
    /// Close the connection now, dropping whatever is queued for it.
    case close(ConnectionID)
    /// Append a record to the journal. Boxed, as ``Effect/journal(_:)`` is (in the same box, passed
    /// on): inline, a record would make every action hundreds of bytes to copy.
    case journal(RecordBox)
    /// Write the records appended so far (and flush them to disk under `--fsync always`), then tell
    /// the engine how it went with ``Engine/journalCommitted(_:at:)``: whatever acknowledges them is held
    /// until then. Always the last action of a list.
    case commitJournal
    /// Write a line to the log.
    case log(LogEvent)
    /// Call ``Engine/wake(at:)`` at this uptime (it replaces any wake asked for before).
    case wake(at: Double)
    /// Stop the process at once with this status, writing nothing more: a journal write failed, and
    /// the state in memory holds a change the journal does not. A restart restores the journal's state.
    case exit(status: Int32, reason: String)
}

extension Action {
    /// Whether this is ``commitJournal``: a test of the case alone, where `== .commitJournal` would go
    /// through the synthesized equality, which copies the payloads of every action it passes (a few
    /// percent of an engine input's time).
    var isCommit: Bool {
        if case .commitJournal = self { return true }
        return false
    }
}
