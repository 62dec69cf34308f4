import Foundation

/// The figures of a finished run, as text for people or one JSON object for scripts.
public struct BenchReport: Sendable {
    /// The server's resident memory over the run, sampled from `/proc`.
    public struct ServerMemory: Sendable, Equatable {
        /// Before the first bot connected, in KiB.
        public var baselineKiB: Int
        /// The most seen, in KiB.
        public var peakKiB: Int
        /// At the moment the most bots were connected, in KiB.
        public var atPeakConnectionsKiB: Int
        /// How many bots were connected then.
        public var connectionsAtPeak: Int

        /// Creates a memory record.
        public init(baselineKiB: Int, peakKiB: Int, atPeakConnectionsKiB: Int, connectionsAtPeak: Int) {
            self.baselineKiB = baselineKiB
            self.peakKiB = peakKiB
            self.atPeakConnectionsKiB = atPeakConnectionsKiB
            self.connectionsAtPeak = connectionsAtPeak
        }

        /// Memory the server spent per connection: growth over the baseline at the busiest moment.
        public var bytesPerConnection: Int {
            connectionsAtPeak == 0 ? 0 : (atPeakConnectionsKiB - baselineKiB) * 1024 / connectionsAtPeak
        }
    }

    /// The bots asked for.
    public var bots: Int
    /// The rooms asked for.
    public var rooms: Int
    /// The game played.
    public var game: String
    /// Seconds from the first connection to the start of the goodbyes.
    public var seconds: Double
    /// Most connections open at once.
    public var connectionsHeld: Int
    /// Games that ended.
    public var gamesFinished: Int
    /// Everything counted.
    public var stats: BenchStats
    /// The server's memory, when its process id was given.
    public var serverMemory: ServerMemory?
    /// This process's peak resident memory, in KiB.
    public var benchPeakKiB: Int?
    /// Why a run that should have played took no set (see ``noSetsReason(stats:options:seconds:)``),
    /// `nil` when it took some or was not meant to play.
    public var noSetsReason: String?

    /// Creates a report.
    public init(
        bots: Int, rooms: Int, game: String, seconds: Double, connectionsHeld: Int, gamesFinished: Int,
        stats: BenchStats, serverMemory: ServerMemory? = nil, benchPeakKiB: Int? = nil,
        noSetsReason: String? = nil
    ) {
        self.noSetsReason = noSetsReason
        self.bots = bots
        self.rooms = rooms
        self.game = game
        self.seconds = seconds
        self.connectionsHeld = connectionsHeld
        self.gamesFinished = gamesFinished
        self.stats = stats
        self.serverMemory = serverMemory
        self.benchPeakKiB = benchPeakKiB
    }

    private func perSecond(_ n: Int) -> Double { seconds > 0 ? Double(n) / seconds : 0 }

    /// Claims sent per second.
    public var claimsPerSecond: Double { perSecond(stats.claims) }
    /// Sets taken per second.
    public var setsPerSecond: Double { perSecond(stats.sets) }
    /// Event lines delivered to bots per second.
    public var eventsPerSecond: Double { perSecond(stats.events) }

    /// Whether the run saw nothing wrong: no protocol errors, no unexpected `ERR`, no dropped or
    /// refused connections, and bots that were meant to play took sets.
    public var isClean: Bool {
        stats.protocolErrors == 0 && stats.unexpectedErrors == 0 && stats.disconnects == 0
            && stats.connectFailures == 0 && noSetsReason == nil
    }

    /// Why bots meant to play (not `--idle`, not `--chat-rate`) took no set in a run of `seconds`,
    /// in words a host can act on; `nil` when they took one.
    public static func noSetsReason(stats: BenchStats, options: BenchOptions, seconds: Double) -> String? {
        guard stats.sets == 0, !options.isIdle, !options.isChatOnly else { return nil }
        let room = options.roomName.map { "room \($0)" } ?? "the rooms"
        let run = String(format: "%.0f s", seconds)
        if stats.joins + stats.resumes == 0 {
            return "the bots took no set: none sat down in \(room) (the errors above say why)"
        }
        if stats.dealtBoards == 0, stats.waitingRooms > 0 {
            if options.waitsForHost {
                return "the bots took no set: \(room) waited for its host to START it (--wait-for-host) "
                    + "for the whole \(run)"
            }
            return "the bots took no set: \(room) waited for its players for the whole \(run) "
                + "(the bots said READY; the people seated must too, or its host START it)"
        }
        if stats.claims == 0 {
            return "the bots took no set: none claimed in \(run) (--think \(options.think.lowerBound)-"
                + "\(options.think.upperBound) ms a board; a longer --duration gives them time)"
        }
        return "the bots took no set: \(stats.claims) claims in \(run), none taken"
    }

