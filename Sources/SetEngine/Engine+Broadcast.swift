import SetServerCore
import SetWeb

/// A room's listeners as the core last named them, and their connections: a room sends event after
/// event to the same list (the same array) until someone comes or goes, so its connections are found
/// once, not hashed for every event and member. Entries are found by the list's first member and used
/// only for a list equal to their own (for the same array, a comparison of two addresses); they are
/// all forgotten whenever a connection opens or closes, and once a second, so none holds a connection
/// that is gone or a room that fell silent.
struct Audience {
    let ids: [ConnectionID]
    let connections: [Connection?]
}

extension Engine {
    /// Queues a room's event on each of `ids` that still reads: one ``Action/broadcast(_:_:)`` for the
    /// line-protocol members (the same list when none is left out, so nothing is allocated), and the
    /// WebSocket members' frames, made once for all of them, a write each. Every member's output is
    /// counted against its own cap, and one past it is dropped as a single write would drop it.
    func broadcast(
        _ bytes: [UInt8], to ids: [ConnectionID], framing: inout (lines: [UInt8], frames: [UInt8])?
    ) {
        guard !bytes.isEmpty, let first = ids.first else { return }
        let members: [Connection?]
        if let audience = audiences[first], audience.ids == ids {
            members = audience.connections
        } else {
            members = ids.map { connections[$0] }
            audiences[first] = Audience(ids: ids, connections: members)
        }
        // The members kept, made only once one is left out: until then they are `ids` themselves.
        var kept: [ConnectionID]?
        for index in ids.indices {
            let id = ids[index]
            let connection = members[index]
            let isKept: Bool
            if let connection, connection.isReading {
                if connection.isWebSocket {
                    queue(framed(bytes, framing: &framing), on: connection)
                    isKept = false
                } else {
                    isKept = admitOutput(bytes.count, on: connection)
                }
            } else {
                isKept = false
            }
            if isKept {
                kept?.append(id)
            } else if kept == nil {
                kept = Array(ids[..<index])
                kept?.reserveCapacity(ids.count - 1)
            }
        }
        let receivers = kept ?? ids
        guard !receivers.isEmpty else { return }
        emit(receivers.count == 1 ? .write(receivers[0], bytes) : .broadcast(receivers, bytes))
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
