/// A line the server sends: a reply's final line, a snapshot line, or an event.
///
/// The same type formats lines in the server and parses them in clients, so the two cannot drift apart.
public enum ServerLine: Equatable, Sendable {
    /// `SETD <version> <text>`: the greeting, sent once on connect.
    case greeting(version: Int, text: String)
    /// `OK <VERB> [<detail>]`: a command succeeded.
    case ok(verb: String, detail: String)
    /// `ERR <VERB> <CODE> <text>`: a command failed.
    case err(verb: String, code: String, text: String)
    /// `ROOM <name> <game> <players> <status>`.
    case room(name: String, game: String, players: Int, status: String)
    /// `OPTIONS <option>=<value> ...`: the room's options.
    case options([(String, String)])
    /// `BOARD <rev> <pos>:<card> ...`.
    case board(revision: Int, cards: [(position: String, card: String)])
    /// `DECK <n>`: cards left to deal.
    case deck(Int)
    /// `CHAIN <card> <card> <card>`: the set the next claim must reuse one card of (chain mode), or
    /// `CHAIN -` when any set goes.
    case chain([String])
    /// `TURN <name>`: whose turn it is (Matchismo), `-` for nobody.
    case turn(String)
    /// `PLAYER <name> <score> <online|away>`.
    case player(name: String, score: Int, isOnline: Bool)
    /// `JOINED <name>`.
    case joined(String)
    /// `LEFT <name>`.
    case left(String)
    /// `SET <name> <card> ...`: somebody took a set.
    case set(name: String, cards: [String])
    /// `WRONG <name> <penalty> <card> ... : <why>`: somebody claimed cards that are not a set.
    case wrong(name: String, penalty: Int, cards: [String], why: String)
    /// `CHOSE <name> <points> <text>`: a Matchismo choice and its history entry.
    case chose(name: String, points: Int, text: String)
    /// `CHAT <name> <text>`.
    case chat(name: String, text: String)
    /// `NEWGAME <name>`: somebody started a new game; its snapshot lines follow.
    case newGame(String)
    /// `VOTE <name> <votes> <needed>`: somebody asked for a new game mid-game.
    case vote(name: String, votes: Int, needed: Int)
    /// `OVER <name>:<score> ...`: the game ended; best score first.
    case over([(name: String, score: Int)])
    /// `HINT <pos>:<card>`: a data line of the `HINT` reply.
    case hint(position: String, card: String)
    /// `HISTORY <fields...>`: a data line of the `HISTORY` reply.
    case history(String)
    /// `HELP <text>`: a data line of the `HELP` reply.
    case help(String)
    /// `PING <token>`: the server checks that the client is alive; answer with `PING`.
    case ping(String)
    /// `BYE <reason>`: the server is closing the connection.
    case bye(String)
    /// A line this version does not know; clients should ignore it.
    case unknown(String)

    public static func == (lhs: ServerLine, rhs: ServerLine) -> Bool { lhs.text == rhs.text }
}

extension ServerLine {
    /// The line as sent, without the LF.
    public var text: String {
        switch self {
        case .greeting(let version, let text): return "SETD \(version) \(text)"
        case .ok(let verb, let detail): return detail.isEmpty ? "OK \(verb)" : "OK \(verb) \(detail)"
        case .err(let verb, let code, let text): return "ERR \(verb) \(code) \(text)"
        case .room(let name, let game, let players, let status):
            return "ROOM \(name) \(game) \(players) \(status)"
        case .options(let pairs): return (["OPTIONS"] + pairs.map { "\($0)=\($1)" }).joined(separator: " ")
        case .board(let revision, let cards):
            return (["BOARD", "\(revision)"] + cards.map { "\($0.position):\($0.card)" }).joined(
                separator: " ")
        case .deck(let n): return "DECK \(n)"
        case .chain(let cards): return "CHAIN " + (cards.isEmpty ? "-" : cards.joined(separator: " "))
        case .turn(let name): return "TURN \(name)"
        case .player(let name, let score, let isOnline):
            return "PLAYER \(name) \(score) \(isOnline ? "online" : "away")"
        case .joined(let name): return "JOINED \(name)"
        case .left(let name): return "LEFT \(name)"
        case .set(let name, let cards): return (["SET", name] + cards).joined(separator: " ")
        case .wrong(let name, let penalty, let cards, let why):
            return (["WRONG", name, "\(penalty)"] + cards + [":", why]).joined(separator: " ")
        case .chose(let name, let points, let text): return "CHOSE \(name) \(points) \(text)"
        case .chat(let name, let text): return "CHAT \(name) \(text)"
        case .newGame(let name): return "NEWGAME \(name)"
        case .vote(let name, let votes, let needed): return "VOTE \(name) \(votes) \(needed)"
        case .over(let scores):
            return (["OVER"] + scores.map { "\($0.name):\($0.score)" }).joined(separator: " ")
        case .hint(let position, let card): return "HINT \(position):\(card)"
        case .history(let text): return "HISTORY \(text)"
        case .help(let text): return "HELP \(text)"
        case .ping(let token): return "PING \(token)"
        case .bye(let reason): return "BYE \(reason)"
        case .unknown(let text): return text
        }
    }

