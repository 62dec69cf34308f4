import SetGame
import SetProtocol

/// What `set-bench` was asked to do, parsed from its command line.
public struct BenchOptions: Equatable, Sendable {
    /// When a run ends.
    public enum Stop: Equatable, Sendable {
        /// After this many seconds.
        case duration(Double)
        /// After this many games finished, counted over all rooms (bounded by ``BenchOptions/timeLimit``).
        case games(Int)
    }

    /// The game the bots' rooms play.
    public enum Game: String, Equatable, Sendable {
        case set
        case matchismo
    }

    /// The server's address.
    public var host = "127.0.0.1"
    /// The server's port.
    public var port: UInt16 = 7777
    /// How many bots connect.
    public var bots = 0
    /// How many rooms the bots are spread over (round robin).
    public var rooms = 0
    /// When the run ends.
    public var stop = Stop.duration(60)
    /// The longest a run may take, whatever ``stop`` says, so that every run ends by itself.
    public var timeLimit = 600.0
    /// How long a bot looks at a new board before it claims, in milliseconds; `0...0` is flat out.
    public var think: ClosedRange<Int> = 2000...8000
    /// The share of claims that are deliberate mistakes: half a wrong set, half a stale one.
    public var mistakes = 0.02
    /// The game of the rooms the bots create.
    public var game = Game.set
    /// The SET mode of the rooms the bots create; `nil` joins with no options (normal, or whatever
    /// the room already is).
    public var mode: String?
    /// Seeds every bot's choices; `nil` picks one from the clock.
    public var seed: UInt64?
    /// Prints the final report as one JSON object instead of text.
    public var json = false
    /// Bots join and then only answer pings: for holding many idle connections.
    public var isIdle = false
    /// Mean seconds between one bot's drop-and-`RESUME`s (0 never drops).
    public var resumeEvery = 120.0
    /// Mean seconds between one bot's chat lines (0 never chats).
    public var chatEvery = 60.0
    /// Chat lines per second over all the senders, each carrying its send time so that receivers measure
    /// the fan-out latency; 0 is off. With it bots only chat (no claims) and ignore their own rate cap.
    public var chatRate = 0.0
    /// How many bots send at ``chatRate`` (the first ones); `nil` is every bot.
    public var chatSenders: Int?
    /// `CHAT`s one sender may have waiting for `OK CHAT`, so that a rate above what the server can take
    /// (flat out) queues no more than this.
    public var chatWindow = 64
    /// New connections per second over the whole fleet, so that a big fleet does not overflow the
    /// server's accept backlog.
    public var connectRate = 2000.0
    /// The most commands per second one bot sends; the server refuses more than 100 per second, and
    /// half of that leaves room for bursts.
    public var commandRate = 50.0
    /// Serial Dispatch queues the bots are dealt over.
    public var queues = 2
    /// The process id of the server, to sample its memory; `nil` skips it.
    public var serverPID: Int32?
    /// The one room every bot joins, instead of generated room names (`--room NAME`, which is
    /// `--rooms 1`): friends who are bots, in your room.
    public var roomName: String?
    /// Bots in a waiting room (`start=ready`) leave the start to the host instead of saying `READY`.
    public var waitsForHost = false
    /// How many loopback addresses the bots connect from, `nil` for the default: 250 against a server on
    /// 127.0.0.0/8 (every such address is this machine), 1 (no choice) elsewhere.
    public var sources: Int?
    /// Suppresses the live progress line.
    public var isQuiet = false

    /// Creates the default options (no bots yet: ``parse(_:)`` requires `--bots`, and `--rooms` or
    /// `--room`).
    public init() {}

    /// Loopback addresses the bots spread over when the server is on loopback: setd lets one address
    /// create 20 rooms (`--max-rooms-per-ip`), so 250 of them let a fleet make 5000, setd's default
    /// `--max-rooms`.
    public static let loopbackSources = 250