    /// The report as one JSON object on one line.
    public var json: String {
        var object = JSONObject()
        object.add("bots", bots)
        object.add("rooms", rooms)
        object.add("game", game)
        object.add("seconds", seconds, decimals: 2)
        object.add("connections_held", connectionsHeld)
        object.add("connects", stats.connects)
        object.add("resumes", stats.resumes)
        object.add("games", gamesFinished)
        object.add("sets", stats.sets)
        object.add("sets_per_s", setsPerSecond, decimals: 2)
        object.add("claims", stats.claims)
        object.add("claims_per_s", claimsPerSecond, decimals: 2)
        object.add("mistakes", stats.mistakes)
        object.add("chats", stats.chats)
        object.add("commands", stats.commands)
        object.add("events", stats.events)
        object.add("events_per_s", eventsPerSecond, decimals: 1)
        var kinds = JSONObject()
        for (kind, n) in stats.eventsByKind { kinds.add(kind, n) }
        object.addRaw("events_by_kind", kinds.text)
        object.add("events_by_kind_counts", Self.eventsByKindMeaning)
        object.add("bytes_received", stats.bytes)
        object.addRaw("claim_ms", Self.latencyJSON(stats.claimLatency))
        object.addRaw("fanout_ms", Self.latencyJSON(stats.fanoutLatency))
        object.addRaw("seat_ms", Self.latencyJSON(stats.seatLatency))
        object.addRaw("chat_ms", Self.latencyJSON(stats.chatLatency))
        object.add("chat_deliveries", stats.chatLatency.count)
        object.add("chat_deliveries_per_s", perSecond(stats.chatLatency.count), decimals: 1)
        var errors = JSONObject()
        for (code, n) in stats.errorCodes.sorted(by: { $0.key < $1.key }) { errors.add(code, n) }
        object.addRaw("errors", errors.text)
        object.add("unexpected_errors", stats.unexpectedErrors)
        object.add("protocol_errors", stats.protocolErrors)
        object.add("revision_reuses", stats.revisionReuses)
        object.add("disconnects", stats.disconnects)
        object.add("connect_failures", stats.connectFailures)
        var byes = JSONObject()
        for (reason, n) in stats.byes.sorted(by: { $0.key < $1.key }) { byes.add(reason, n) }
        object.addRaw("byes", byes.text)
        object.addRaw("protocol_error_samples", JSONObject.array(stats.protocolErrorSamples))
        object.addRaw("incident_samples", JSONObject.array(stats.incidentSamples))
        if let memory = serverMemory {
            var m = JSONObject()
            m.add("baseline_kib", memory.baselineKiB)
            m.add("peak_kib", memory.peakKiB)
            m.add("at_peak_connections_kib", memory.atPeakConnectionsKiB)
            m.add("connections_at_peak", memory.connectionsAtPeak)
            m.add("bytes_per_connection", memory.bytesPerConnection)
            object.addRaw("server_rss", m.text)
        }
        if let kib = benchPeakKiB { object.add("bench_peak_rss_kib", kib) }
        if let noSetsReason { object.add("no_sets_reason", noSetsReason) }
        object.add("clean", isClean)
        return object.text
    }

    static func latencyJSON(_ histogram: LatencyHistogram) -> String {
        var object = JSONObject()
        object.add("p50", histogram.percentile(50), decimals: 3)
        object.add("p90", histogram.percentile(90), decimals: 3)
        object.add("p99", histogram.percentile(99), decimals: 3)
        object.add("max", histogram.maximumMilliseconds, decimals: 3)
        object.add("count", histogram.count)
        return object.text
    }