    /// Parses a line from the server. Lines it does not understand become ``unknown(_:)``, never an
    /// error, so a client keeps working against a newer server.
    public init(parsing text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        func rest(after n: Int) -> String {
            var remaining = Substring(text)
            for _ in 0..<n {
                remaining = remaining.drop { $0 == " " }
                remaining = remaining.drop { $0 != " " }
            }
            return String(remaining.dropFirst())
        }
        func pairs(_ items: ArraySlice<String>) -> [(String, String)]? {
            var result: [(String, String)] = []
            for item in items {
                guard let colon = item.lastIndex(of: ":") else { return nil }
                result.append((String(item[..<colon]), String(item[item.index(after: colon)...])))
            }
            return result
        }
        let count = words.count
        switch words.first ?? "" {
        case "SETD" where count >= 2:
            if let version = Int(words[1]) {
                self = .greeting(version: version, text: rest(after: 2))
                return
            }
        case "OK" where count >= 2:
            self = .ok(verb: words[1], detail: rest(after: 2))
            return
        case "ERR" where count >= 3:
            self = .err(verb: words[1], code: words[2], text: rest(after: 3))
            return
        case "ROOM" where count == 5:
            if let players = Int(words[3]) {
                self = .room(name: words[1], game: words[2], players: players, status: words[4])
                return
            }
        case "OPTIONS":
            // Split at the first `=`: `mode:chain` is not an option, and a value may hold a `:`.
            let options = words.dropFirst().map {
                $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            }
            if options.allSatisfy({ $0.count == 2 }) {
                self = .options(options.map { (String($0[0]), String($0[1])) })
                return
            }
        case "BOARD" where count >= 2:
            if let revision = Int(words[1]), let cards = pairs(words.dropFirst(2)) {
                self = .board(revision: revision, cards: cards.map { (position: $0.0, card: $0.1) })
                return
            }
        case "DECK" where count == 2:
            if let n = Int(words[1]) {
                self = .deck(n)
                return
            }
        case "CHAIN" where count >= 2:
            self = .chain(words[1] == "-" ? [] : Array(words.dropFirst()))
            return
        case "TURN" where count == 2:
            self = .turn(words[1])
            return
        case "PLAYER" where count == 4:
            if let score = Int(words[2]), words[3] == "online" || words[3] == "away" {
                self = .player(name: words[1], score: score, isOnline: words[3] == "online")
                return
            }
        case "JOINED" where count == 2:
            self = .joined(words[1])
            return
        case "LEFT" where count == 2:
            self = .left(words[1])
            return
        case "SET" where count >= 3:
            self = .set(name: words[1], cards: Array(words.dropFirst(2)))
            return
        case "WRONG" where count >= 4:
            if let penalty = Int(words[2]), let colon = words.firstIndex(of: ":"), colon >= 3 {
                self = .wrong(
                    name: words[1], penalty: penalty, cards: Array(words[3..<colon]),
                    why: rest(after: colon + 1))
                return
            }
        case "CHOSE" where count >= 3:
            if let points = Int(words[2]) {
                self = .chose(name: words[1], points: points, text: rest(after: 3))
                return
            }
        case "CHAT" where count >= 2:
            self = .chat(name: words[1], text: rest(after: 2))
            return
        case "NEWGAME" where count == 2:
            self = .newGame(words[1])
            return
        case "VOTE" where count == 4:
            if let votes = Int(words[2]), let needed = Int(words[3]) {
                self = .vote(name: words[1], votes: votes, needed: needed)
                return
            }
        case "OVER":
            if let scores = pairs(words.dropFirst()), scores.allSatisfy({ Int($0.1) != nil }) {
                self = .over(scores.map { (name: $0.0, score: Int($0.1)!) })
                return
            }
        case "HINT" where count == 2:
            if let pair = pairs(words.dropFirst())?.first {
                self = .hint(position: pair.0, card: pair.1)
                return
            }
        case "HISTORY": self = .history(rest(after: 1)); return
        case "HELP": self = .help(rest(after: 1)); return
        case "PING": self = .ping(rest(after: 1)); return
        case "BYE": self = .bye(rest(after: 1)); return
        default: break
        }
        self = .unknown(text)
    }

    /// Whether this line ends a reply (`OK …` or `ERR …`).
    public var isFinal: Bool {
        switch self {
        case .ok, .err: return true
        default: return false
        }
    }
}
