/// What the detail of an `OK <VERB> <detail>` line says, read by its verb (protocol.md, "Commands"), so
/// that clients never split a detail themselves.
///
/// ``ServerLine/ok(verb:detail:)`` keeps the detail as text, so the wire does not depend on this type;
/// this is how a client reads it. A detail is read only in exactly the shape the server formats it
/// (``detail`` gives the same text back); anything else is ``other(verb:detail:)``, so a newer server's
/// longer detail is never half-read.
public enum OKDetail: Equatable, Sendable {
    /// `OK HELLO <name> <token>`: the name taken, and the token that gets the seat back after a drop.
    case hello(name: String, token: String)
    /// `OK RESUME <name> [<room> <count>]`: the identity taken back, and the room of the seat with the
    /// number of snapshot lines before this line, if there was a seat (`count` is 0 without one).
    case resume(name: String, room: String?, count: Int)
    /// `OK JOIN <room> <count>`: `count` snapshot lines came before.
    case join(room: String, count: Int)
    /// `OK WATCH <room> <count>`: `count` snapshot lines came before.
    case watch(room: String, count: Int)
    /// `OK STATE <count>`: `count` snapshot lines came before.
    case state(count: Int)
    /// `OK HELP <count>`: how many `HELP` lines the reply had.
    case help(count: Int)
    /// `OK HINT <count>`: how many `HINT` lines the reply had (one).
    case hint(count: Int)
    /// `OK LEAVE <room>`: the room left.
    case leave(room: String)
    /// `OK ROOMS <count>`: how many `ROOM` lines the reply had.
    case rooms(count: Int)
    /// `OK HISTORY <count>`: how many `HISTORY` lines the reply had.
    case history(count: Int)
    /// `OK CHOOSE <card> ...`: the set taken (SET) or the card turned (Matchismo).
    case choose(cards: [String])
    /// `OK NEW started` or `OK NEW voted <votes>/<needed>`.
    case new(NewGameOutcome)
    /// `OK READY <ready> <seated>`: `ready` of the `seated` online players are ready.
    case ready(ready: Int, seated: Int)
    /// `OK UNREADY <ready> <seated>`: `ready` of the `seated` online players are ready.
    case unready(ready: Int, seated: Int)
    /// `OK STATS <count>`: how many `RATING` lines the reply had.
    case stats(count: Int)
    /// `OK TOP <count>`: how many `TOP` lines the reply had.
    case top(count: Int)
    /// `OK STANDINGS <count>`: how many lines (`STANDINGS`, `STANDING` or `CSV`) the reply had.
    case standings(count: Int)
    /// `OK REMATCH started` or `OK REMATCH offered <offers>/<needed>`.
    case rematch(RematchOutcome)
    /// Any other `OK`: a verb whose reply carries no detail (`CHAT`, `PING` …), a verb this
    /// version does not know, or a detail that is not in its documented shape.
    case other(verb: String, detail: String)

    /// What `NEW` did.
    public enum NewGameOutcome: Equatable, Sendable {
        /// The new game started at once.
        case started
        /// The game is running with others online: this was a vote, and the count so far.
        case voted(votes: Int, needed: Int)
    }

    /// What `REMATCH` did.
    public enum RematchOutcome: Equatable, Sendable {
        /// Everyone online had offered: the new game started.
        case started
        /// The offer stands, with how many of the online players have offered so far.
        case offered(offers: Int, needed: Int)
    }

    /// Reads the detail of an `OK` line with the given verb.
    public init(verb: String, detail: String) {
        self = Self.reading(verb: verb, detail: detail) ?? .other(verb: verb, detail: detail)
    }

