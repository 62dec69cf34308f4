/// One line of the journal: a change that was accepted, in the order it was accepted.
///
/// Games are deterministic from their seed, so the journal keeps what players did, not what the board
/// became: replaying the records through the same rules rebuilds every board, deck, revision and score.
public enum JournalRecord: Equatable, Sendable {
    /// A room was created with these options; its games' seeds all derive from `seed`.
    case room(name: String, seed: UInt64, options: [(String, String)])
    /// Game number `index` of the room started at `time` (Unix seconds) with these options, its board at
    /// revision `firstRevision`.
    case game(room: String, index: Int, time: Double, firstRevision: Int, options: [(String, String)])
    /// A player took a seat (their token lets them `RESUME` it).
    case seat(room: String, name: String, token: String)
    /// A player left their seat.
    case unseat(room: String, name: String)
    /// A seated player dropped (`false`) or came back (`true`); Matchismo's turn order depends on it.
    case presence(room: String, name: String, isOnline: Bool)
    /// A SET claim that was judged (a set or a wrong claim), by card code.
    case claim(room: String, name: String, time: Double, cards: [String])
    /// A Matchismo choice of the card at a position.
    case choose(room: String, name: String, time: Double, position: Int)
    /// Somebody chatted.
    case chat(room: String, name: String, text: String)
    /// The room closed: nobody was left in it.
    case close(room: String)
    /// A finished game, kept for `HISTORY <room>`.
    case archive(room: String, game: ArchivedGame)

    public static func == (lhs: JournalRecord, rhs: JournalRecord) -> Bool { lhs.text == rhs.text }
}

/// A finished game: when it ran, the final scores and every set or choice with its time.
public struct ArchivedGame: Equatable, Sendable {
    /// Unix time the game started.
    public var startedAt: Double
    /// Unix time of its last set or choice.
    public var endedAt: Double
    /// Whether the room had a password: its history is for its players only.
    public var isPrivate = false
    /// Best first.
    public var scores: [(name: String, score: Int)]
    /// Seconds since the start, who, and what: the cards of a set, or a Matchismo history entry.
    public var entries: [(seconds: Int, name: String, detail: String)]

    /// Creates an archived game.
    public init(
        startedAt: Double, endedAt: Double, isPrivate: Bool = false, scores: [(name: String, score: Int)],
        entries: [(seconds: Int, name: String, detail: String)]
    ) {
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.isPrivate = isPrivate
        self.scores = scores
        self.entries = entries
    }

    public static func == (lhs: ArchivedGame, rhs: ArchivedGame) -> Bool {
        JournalRecord.archive(room: "", game: lhs).text == JournalRecord.archive(room: "", game: rhs).text
    }
}

extension JournalRecord {
    /// The record as a journal line, without checksum or LF. Free text comes last, so it may hold
    /// spaces; the fields before it never do.
    public var text: String {
        func pairs(_ options: [(String, String)]) -> String {
            options.map { "\($0)=\($1)" }.joined(separator: " ")
        }
        func time(_ t: Double) -> String { String(Int64((t * 1000).rounded())) }
        switch self {
        case .room(let name, let seed, let options): return "room \(name) \(seed) \(pairs(options))"
        case .game(let room, let index, let t, let first, let options):
            return "game \(room) \(index) \(time(t)) \(first) \(pairs(options))"
        case .seat(let room, let name, let token): return "seat \(room) \(name) \(token)"
        case .unseat(let room, let name): return "unseat \(room) \(name)"
        case .presence(let room, let name, let isOnline):
            return "presence \(room) \(name) \(isOnline ? "online" : "away")"
        case .claim(let room, let name, let t, let cards):
            return "claim \(room) \(name) \(time(t)) \(cards.joined(separator: " "))"
        case .choose(let room, let name, let t, let position):
            return "choose \(room) \(name) \(time(t)) \(position)"
        case .chat(let room, let name, let text): return "chat \(room) \(name) \(text)"
        case .close(let room): return "close \(room)"
        case .archive(let room, let game):
            let scores = game.scores.map { "\($0.name):\($0.score)" }.joined(separator: ",")
            let entries = game.entries.map { "\($0.seconds) \($0.name) \($0.detail)" }.joined(separator: "|")
            let privacy = game.isPrivate ? "private" : "public"
            return
                "archive \(room) \(time(game.startedAt)) \(time(game.endedAt)) \(privacy) \(scores.isEmpty ? "-" : scores) \(entries)"
        }
    }

    /// Parses a journal line (checksum already removed); `nil` if it is not a record.
    public init?(parsing line: String) {
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        func pairs(_ items: ArraySlice<String>) -> [(String, String)]? {
            var result: [(String, String)] = []
            for item in items where !item.isEmpty {
                guard let equals = item.firstIndex(of: "=") else { return nil }
                result.append((String(item[..<equals]), String(item[item.index(after: equals)...])))
            }
            return result
        }
        func time(_ text: String) -> Double? { Int64(text).map { Double($0) / 1000 } }
        func rest(from n: Int) -> String { words.count > n ? words[n...].joined(separator: " ") : "" }
        guard let kind = words.first else { return nil }
        let n = words.count
        switch kind {
        case "room" where n >= 3:
            guard let seed = UInt64(words[2]), let options = pairs(words[3...]) else { return nil }
            self = .room(name: words[1], seed: seed, options: options)
        case "game" where n >= 5:
            guard let index = Int(words[2]), let t = time(words[3]), let first = Int(words[4]),
                let options = pairs(words[5...])
            else { return nil }
            self = .game(room: words[1], index: index, time: t, firstRevision: first, options: options)
        case "seat" where n == 4: self = .seat(room: words[1], name: words[2], token: words[3])
        case "unseat" where n == 3: self = .unseat(room: words[1], name: words[2])
        case "presence" where n == 4 && (words[3] == "online" || words[3] == "away"):
            self = .presence(room: words[1], name: words[2], isOnline: words[3] == "online")
        case "claim" where n >= 5:
            guard let t = time(words[3]) else { return nil }
            self = .claim(room: words[1], name: words[2], time: t, cards: Array(words[4...]))
        case "choose" where n == 5:
            guard let t = time(words[3]), let position = Int(words[4]) else { return nil }
            self = .choose(room: words[1], name: words[2], time: t, position: position)
        case "chat" where n >= 3: self = .chat(room: words[1], name: words[2], text: rest(from: 3))
        case "close" where n == 2: self = .close(room: words[1])
        case "archive" where n >= 6:
            guard let started = time(words[2]), let ended = time(words[3]),
                words[4] == "private" || words[4] == "public"
            else { return nil }
            var scores: [(name: String, score: Int)] = []
            if words[5] != "-" {
                for item in words[5].split(separator: ",") {
                    let parts = item.split(separator: ":")
                    guard parts.count == 2, let score = Int(parts[1]) else { return nil }
                    scores.append((String(parts[0]), score))
                }
            }
            var entries: [(seconds: Int, name: String, detail: String)] = []
            let body = rest(from: 6)
            if !body.isEmpty {
                for item in body.split(separator: "|") {
                    let parts = item.split(separator: " ", maxSplits: 2).map(String.init)
                    guard parts.count == 3, let seconds = Int(parts[0]) else { return nil }
                    entries.append((seconds, parts[1], parts[2]))
                }
            }
            self = .archive(
                room: words[1],
                game: ArchivedGame(
                    startedAt: started, endedAt: ended, isPrivate: words[4] == "private", scores: scores,
                    entries: entries))
        default:
            return nil
        }
    }
}
