import SetProtocol

/// What `set-cli` knows of a game night's room beyond the board: whether the game is waiting to
/// start, who is ready, the countdown, the host, and the score sheet at the end.
///
/// It reads the lines by their words (protocol.md's game-night lines: `READY`, `UNREADY`, `COUNTDOWN`,
/// `HOST`, `STATS`, `DURATION`, `LOCKED`, `UNLOCKED`, and `ROOM … waiting`) from the line's text,
/// so it works the same whether ``ServerLine`` parses them into cases of their own or keeps them as
/// lines it does not know.
public struct GameNight: Equatable, Sendable {
    /// One player's line of the score sheet (`STATS <name> sets=… wrong=… stale=… fastest=… mean=…`).
    public struct Sheet: Equatable, Sendable {
        /// The player.
        public var name: String
        /// Sets taken (matches, in Matchismo).
        public var sets: Int
        /// Claims that were not a set.
        public var wrong: Int
        /// Claims that came too late.
        public var stale: Int
        /// The quickest set, in milliseconds, if any.
        public var fastest: Int?
        /// The mean time of a set, in milliseconds, if any.
        public var mean: Int?
    }

    /// Whether the room's game waits for its players (`ROOM … waiting`).
    public private(set) var isWaiting = false
    /// The players who said `READY`, in the order they did.
    public private(set) var ready: [String] = []
    /// Seated players, as the last `READY` line counted them.
    public private(set) var seated: Int?
    /// The countdown's last number, until the deal.
    public private(set) var countdown: Int?
    /// The room's host, if the server names one.
    public private(set) var host: String?
    /// The score sheet of the game that just ended, in `OVER`'s order.
    public private(set) var sheet: [Sheet] = []
    /// The length of the game that just ended, in milliseconds.
    public private(set) var duration: Int?
    /// The room's standings for the night (`STANDING` lines), best first, as the server last sent them.
    public private(set) var standings: [StandingRow] = []
    /// How many games the standings add up.
    public private(set) var standingsGames = 0
    /// Who offered a rematch since the game ended, and how many online players must.
    public private(set) var rematch: RematchCount?

    /// Rematch offers so far (`REMATCH <name> <offers> <needed>`).
    public struct RematchCount: Equatable, Sendable {
        /// Online players who offered.
        public var offers: Int
        /// Online players in all.
        public var needed: Int
    }

    /// Creates the state of a room nobody has described yet.
    public init() {}

    /// Reads one server line; returns an event for the log when it is news.
    public mutating func apply(_ line: ServerLine) -> LogEntry? {
        let words = line.text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard let verb = words.first else { return nil }
        switch (verb, words.count) {
        case ("ROOM", 5):
            let wasWaiting = isWaiting
            isWaiting = words[4] == "waiting"
            if isWaiting && !wasWaiting {
                ready = []
                countdown = nil
            }
            if words[4] == "playing" {
                countdown = nil
                sheet = []
                duration = nil
            }
        case ("NEWGAME", _):
            sheet = []
            duration = nil
            ready = []
            rematch = nil
        case ("STANDINGS", 2):
            guard let games = Int(words[1]) else { return nil }
            standings = []
            standingsGames = games
            return games == 0 ? .info("the host reset the night's standings") : nil
        case ("STANDING", 8):
            if case .standing(let row) = ServerLine(parsing: line.text) { standings.append(row) }
        case ("REMATCH", 4):
            guard let offers = Int(words[2]), let needed = Int(words[3]) else { return nil }
            rematch = RematchCount(offers: offers, needed: needed)
            return .info("\(words[1]) wants a rematch (\(offers) of \(needed)): /rematch to play again")
        case ("READY", 4):
            guard let count = Int(words[2]), let seated = Int(words[3]) else { return nil }
            if !ready.contains(words[1]) { ready.append(words[1]) }
            self.seated = seated
            return .info("\(words[1]) is ready (\(count) of \(seated))")
        case ("UNREADY", 4):
            guard let count = Int(words[2]), let seated = Int(words[3]) else { return nil }
            ready.removeAll { $0 == words[1] }
            self.seated = seated
            return .info("\(words[1]) is not ready (\(count) of \(seated))")
        case ("COUNTDOWN", 2) where words[1] == "-":
            countdown = nil
            return .problem("the countdown stopped: not everyone is ready")
        case ("COUNTDOWN", 2):
            guard let n = Int(words[1]) else { return nil }
            countdown = n
            return n == 3 ? .info("the game starts in 3 seconds") : nil
        case ("HOST", 2):
            let isChange = host != nil && host != words[1]
            host = words[1]
            return isChange ? .info("\(words[1]) is the host now") : nil
        case ("LOCKED", 2):
            return .info("\(words[1]) locked the room: no new players")
        case ("UNLOCKED", 2):
            return .info("\(words[1]) unlocked the room")
        case ("STATS", 7):
            if let entry = Self.sheet(words) { sheet.append(entry) }
        case ("DURATION", 2):
            duration = Int(words[1])
        default:
            break
        }
        return nil
    }

    /// Forgets the room, for a new snapshot or `LEAVE`.
    public mutating func reset() {
        self = GameNight()
    }

    private static func sheet(_ words: [String]) -> Sheet? {
        var fields: [String: String] = [:]
        for word in words.dropFirst(2) {
            let pair = word.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            fields[String(pair[0])] = String(pair[1])
        }
        guard let sets = fields["sets"].flatMap({ Int($0) }),
            let wrong = fields["wrong"].flatMap({ Int($0) }),
            let stale = fields["stale"].flatMap({ Int($0) })
        else { return nil }
        return Sheet(
            name: words[1], sets: sets, wrong: wrong, stale: stale,
            fastest: fields["fastest"].flatMap { Int($0) },
            mean: fields["mean"].flatMap { Int($0) })
    }

    /// Milliseconds as `m:ss` (a game's length, a clock).
    public static func clock(milliseconds: Int) -> String {
        let seconds = max(0, milliseconds) / 1000
        let s = seconds % 60
        return "\(seconds / 60):\(s < 10 ? "0" : "")\(s)"
    }

    /// Milliseconds as seconds rounded to the nearest tenth, halves up (`1150` → `1.2 s`), or `-`: the
    /// page rounds the same way (`formatSeconds` in its `model.js`).
    public static func seconds(_ milliseconds: Int?) -> String {
        guard let ms = milliseconds, ms >= 0 else { return "-" }
        let tenths = ms / 100 + (ms % 100 >= 50 ? 1 : 0)
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
