import SetProtocol

/// The counters and latencies of a run, kept per queue and merged for the report.
public struct BenchStats: Sendable, Equatable {
    /// How many protocol-error messages a report keeps, so a broken server cannot flood memory.
    static let keptErrorSamples = 20

    /// Connections open now (greeting received).
    public var connected = 0
    /// Most connections open at once.
    public var peakConnected = 0
    /// Connections made (greeting received), including reconnections.
    public var connects = 0
    /// Connections that failed to open or were refused with `FULL`.
    public var connectFailures = 0
    /// Connections the server closed without being asked to.
    public var disconnects = 0
    /// Seats taken back with `RESUME`.
    public var resumes = 0
    /// Bots seated with `JOIN`.
    public var joins = 0
    /// `CHOOSE` commands sent.
    public var claims = 0
    /// Claims the server took (SET), or matches made (Matchismo).
    public var sets = 0
    /// Deliberately wrong and stale claims sent.
    public var mistakes = 0
    /// Chat lines sent.
    public var chats = 0
    /// Boards dealt with cards on them, as the bots received them (a waiting room's empty board is not).
    public var dealtBoards = 0
    /// Times a bot found its room waiting for its players (`start=ready`).
    public var waitingRooms = 0
    /// `READY`s the bots said.
    public var readies = 0
    /// Commands sent.
    public var commands = 0
    /// Lines received.
    public var lines = 0
    /// Lines received that were not a reply's final line.
    public var events = 0
    /// Those lines by their first word, in the order of ``eventNames``.
    public var eventCounts = [Int](repeating: 0, count: BenchStats.eventNames.count)
    /// Bytes received.
    public var bytes = 0
    /// `ERR` replies by code.
    public var errorCodes: [String: Int] = [:]
    /// `ERR` replies a correct bot should never get from a correct server (a subset of ``errorCodes``).
    public var unexpectedErrors = 0
    /// `BYE` lines by reason.
    public var byes: [String: Int] = [:]
    /// Things the bots saw that break the protocol or the rules.
    public var protocolErrors = 0
    /// Protocol errors of one kind: a claim made in one game and judged in the next, because `BOARD`
    /// revisions restart at 1 each game (a subset of ``protocolErrors``).
    public var revisionReuses = 0
    /// The first few protocol errors, for people.
    public var protocolErrorSamples: [String] = []
    /// The first few unexpected errors, refused connections and dropped connections, for people.
    public var incidentSamples: [String] = []
    /// From a claim's send to its reply, on the claimer.
    public var claimLatency = LatencyHistogram()
    /// From a claim's send to its event (`SET`, `CHOSE`) reaching each other bot in the room.
    public var fanoutLatency = LatencyHistogram()
    /// From a timed chat line's send (``BenchOptions/chatRate``) to its `CHAT` reaching each member.
    public var chatLatency = LatencyHistogram()
    /// From starting to connect to being seated (`OK JOIN` or `OK RESUME`).
    public var seatLatency = LatencyHistogram()

    /// Creates empty statistics.
    public init() {}

    /// The kinds of event lines counted apart, so a report shows what its events per second are made of.
    public static let eventNames = [
        "SET", "BOARD", "DECK", "PLAYER", "ROOM", "OPTIONS", "CHAIN", "TURN", "JOINED", "LEFT", "WRONG",
        "CHOSE",
        "CHAT", "NEWGAME", "VOTE", "OVER", "PING", "BYE", "SETD", "other",
    ]

    /// The index of a line's kind in ``eventNames``.
    static func eventIndex(_ line: ServerLine) -> Int {
        switch line {
        case .set: return 0
        case .board: return 1
        case .deck: return 2
        case .player: return 3
        case .room: return 4
        case .options: return 5
        case .chain: return 6
        case .turn: return 7
        case .joined: return 8
        case .left: return 9
        case .wrong: return 10
        case .chose: return 11
        case .chat: return 12
        case .newGame: return 13
        case .vote: return 14
        case .over: return 15
        case .ping: return 16
        case .bye: return 17
        case .greeting: return 18
        default: return 19
        }
    }

    /// Event counts by kind, leaving out kinds never seen.
    public var eventsByKind: [(kind: String, count: Int)] {
        zip(Self.eventNames, eventCounts).filter { $0.1 > 0 }.map { (kind: $0.0, count: $0.1) }
    }

    /// Counts a protocol error and keeps its text if there is room.
    mutating func recordProtocolError(_ text: String) {
        protocolErrors += 1
        if protocolErrorSamples.count < Self.keptErrorSamples { protocolErrorSamples.append(text) }
    }

    /// Counts an `ERR` a correct bot should not get and keeps its text if there is room.
    mutating func recordUnexpected(_ text: String) {
        unexpectedErrors += 1
        recordIncident(text)
    }

    /// Keeps the text of something that went wrong outside the protocol (a refused connection, a
    /// dropped one) if there is room.
    mutating func recordIncident(_ text: String) {
        if incidentSamples.count < Self.keptErrorSamples { incidentSamples.append(text) }
    }

    /// Adds `other`'s counts; gauges (``connected``, ``peakConnected``) add up too, which is right for
    /// queues that hold disjoint bots.
    public mutating func merge(_ other: BenchStats) {
        connected += other.connected
        peakConnected += other.peakConnected
        connects += other.connects
        connectFailures += other.connectFailures
        disconnects += other.disconnects
        resumes += other.resumes
        joins += other.joins
        claims += other.claims
        sets += other.sets
        mistakes += other.mistakes
        chats += other.chats
        dealtBoards += other.dealtBoards
        waitingRooms += other.waitingRooms
        readies += other.readies
        commands += other.commands
        lines += other.lines
        events += other.events
        for i in eventCounts.indices { eventCounts[i] += other.eventCounts[i] }
        bytes += other.bytes
        errorCodes.merge(other.errorCodes, uniquingKeysWith: +)
        unexpectedErrors += other.unexpectedErrors
        byes.merge(other.byes, uniquingKeysWith: +)
        protocolErrors += other.protocolErrors
        revisionReuses += other.revisionReuses
        for sample in other.protocolErrorSamples where protocolErrorSamples.count < Self.keptErrorSamples {
            protocolErrorSamples.append(sample)
        }
        for sample in other.incidentSamples where incidentSamples.count < Self.keptErrorSamples {
            incidentSamples.append(sample)
        }
        claimLatency.merge(other.claimLatency)
        fanoutLatency.merge(other.fanoutLatency)
        seatLatency.merge(other.seatLatency)
        chatLatency.merge(other.chatLatency)
    }

    /// The counters without the histograms, for the once-a-second progress line.
    var counters: BenchStats {
        var copy = self
        copy.claimLatency = LatencyHistogram()
        copy.fanoutLatency = LatencyHistogram()
        copy.seatLatency = LatencyHistogram()
        copy.chatLatency = LatencyHistogram()
        return copy
    }
}
