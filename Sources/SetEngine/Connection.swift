import SetProtocol
import SetServerCore
import SetWeb

/// The engine's side of one connection, from accept to close: what it speaks, the state of its
/// decoders, its rate limit, its output accounting and its deadlines.
final class Connection {
    /// What a connection speaks. While HTTP is on, a new connection starts `sniffing`; its first bytes
    /// (or its silence) decide the rest.
    ///
    /// The modes a connection passes through on its way in hold their state in a box of their own
    /// (`indirect`): an HTTP head parser is larger than all the rest of a connection, and an idle player
    /// should not carry one.
    enum Mode {
        /// Waiting for the first bytes: `held` are a prefix of `GET ` so far.
        case sniffing(held: [UInt8])
        /// Turned away at accept (the server or its address is full): waiting for its first bytes, or the
        /// end of its window, to be told in the protocol it speaks (503 or `ERR - FULL`).
        indirect case refused(text: String)
        /// Reading an HTTP request head, begun at `since` (uptime).
        indirect case httpHead(HTTPHeadParser, since: Double)
        /// Upgraded: frames in, frames out, one protocol line per text message.
        indirect case webSocket(WebSocketDecoder)
        /// The line protocol, as over `nc`.
        case lineProtocol
        /// Being closed: nothing more is read from it.
        case closing
    }

    let id: ConnectionID
    /// The client: the address every limit counts, every log line shows and the core is told.
    var peer: PeerAddress {
        get { client }
        set {
            keepRelay()
            // The count stays under the key it was made under until the engine moves it.
            if isKeyCounted, relay?.countedKey == nil { relay?.countedKey = client.key }
            client = newValue
        }
    }
    /// The address the socket was accepted from.
    var socketPeer: PeerAddress { relay?.socketPeer ?? client }
    /// Who sends the bytes: the socket's peer, or the client a trusted proxy's PROXY header names.
    /// Forwarding fields of HTTP requests are read only while this is a trusted proxy.
    var sender: PeerAddress {
        get { relay?.sender ?? client }
        set {
            keepRelay()
            relay?.sender = newValue
        }
    }
    private var client: PeerAddress
    /// The socket's peer and the sender once either differs from the client (a proxy's connection);
    /// until then all three are ``peer``, held once: most connections never meet a proxy.
    private var relay: Relay?

    /// Where a proxied connection's bytes come from.
    private final class Relay {
        let socketPeer: PeerAddress
        var sender: PeerAddress
        /// The key the connection is counted under, when that is not its client's (the client changed
        /// after it was counted).
        var countedKey: String?

        init(socketPeer: PeerAddress) { (self.socketPeer, sender) = (socketPeer, socketPeer) }
    }