    private static func reading(verb: String, detail: String) -> OKDetail? {
        let words = detail.utf8.split(separator: 0x20, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard !detail.isEmpty, !words.contains(where: \.isEmpty) else { return nil }
        let read: OKDetail?
        switch (verb, words.count) {
        case ("HELLO", 2): read = .hello(name: words[0], token: words[1])
        case ("RESUME", 1): read = .resume(name: words[0], room: nil, count: 0)
        case ("RESUME", 3): read = Int(words[2]).map { .resume(name: words[0], room: words[1], count: $0) }
        case ("JOIN", 2): read = Int(words[1]).map { .join(room: words[0], count: $0) }
        case ("WATCH", 2): read = Int(words[1]).map { .watch(room: words[0], count: $0) }
        case ("STATE", 1): read = Int(words[0]).map { .state(count: $0) }
        case ("HELP", 1): read = Int(words[0]).map { .help(count: $0) }
        case ("HINT", 1): read = Int(words[0]).map { .hint(count: $0) }
        case ("LEAVE", 1): read = .leave(room: words[0])
        case ("ROOMS", 1): read = Int(words[0]).map { .rooms(count: $0) }
        case ("HISTORY", 1): read = Int(words[0]).map { .history(count: $0) }
        case ("CHOOSE", _): read = .choose(cards: words)
        case ("READY", 2):
            guard let ready = Int(words[0]), let seated = Int(words[1]) else { return nil }
            read = .ready(ready: ready, seated: seated)
        case ("UNREADY", 2):
            guard let ready = Int(words[0]), let seated = Int(words[1]) else { return nil }
            read = .unready(ready: ready, seated: seated)
        case ("STATS", 1): read = Int(words[0]).map { .stats(count: $0) }
        case ("TOP", 1): read = Int(words[0]).map { .top(count: $0) }
        case ("STANDINGS", 1): read = Int(words[0]).map { .standings(count: $0) }
        case ("REMATCH", 1) where words[0] == "started": read = .rematch(.started)
        case ("REMATCH", 2) where words[0] == "offered":
            let parts = words[1].split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let offers = Int(parts[0]), let needed = Int(parts[1]) else { return nil }
            read = .rematch(.offered(offers: offers, needed: needed))
        case ("NEW", 1) where words[0] == "started": read = .new(.started)
        case ("NEW", 2) where words[0] == "voted":
            let parts = words[1].split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let votes = Int(parts[0]), let needed = Int(parts[1]) else { return nil }
            read = .new(.voted(votes: votes, needed: needed))
        default: read = nil
        }
        // Only the canonical text counts (`+3` or `03` is not a count the server would send).
        return read.flatMap { $0.detail == detail ? $0 : nil }
    }

    /// The verb of the `OK` line.
    public var verb: String {
        switch self {
        case .hello: return "HELLO"
        case .resume: return "RESUME"
        case .join: return "JOIN"
        case .watch: return "WATCH"
        case .leave: return "LEAVE"
        case .rooms: return "ROOMS"
        case .history: return "HISTORY"
        case .state: return "STATE"
        case .help: return "HELP"
        case .hint: return "HINT"
        case .choose: return "CHOOSE"
        case .new: return "NEW"
        case .ready: return "READY"
        case .unready: return "UNREADY"
        case .stats: return "STATS"
        case .top: return "TOP"
        case .standings: return "STANDINGS"
        case .rematch: return "REMATCH"
        case .other(let verb, _): return verb
        }
    }

    /// The detail as the server formats it.
    public var detail: String {
        switch self {
        case .hello(let name, let token): return "\(name) \(token)"
        case .resume(let name, let room, let count): return room.map { "\(name) \($0) \(count)" } ?? name
        case .join(let room, let count), .watch(let room, let count): return "\(room) \(count)"
        case .leave(let room): return room
        case .rooms(let count), .history(let count), .state(let count), .help(let count), .hint(let count),
            .stats(let count), .top(let count), .standings(let count):
            return "\(count)"
        case .ready(let ready, let seated), .unready(let ready, let seated): return "\(ready) \(seated)"
        case .choose(let cards): return cards.joined(separator: " ")
        case .new(.started): return "started"
        case .new(.voted(let votes, let needed)): return "voted \(votes)/\(needed)"
        case .rematch(.started): return "started"
        case .rematch(.offered(let offers, let needed)): return "offered \(offers)/\(needed)"
        case .other(_, let detail): return detail
        }
    }

    /// The `OK` line that says this.
    public var line: ServerLine { .ok(verb: verb, detail: detail) }

    /// How many data lines the reply says came right before this line (protocol.md, "Replies and
    /// events"): the count at the end of `ROOMS`, `HISTORY`, `HELP`, `HINT`, `STATS`, `TOP`, `JOIN`,
    /// `WATCH`, `STATE` and `RESUME`, and 0 for every other reply.
    public var dataCount: Int {
        switch self {
        case .resume(_, _, let count), .join(_, let count), .watch(_, let count): return count
        case .rooms(let count), .history(let count), .state(let count), .help(let count), .hint(let count),
            .stats(let count), .top(let count), .standings(let count):
            return count
        case .hello, .leave, .choose, .new, .ready, .unready, .rematch, .other: return 0
        }
    }
}

extension ServerLine {
    /// The typed detail of an `OK` line, or `nil` for any other line.
    public var okDetail: OKDetail? {
        guard case .ok(let verb, let detail) = self else { return nil }
        return OKDetail(verb: verb, detail: detail)
    }
}
