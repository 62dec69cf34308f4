import SetServerCore
import SetWeb

extension Engine {
    /// Queues a room's event on each of `ids` that still reads: one ``Action/broadcast(_:_:)`` for the
    /// line-protocol members (the same list when none is left out, so nothing is allocated), and the
    /// WebSocket members' frames, made once for all of them, a write each. Every member's output is
    /// counted against its own cap, and one past it is dropped as a single write would drop it.
    func broadcast(
        _ bytes: [UInt8], to ids: [ConnectionID], framing: inout (lines: [UInt8], frames: [UInt8])?
    ) {
        guard !bytes.isEmpty, !ids.isEmpty else { return }
        let members = audiences.members(of: ids) { connections[$0] }
        // The members kept, made only once one is left out: until then they are `ids` themselves.
        var kept: [ConnectionID]?
        // Read once, counted once: each access to a class's property is checked for exclusivity at
        // run time, and this loop runs once per delivery.
        let limit = outputLimit
        var writes = 0
        // The members are borrowed, not held: holding each for its turn cost a pair of atomic
        // reference-count changes per delivery (issue 28). `members` holds them all until the loop is
        // done, a member dropped here included.
        members.withBorrowedReferences { borrowed in
            for index in borrowed.indices {
                let isKept =
                    borrowed[index]?._withUnsafeGuaranteedRef { connection in
                        if case .lineProtocol = connection.mode {
                            // The usual member, told apart in one read of its mode.
                            writes += 1
                            return admitShare(bytes.count, on: connection, limit: limit)
                        }
                        guard connection.isReading else { return false }
                        if connection.isWebSocket {
                            queue(framed(bytes, framing: &framing), on: connection)
                            return false
                        }
                        return admitOutput(bytes.count, on: connection)
                    } ?? false
                if isKept {
                    kept?.append(ids[index])
                } else if kept == nil {
                    kept = Array(ids[..<index])
                    kept?.reserveCapacity(ids.count - 1)
                }
            }
        }
        queuedWriteCount &+= writes
        let receivers = kept ?? ids
        guard !receivers.isEmpty else { return }
        emit(receivers.count == 1 ? .write(receivers[0], bytes) : .broadcast(receivers, bytes))
    }

    /// ``admitOutput(_:on:)`` for one member of a broadcast, with the cap read once for all of them and
    /// the write counted by the caller.
    @inline(__always)
    private func admitShare(_ count: Int, on connection: Connection, limit: Int) -> Bool {
        let queued = connection.queued
        if queued == 0 { written.append(connection) }
        connection.queued = queued + count
        guard connection.backlog + queued + count <= limit else {
            drop(connection)
            return false
        }
        return true
    }

    /// `lines` as WebSocket text frames, one per line: the last lines framed are kept with their
    /// frames, so an event going to many WebSocket members is framed once.
    func framed(_ lines: [UInt8], framing: inout (lines: [UInt8], frames: [UInt8])?) -> [UInt8] {
        if let framing, framing.lines == lines { return framing.frames }
        let frames = WebSocketLines.frames(forLines: lines)
        framing = (lines, frames)
        return frames
    }
}
