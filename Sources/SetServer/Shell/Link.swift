import SetProtocol
import SetServerCore
import SetSocket

/// The shell's side of one client connection: its channel, its telnet filter and line framer, and its
/// drain deadline.
final class Link {
    let id: ConnectionID
    let peer: String
    let channel: SocketChannel
    /// Takes telnet's commands out before the framer sees the bytes.
    var telnet = TelnetFilter()
    var framer = LineFramer()
    /// When the core asked for the connection to close, for the drain deadline.
    var closingSince: Double?
    /// Whether this link is already in the shell's list of links to flush.
    var isMarkedForFlush = false
    /// What the connection speaks: the line protocol, or (while HTTP is on) not decided yet, HTTP or a
    /// WebSocket; see Shell+Web.
    var mode = LinkMode.lineProtocol

    init(id: ConnectionID, peer: String, channel: SocketChannel) {
        self.id = id
        self.peer = peer
        self.channel = channel
    }
}

/// Limits of the shell: what one connection may cost in memory and time.
enum ShellLimits {
    /// A client that stops reading can make us hold at most this much output for it before we drop it;
    /// 1 MiB is hundreds of board updates, far more than any reader that is merely slow falls behind.
    static let maximumOutputBytes = 1 << 20
    /// Seconds a closing connection may take to drain its last lines before it is cut.
    static let closingDeadline = 5.0
    /// Bytes read from a socket per system call.
    static let readChunk = 64 * 1024
    /// Reads per readiness event, so one busy client cannot starve the others.
    static let readsPerEvent = 4
    /// How often the core's timers run, in seconds.
    static let tickInterval = 1.0
}