    /// What the by-kind counts count, said in the text and the JSON report alike: every line that
    /// is not a reply's final `OK`/`ERR` — events and the data lines of snapshots and listings — by its
    /// first word, summed over all bots (one `SET` reaches every bot in the room).
    public static let eventsByKindMeaning =
        "lines received that are not a reply's OK/ERR (events and snapshot data), by first word, summed over all bots"

    /// The report as a few lines of text for people.
    public var text: String {
        func f(_ x: Double, _ decimals: Int = 1) -> String { String(format: "%.\(decimals)f", x) }
        func latency(_ h: LatencyHistogram) -> String {
            guard h.count > 0 else { return "no samples" }
            return
                "p50 \(f(h.percentile(50), 3))  p90 \(f(h.percentile(90), 3))  p99 \(f(h.percentile(99), 3))"
                + "  max \(f(h.maximumMilliseconds, 3)) ms  (\(h.count) samples)"
        }
        var lines = [
            "set-bench: \(bots) bots in \(rooms) \(game) rooms for \(f(seconds)) s"
                + (isClean ? "" : "  — NOT CLEAN"),
            "  connections held  \(connectionsHeld)  (\(stats.connects) made, \(stats.resumes) resumed)",
            "  games finished    \(gamesFinished)",
            "  sets taken        \(stats.sets)  (\(f(setsPerSecond)) /s)",
            "  claims            \(stats.claims)  (\(f(claimsPerSecond)) /s, \(stats.mistakes) deliberate mistakes)",
            "  events delivered  \(stats.events)  (\(f(eventsPerSecond)) /s)",
            "    lines by kind   "
                + stats.eventsByKind.map { "\($0.kind) \($0.count)" }.joined(separator: ", ")
                + "  (\(Self.eventsByKindMeaning))",
            "  claim → reply     \(latency(stats.claimLatency))",
            "  claim → others    \(latency(stats.fanoutLatency))",
            "  connect → seated  \(latency(stats.seatLatency))",
        ]
        let codes = stats.errorCodes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        lines.append("  error replies     " + (codes.isEmpty ? "none" : codes.joined(separator: ", ")))
        lines.append(
            "  unexpected        \(stats.unexpectedErrors) errors, \(stats.disconnects) disconnects, "
                + "\(stats.connectFailures) failed connects")
        lines.append(
            "  protocol errors   \(stats.protocolErrors)"
                + (stats.revisionReuses > 0
                    ? " (\(stats.revisionReuses) claims judged in the next game)" : ""))
        for sample in stats.protocolErrorSamples.prefix(5) { lines.append("    \(sample)") }
        for sample in stats.incidentSamples.prefix(5) { lines.append("    \(sample)") }
        if !stats.byes.isEmpty {
            lines.append(
                "  BYE               "
                    + stats.byes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                    .joined(separator: ", "))
        }
        if let memory = serverMemory {
            lines.append(
                "  server RSS        \(memory.baselineKiB) KiB idle, \(memory.atPeakConnectionsKiB) KiB with "
                    + "\(memory.connectionsAtPeak) connections: \(memory.bytesPerConnection) bytes each "
                    + "(peak \(memory.peakKiB) KiB)")
        }
        if let kib = benchPeakKiB { lines.append("  set-bench RSS     \(kib) KiB peak") }
        if let noSetsReason { lines.append("  NOT CLEAN: \(noSetsReason)") }
        return lines.joined(separator: "\n")
    }
}

/// A JSON object written key by key, in the order given, so reports diff well.
struct JSONObject {
    private var members: [String] = []

    mutating func add(_ key: String, _ value: Int) { members.append("\(Self.quoted(key)):\(value)") }
    mutating func add(_ key: String, _ value: Bool) { members.append("\(Self.quoted(key)):\(value)") }
    mutating func add(_ key: String, _ value: String) {
        members.append("\(Self.quoted(key)):\(Self.quoted(value))")
    }
    mutating func add(_ key: String, _ value: Double, decimals: Int) {
        let number = value.isFinite ? String(format: "%.\(decimals)f", value) : "null"
        members.append("\(Self.quoted(key)):\(number)")
    }
    mutating func addRaw(_ key: String, _ json: String) { members.append("\(Self.quoted(key)):\(json)") }

    var text: String { "{" + members.joined(separator: ",") + "}" }

    static func array(_ strings: [String]) -> String {
        "[" + strings.map(quoted).joined(separator: ",") + "]"
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
