import SetServerCore
import SetSocket

/// The shell's side of one client connection: its channel, and whether it waits to be written this pass.
/// Everything else about a connection is the engine's. It is its channel's delegate, which holds it
/// until the channel is released.
final class Link {
    let channel: SocketChannel
    /// The shell, which outlives every link (it owns them).
    unowned let shell: Shell
    /// The connection's ID, and in the sign bit whether the link is in the shell's list of links to
    /// flush: in one word, a link is 40 bytes, a 48-byte block of malloc's where a flag of its own made
    /// it a 64-byte one (issue 28). IDs count up from 1 and never come near the sign bit.
    private var idAndMark: Int

    init(id: ConnectionID, channel: SocketChannel, shell: Shell) {
        precondition(id >= 0, "connection IDs count up from 1")
        idAndMark = id
        self.channel = channel
        self.shell = shell
    }

    /// The connection's ID.
    var id: ConnectionID { idAndMark & Int.max }

    /// Whether this link is already in the shell's list of links to flush.
    var isMarkedForFlush: Bool {
        get { idAndMark < 0 }
        set { idAndMark = newValue ? id | Int.min : id }
    }

    /// Finds a link in a ``KeyedTable`` by its connection's ID.
    enum ByID: TableKeying {
        static func key(of link: Link) -> ConnectionID { link.id }
    }
}

/// Limits of the shell: how it reads, how often it ticks, what it does when descriptors run out.
enum ShellLimits {
    /// Bytes read from a socket per system call.
    static let readChunk = 64 * 1024
    /// Reads per readiness event, so one busy client cannot starve the others.
    static let readsPerEvent = 4
    /// How often the engine's timers run, in seconds.
    static let tickInterval = 1.0
    /// Seconds accepting pauses when the process is out of descriptors: long enough that a full backlog
    /// does not spin the loop, short enough that a friend who arrives as one leaves barely waits.
    static let acceptPause = 0.1
    /// Seconds between log lines about running out of descriptors (each says how many were refused).
    static let shortageLogInterval = 10.0
}
