import SetWeb

/// What a connection speaks. While HTTP is on, a new connection starts `sniffing`; its first bytes (or
/// its silence) decide the rest.
enum LinkMode {
    /// Waiting for the first bytes: `held` are a prefix of `GET ` so far.
    case sniffing(held: [UInt8])
    /// Reading an HTTP request head, since `since` (uptime), under the registration timeout.
    case httpHead(HTTPHeadParser, since: Double)
    /// An HTTP response is being written; the connection closes after it.
    case httpReply
    /// Upgraded: frames in, frames out, one protocol line per text message.
    case webSocket(WebSocketDecoder)
    /// The line protocol, as over `nc`.
    case lineProtocol

    /// Whether the core's lines leave as WebSocket text frames.
    var isWebSocket: Bool {
        if case .webSocket = self { true } else { false }
    }
}

/// New connections in the order their sniff windows end: all windows are the same length, so that is
/// the order they arrived in, and one timer for the oldest serves them all.
struct SniffQueue {
    private var entries: [(id: Int, deadline: Double)] = []
    private var head = 0

    /// Whether no connection is waiting.
    var isEmpty: Bool { head == entries.count }

    /// When the oldest window ends.
    var nextDeadline: Double? { isEmpty ? nil : entries[head].deadline }

    /// Adds a connection whose window ends at `deadline` (no earlier than any added before).
    mutating func append(_ id: Int, deadline: Double) {
        entries.append((id, deadline))
    }

    /// Takes out the connections whose windows ended by `now`, oldest first.
    mutating func removeExpired(at now: Double) -> [Int] {
        var expired: [Int] = []
        while head < entries.count, entries[head].deadline <= now {
            expired.append(entries[head].id)
            head += 1
        }
        // Give back what was taken out once it is most of the array.
        if head > 256, head * 2 > entries.count {
            entries.removeSubrange(..<head)
            head = 0
        }
        return expired
    }
}