    /// Whether `host` is an IPv4 loopback address (or `localhost`), whose 127.0.0.0/8 is all this
    /// machine, so bots can connect from any address in it.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || (host.hasPrefix("127.") && host.split(separator: ".").count == 4)
    }

    /// The addresses the bots connect from, bot `b` from the `b % count`-th: none to choose (`[]`) unless
    /// the server is on loopback.
    public var sourceAddresses: [String] {
        let count = sources ?? (Self.isLoopback(host) ? Self.loopbackSources : 1)
        guard count > 1 else { return [] }
        return (0..<count).map { "127.0.\(($0 + 1) / 256).\(($0 + 1) % 256)" }
    }

    /// The usage text.
    public static let usage = """
        usage: set-bench [--host H] [--port N] --bots N (--room NAME | --rooms R) [--duration S | --games G]
                         [--think MIN-MAX] [--mistakes RATE] [--game set|matchismo] [--seed N] [--json]
          --host H            server address (default 127.0.0.1)
          --port N            server port (default 7777)
          --bots N            bots to connect
          --room NAME         every bot sits down in room NAME: friends who are bots, in your room
          --rooms R           rooms of their own to spread them over (a load test)
          --wait-for-host     in a room waiting for READY (start=ready), bots leave the start to its
                              host instead of saying READY
          --sources N         connect from N loopback addresses 127.0.0.1, 127.0.0.2, ... (default 250
                              when the server is on 127.0.0.0/8, where each counts for setd's
                              --max-rooms-per-ip as another machine; 1 elsewhere)
          --duration S        run for S seconds (default 60)
          --games G           run until G games have finished (at most --time-limit seconds)
          --think MIN-MAX     milliseconds a bot looks at a new board before claiming (default 2000-8000;
                              0 is flat out)
          --mistakes RATE     share of claims that are wrong or stale on purpose (default 0.02)
          --game set|matchismo   game of the rooms (default set)
          --mode M            SET mode of new rooms: normal, junior, chain, ultra, ultrachain,
                              ultra9, megaset, ghostset, 4set, 4setjr, puzzle, shuffle, memory
          --seed N            seed for the bots' choices (default: from the clock)
          --json              print the report as one JSON object
          --idle              bots join and only answer pings (connection holding)
          --resume-every S    mean seconds between a bot's drop and RESUME (default 120; 0 never)
          --chat-every S      mean seconds between a bot's chat lines (default 60; 0 never)
          --chat-rate R       bots only chat, R lines a second over all senders, each line timed
                              from send to every receiver (chat_ms); 0 is off (default)
          --chat-senders N    only the first N bots send at --chat-rate (default: every bot)
          --chat-window N     CHATs a sender may have waiting for OK CHAT (default 64)
          --connect-rate N    new connections per second (default 2000)
          --command-rate N    most commands per second per bot (default 50; the server allows 100)
          --queues N          Dispatch queues for the bots (default 2)
          --server-pid PID    sample the server's resident memory from /proc
          --time-limit S      hard cap on a run's length (default 600)
          --quiet             no progress line
        Exit status 0 for a clean run; 1 when anything went wrong, or the bots took no set (the
        report says why: a room waiting for its host, a think time longer than the run, ...).
        """

    /// Parses arguments (without the program name).
    public static func parse(_ arguments: [String]) throws(BenchOptionsError) -> BenchOptions {
        var options = BenchOptions()
        var duration: Double?
        var games: Int?
        var words = arguments[...]
        func value(_ flag: String) throws(BenchOptionsError) -> String {
            guard let next = words.popFirst() else { throw BenchOptionsError("\(flag) needs a value") }
            return next
        }
        func number<T: LosslessStringConvertible & Comparable>(
            _ flag: String, _ type: T.Type, at least: T, atMost: T? = nil
        ) throws(BenchOptionsError) -> T {
            let text = try value(flag)
            guard let n = T(text), n >= least, atMost.map({ n <= $0 }) ?? true else {
                let bound = atMost.map { "\(least)…\($0)" } ?? "at least \(least)"
                throw BenchOptionsError("\(flag) takes a number \(bound), not '\(text)'")
            }
            return n
        }
        while let flag = words.popFirst() {
            switch flag {
            case "--host": options.host = try value(flag)
            case "--port": options.port = try number(flag, UInt16.self, at: 1)
            case "--bots": options.bots = try number(flag, Int.self, at: 1, atMost: 100_000)
            case "--rooms": options.rooms = try number(flag, Int.self, at: 1, atMost: 100_000)
            case "--duration": duration = try number(flag, Double.self, at: 0.1, atMost: 86_400)
            case "--games": games = try number(flag, Int.self, at: 1)
            case "--time-limit": options.timeLimit = try number(flag, Double.self, at: 1, atMost: 86_400)
            case "--think": options.think = try parseThink(try value(flag))
            case "--mistakes": options.mistakes = try number(flag, Double.self, at: 0, atMost: 1)
            case "--game":
                let text = try value(flag)
                guard let game = Game(rawValue: text.lowercased()) else {
                    throw BenchOptionsError("--game is set or matchismo, not '\(text)'")
                }
                options.game = game
            case "--mode":
                let text = try value(flag).lowercased()
                guard SetMode(rawValue: text) != nil else {
                    let modes = SetMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw BenchOptionsError("--mode is one of \(modes), not '\(text)'")
                }
                options.mode = text
            case "--seed": options.seed = try number(flag, UInt64.self, at: 0)
            case "--json": options.json = true
            case "--idle": options.isIdle = true
            case "--quiet": options.isQuiet = true
            case "--resume-every": options.resumeEvery = try number(flag, Double.self, at: 0)
            case "--chat-every": options.chatEvery = try number(flag, Double.self, at: 0)
            case "--chat-rate": options.chatRate = try number(flag, Double.self, at: 0, atMost: 10_000_000)
            case "--chat-senders": options.chatSenders = try number(flag, Int.self, at: 1)
            case "--chat-window": options.chatWindow = try number(flag, Int.self, at: 1, atMost: 100_000)
            case "--connect-rate": options.connectRate = try number(flag, Double.self, at: 1)
            case "--command-rate": options.commandRate = try number(flag, Double.self, at: 1, atMost: 100)
            case "--queues": options.queues = try number(flag, Int.self, at: 1, atMost: 64)
            case "--server-pid": options.serverPID = try number(flag, Int32.self, at: 1)
            case "--wait-for-host": options.waitsForHost = true
            case "--sources": options.sources = try number(flag, Int.self, at: 1, atMost: 65_535)
            case "--room":
                let name = try value(flag)
                guard TextRules.isValidName(name) else {
                    throw BenchOptionsError("--room takes 1–16 of A–Z a–z 0–9 _ -, not '\(name)'")
                }
                options.roomName = name
            case "-h", "--help": throw BenchOptionsError(usage, isHelp: true)
            case "--version": throw BenchOptionsError(Release.banner("set-bench"), isVersion: true)
            default: throw BenchOptionsError("unknown option '\(flag)'")
            }
        }
        guard options.bots > 0 else { throw BenchOptionsError("--bots is required") }
        if options.roomName != nil, options.rooms == 0 { options.rooms = 1 }
        guard options.rooms > 0 else { throw BenchOptionsError("--room NAME or --rooms R is required") }
        guard options.rooms <= options.bots else {
            throw BenchOptionsError("--rooms \(options.rooms) is more than --bots \(options.bots)")
        }
        if options.roomName != nil, options.rooms != 1 {
            throw BenchOptionsError("--room NAME puts every bot in one room: leave out --rooms")
        }
        if let sources = options.sources, sources > 1, !isLoopback(options.host) {
            throw BenchOptionsError("--sources \(sources) needs a server on 127.0.0.0/8 (--host 127.0.0.1)")
        }
        if options.mode != nil, options.game == .matchismo {
            throw BenchOptionsError("--mode is for --game set")
        }
        switch (duration, games) {
        case (.some, .some): throw BenchOptionsError("give --duration or --games, not both")
        case (.some(let seconds), nil): options.stop = .duration(seconds)
        case (nil, .some(let n)): options.stop = .games(n)
        case (nil, nil): break
        }
        return options
    }

    /// Parses `MIN-MAX` or a single number of milliseconds.
    static func parseThink(_ text: String) throws(BenchOptionsError) -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, (1...2).contains(numbers.count), numbers.allSatisfy({ $0 >= 0 }),
            numbers.first! <= numbers.last!, numbers.last! <= 3_600_000
        else {
            throw BenchOptionsError("--think takes MIN-MAX milliseconds like 500-3000, or 0; not '\(text)'")
        }
        return numbers.first!...numbers.last!
    }

    /// Whether bots only chat at ``chatRate``.
    public var isChatOnly: Bool { chatRate > 0 }

    /// Bots that send chat at ``chatRate``.
    public var chatSenderCount: Int { min(chatSenders ?? bots, bots) }

    /// Whether bots claim as soon as they see a board.
    public var isFlatOut: Bool { think.upperBound == 0 }
}

/// A command line `set-bench` cannot run, with the reason (or the usage, for `--help`).
public struct BenchOptionsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, for people.
    public var message: String
    /// Whether this is the answer to `--help` rather than a mistake.
    public var isHelp: Bool
    /// Whether this is the answer to `--version` (the message is the version line).
    public var isVersion: Bool

    /// Creates an error.
    public init(_ message: String, isHelp: Bool = false, isVersion: Bool = false) {
        self.message = message
        self.isHelp = isHelp
        self.isVersion = isVersion
    }

    public var description: String { message }
}
