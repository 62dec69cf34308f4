/// Pairs the server's replies with the commands a client sent: the one place a client decides which
/// command a line answers.
///
/// The rule is protocol.md's ("Replies and events"): replies come in the order the commands were sent,
/// so every final line (`OK …`/`ERR …`) answers the oldest command still waiting; a reply's data lines
/// come right before its final line, which says how many there are (``OKDetail/dataCount``); every
/// other line is an event. That is what lets a client pipeline commands and still tell a claim's `ERR`
/// from a chat's, and a `ROOM` event from a `ROOMS` line.
///
/// A line in the shape of the oldest command's data (``ServerLine/isData(ofReplyTo:)``), or one this
/// version does not know while that command's reply may have data, may be either, so it is held back
/// until the final line's count says (or a line that cannot be data shows the held ones were events:
/// data lines are never split). Every other line is an event at once.
///
/// `Context` is whatever the client wants back with the reply (the line it sent, when it sent it, what a
/// claim was meant to be). The tracker does no I/O; a client calls ``sent(_:context:)`` when it queues a
/// command and ``receive(_:)`` for every line, and ``removeAll()`` when the connection is lost.
public struct ReplyTracker<Context> {
    /// A command sent and not answered yet.
    public struct Pending {
        /// The command's verb, upper case, as its reply's final line names it.
        public let verb: String
        /// What the client keeps with the command.
        public var context: Context

        /// Creates a pending command.
        public init(verb: String, context: Context) {
            self.verb = verb
            self.context = context
        }
    }

    /// A command's complete reply.
    public struct Reply {
        /// The command it answers.
        public var command: Pending
        /// The final line: ``ServerLine/ok(verb:detail:)`` or ``ServerLine/err(verb:code:text:)``.
        public var line: ServerLine
        /// The reply's data lines, in order.
        public var data: [ServerLine]

        /// The verb the final line names; it differs from the command's only if the server broke the
        /// order (or the line had no verb, `-`).
        public var verb: String {
            switch line {
            case .ok(let verb, _), .err(let verb, _, _): return verb
            default: return "-"
            }
        }

        /// The typed detail of an `OK`, or `nil` for an `ERR`.
        public var okDetail: OKDetail? { line.okDetail }

        /// The code of an `ERR`, or `nil` for an `OK`.
        public var errorCode: ErrorCode? {
            if case .err(_, let code, _) = line { return code }
            return nil
        }
    }

    /// What one line from the server was.
    public enum Received {
        /// An event: not part of any reply.
        case event(ServerLine)
        /// A data line of the reply to `command` (the oldest pending one), kept for its ``Reply``.
        case data(ServerLine, command: Pending)
        /// A final line, ending the reply to the oldest pending command, which is no longer pending.
        case reply(Reply)
        /// A final line with no command pending: a broken server, or a refusal sent before any command
        /// (`ERR - FULL` instead of the greeting).
        case unexpected(ServerLine)
    }

    /// Oldest first. An array: a client has a handful of commands in flight, and removing the first of
    /// a few is cheaper than any ring buffer's bookkeeping.
    private var queue: [Pending] = []
    /// Lines in the shape of the oldest command's data, not yet known to be data or events.
    private var held: [ServerLine] = []

    /// Creates a tracker with nothing pending.
    public init() {}

    /// How many commands wait for their reply.
    public var count: Int { queue.count }

    /// Whether no command waits for its reply.
    public var isEmpty: Bool { queue.isEmpty }

    /// The command the next final line answers.
    public var oldest: Pending? { queue.first }

    /// The pending commands, oldest first.
    public var pending: [Pending] { queue }

    /// The pending command at `position`, 0 being the oldest; a client may update its context (say,
    /// when the command's bytes actually left).
    public subscript(position: Int) -> Pending {
        get { queue[position] }
        set {
            precondition(newValue.verb == queue[position].verb, "a pending command keeps its verb")
            queue[position] = newValue
        }
    }

    /// Notes that a command with `verb` was sent (or queued to be sent): its reply comes after the replies
    /// of every command sent before it.
    public mutating func sent(_ verb: String, context: Context) {
        queue.append(Pending(verb: verb, context: context))
    }

    /// Sorts one line from the server into events, reply data and replies, in the order the server sent
    /// them. Usually one; none while the line is held back (it may be data or an event); several when a
    /// final line or a line that cannot be data settles the held ones.
    public mutating func receive(_ line: ServerLine) -> [Received] {
        guard let oldest = queue.first else {
            return [line.isFinal ? .unexpected(line) : .event(line)]
        }
        if line.isFinal {
            queue.removeFirst()
            // The last <count> lines before the final line are the data; the held lines before them
            // were events. An ERR has no data.
            let count = min(line.okDetail?.dataCount ?? 0, held.count)
            let events = held.dropLast(count).map { Received.event($0) }
            let data = Array(held.suffix(count))
            held.removeAll(keepingCapacity: true)
            let reply = Reply(command: oldest, line: line, data: data)
            return events + data.map { .data($0, command: oldest) } + [.reply(reply)]
        }
        if line.mayBeData(ofReplyTo: oldest.verb) {
            held.append(line)
            return []
        }
        // Data lines are never split by an event, so everything held so far was an event too.
        let events = held.map { Received.event($0) } + [.event(line)]
        held.removeAll(keepingCapacity: true)
        return events
    }

    /// Forgets every pending command, as when the connection is lost: none of them will be answered.
    /// Returns them, oldest first.
    @discardableResult
    public mutating func removeAll() -> [Pending] {
        let dropped = queue
        queue.removeAll()
        held.removeAll()
        return dropped
    }
}

extension ReplyTracker: Sendable where Context: Sendable {}
extension ReplyTracker.Pending: Sendable where Context: Sendable {}
extension ReplyTracker.Pending: Equatable where Context: Equatable {}
extension ReplyTracker.Reply: Sendable where Context: Sendable {}
extension ReplyTracker.Received: Sendable where Context: Sendable {}