    /// Keeps the socket's peer and the sender apart before the client or the sender changes.
    private func keepRelay() {
        if relay == nil { relay = Relay(socketPeer: client) }
    }
    /// The address key it is counted under for `--max-per-ip`; `nil` until its client is known (a
    /// trusted proxy's connection is counted once its header or its request names the client), and for a
    /// refused connection.
    ///
    /// Spelled from ``peer`` (or kept in the relay once the peer changed), so that a connection holds a
    /// flag, not a second copy of its address.
    var countedKey: String? {
        get { isKeyCounted ? relay?.countedKey ?? client.key : nil }
        set {
            relay?.countedKey = nil
            isKeyCounted = newValue != nil
            if let newValue, newValue != client.key {
                keepRelay()
                relay?.countedKey = newValue
            }
        }
    }
    /// Whether it is counted under its client's own key (``countedKey`` is ``peer``'s key), told without
    /// spelling the key: the engine asks at every accept and at the end of every sniff window.
    var isCountedUnderPeerKey: Bool { isKeyCounted && relay?.countedKey == nil }
    /// Counts it under its client's own key, as `countedKey = peer.key` does, without spelling the key
    /// to compare it with itself.
    func countUnderPeerKey() {
        relay?.countedKey = nil
        isKeyCounted = true
    }
    /// When its current sniff window ends (uptime): a PROXY header starts a new window for the client's
    /// own first bytes, and the queue's entry of the first window must then not end it. Meaningful while
    /// it is sniffing or refused, which is all the sniff queue acts on.
    var sniffDeadline: Double {
        get { modeTime }
        set { modeTime = newValue }
    }
    /// When it was accepted (uptime): an HTTP connection's life is counted from here.
    let openedAt: Double
    var mode: Mode
    /// Takes telnet's commands out before the framer sees the bytes.
    var telnet = TelnetFilter()
    var framer = LineFramer()
    // The flags together, in the 7 bytes after the framer's 17 that the next word-aligned field leaves:
    // stored properties are laid out in the order they are declared, and at the end they made the
    // object 190 bytes, a 208-byte block of malloc's; here they cost nothing (issue 28).
    /// Whether the first bytes may be a PROXY header (the socket's peer is a trusted proxy and nothing
    /// has been read from it yet).
    var awaitsProxyHeader = false
    /// Whether its first bytes are still to be checked for a PROXY header from a peer not trusted: set for
    /// a connection greeted at accept (`--no-http`), which no sniff looks at.
    var checksFirstBytes = false
    /// Lines in a row that were no command (see ``EngineLimits/junkLinesBeforeClose``).
    var junkLines: UInt8 = 0
    /// Whether it counts against `--max-clients` (a refused connection does not).
    var isCounted = true
    /// Whether it is counted under an address (see ``countedKey``).
    private var isKeyCounted = false
    var limiter: RateLimiter
    /// Bytes queued since the shell last said how much it wrote (see ``Engine/flushed(backlogged:)``).
    var queued: Int {
        get { Int(queuedBytes) }
        set { queuedBytes = UInt32(clamping: newValue) }
    }
    /// Bytes the socket had not taken when the shell last said.
    var backlog: Int {
        get { Int(backlogBytes) }
        set { backlogBytes = UInt32(clamping: newValue) }
    }
    /// ``queued`` and ``backlog`` in 32 bits each, one word for both: a connection is dropped once they
    /// pass the output cap (``ServerConfiguration/maximumOutputBytes``, 1 MiB), so they stay far below
    /// four billion (and a count clamped there is still past any cap).
    private var queuedBytes: UInt32 = 0
    private var backlogBytes: UInt32 = 0
    /// When the engine asked for it to be closed, for the closing deadline; `nil` while it is not
    /// closing, or when it closes at once.
    var closingSince: Double? {
        get {
            guard case .closing = mode, !modeTime.isNaN else { return nil }
            return modeTime
        }
        set { modeTime = newValue ?? .nan }
    }
    /// The one time its mode needs (uptime): the end of its sniff window while it is sniffing or refused
    /// (``sniffDeadline``), when it began closing while it is closing (``closingSince``, NaN for none: an
    /// uptime never is). A connection is never both, so one field serves, and the two words it saved with
    /// ``queued`` and ``backlog`` in one make the object 168 bytes, a 176-byte block of malloc's instead
    /// of 192 (issue 28). A connection that begins closing always sets its closing time, so no sniff
    /// deadline is ever read as one; the sniff queue's entry of a connection that closed finds it closing
    /// and passes it by.
    private var modeTime = 0.0

    init(id: ConnectionID, peer: PeerAddress, mode: Mode, limiter: RateLimiter, at now: Double) {
        self.id = id
        client = peer
        self.mode = mode
        self.limiter = limiter
        openedAt = now
    }

    /// Whether the core knows the connection as a client (the line protocol, or a WebSocket).
    var isCoreClient: Bool {
        switch mode {
        case .lineProtocol, .webSocket: true
        default: false
        }
    }

    /// Whether the core's lines leave as WebSocket text frames.
    var isWebSocket: Bool {
        if case .webSocket = mode { true } else { false }
    }

    /// Whether anything more is read from it.
    var isReading: Bool {
        if case .closing = mode { false } else { true }
    }
}

/// New connections in the order their sniff windows end: all windows are the same length, so that is
/// the order they arrived in, and one wake-up for the oldest serves them all.
struct SniffQueue {
    private var entries: [(id: ConnectionID, deadline: Double)] = []
    private var head = 0

    /// Whether no connection is waiting.
    var isEmpty: Bool { head == entries.count }

    /// When the oldest window ends.
    var nextDeadline: Double? { isEmpty ? nil : entries[head].deadline }

    /// Adds a connection whose window ends at `deadline` (no earlier than any added before).
    mutating func append(_ id: ConnectionID, deadline: Double) {
        entries.append((id, deadline))
    }

    /// Takes out the connections whose windows ended by `now`, oldest first.
    mutating func removeExpired(at now: Double) -> [ConnectionID] {
        var expired: [ConnectionID] = []
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

extension Connection {
    /// Finds a connection in a ``KeyedTable`` by its ID.
    enum ByID: TableKeying {
        static func key(of connection: Connection) -> ConnectionID { connection.id }
    }
}
