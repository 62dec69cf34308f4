/// The one parser of server lines, on bytes.
///
/// It splits at the space byte (0x20) and never at Swift `Character`s: a combining mark or a prepend
/// mark such as U+0600 next to a space fuses with it into one `Character`, and a `Character` split would
/// read `CHAT ann ́hi` as a chat from "ann ́hi". Bytes of a multi-byte UTF-8 sequence are all 0x80 or more,
/// so they never look like a separator. It is also what keeps the load tester ahead of the server it
/// measures: a flat-out room delivers hundreds of thousands of lines a second to it.
extension ServerLine {
    /// Parses a line from the server given as text; the same as parsing its UTF-8 bytes.
    public init(parsing text: String) {
        var text = text
        self = text.withUTF8 { ServerLine(parsingBuffer: $0) }
    }

    /// Parses a line from the server, without its LF. Lines it does not understand become
    /// ``unknown(_:)`` (with the bytes decoded as UTF-8, invalid sequences replaced), never an error, so
    /// a client keeps working against a newer server.
    public init(parsing bytes: some Collection<UInt8>) {
        if let line = bytes.withContiguousStorageIfAvailable({ ServerLine(parsingBuffer: $0) }) {
            self = line
        } else {
            self = Array(bytes).withUnsafeBufferPointer { ServerLine(parsingBuffer: $0) }
        }
    }

    private init(parsingBuffer buffer: UnsafeBufferPointer<UInt8>) {
        let parser = Parser(buffer)
        self = parser.line() ?? .unknown(String(decoding: buffer, as: UTF8.self))
    }
}

/// The words of one line as byte ranges, and the readers of their fields.
private struct Parser {
    let b: UnsafeBufferPointer<UInt8>
    var words: [Range<Int>] = []

    static let space: UInt8 = 0x20
    static let colon: UInt8 = 0x3A
    static let equals: UInt8 = 0x3D

    init(_ b: UnsafeBufferPointer<UInt8>) {
        self.b = b
        // The longest line in practice is a full Matchismo board: 32 words.
        words.reserveCapacity(32)
        var i = 0
        while i < b.count {
            if b[i] == Self.space {
                i += 1
                continue
            }
            let start = i
            while i < b.count, b[i] != Self.space { i += 1 }
            words.append(start..<i)
        }
    }

    /// A word of up to seven bytes as one number: its length, then its bytes. Longer words give 0,
    /// which no key equals.
    static func key(_ bytes: some Collection<UInt8>) -> UInt64 {
        guard bytes.count <= 7 else { return 0 }
        return bytes.reduce(UInt64(bytes.count)) { $0 << 8 | UInt64($1) }
    }

    // Each word's ``key(_:)`` written out as a literal (ServerLineParsingTests read every kind of line
    // through them): a constant made by a call is initialized lazily, and a line's switch checked that
    // for every key it compared, up to forty a line.
    static let setdKey: UInt64 = 0x453455444  // "SETD"
    static let okKey: UInt64 = 0x24F4B  // "OK"
    static let errKey: UInt64 = 0x3455252  // "ERR"
    static let roomKey: UInt64 = 0x4524F4F4D  // "ROOM"
    static let optionsKey: UInt64 = 0x74F5054494F4E53  // "OPTIONS"
    static let boardKey: UInt64 = 0x5424F415244  // "BOARD"
    static let deckKey: UInt64 = 0x44445434B  // "DECK"
    static let chainKey: UInt64 = 0x5434841494E  // "CHAIN"
    static let turnKey: UInt64 = 0x45455524E  // "TURN"
    static let foundKey: UInt64 = 0x5464F554E44  // "FOUND"
    static let clockKey: UInt64 = 0x5434C4F434B  // "CLOCK"
    static let runningKey: UInt64 = 0x772756E6E696E67  // "running"
    static let pausedKey: UInt64 = 0x6706175736564  // "paused"
    static let playerKey: UInt64 = 0x6504C41594552  // "PLAYER"
    static let joinedKey: UInt64 = 0x64A4F494E4544  // "JOINED"
    static let leftKey: UInt64 = 0x44C454654  // "LEFT"
    static let setKey: UInt64 = 0x3534554  // "SET"
    static let wrongKey: UInt64 = 0x557524F4E47  // "WRONG"
    static let choseKey: UInt64 = 0x543484F5345  // "CHOSE"
    static let chatKey: UInt64 = 0x443484154  // "CHAT"
    static let newGameKey: UInt64 = 0x74E455747414D45  // "NEWGAME"
    static let voteKey: UInt64 = 0x4564F5445  // "VOTE"
    static let overKey: UInt64 = 0x44F564552  // "OVER"
    static let hintKey: UInt64 = 0x448494E54  // "HINT"
    static let historyKey: UInt64 = 0x7484953544F5259  // "HISTORY"
    static let helpKey: UInt64 = 0x448454C50  // "HELP"
    static let pingKey: UInt64 = 0x450494E47  // "PING"
    static let byeKey: UInt64 = 0x3425945  // "BYE"
    static let readyKey: UInt64 = 0x55245414459  // "READY"
    static let hostKey: UInt64 = 0x4484F5354  // "HOST"
    static let kickedKey: UInt64 = 0x64B49434B4544  // "KICKED"
    static let lockedKey: UInt64 = 0x64C4F434B4544  // "LOCKED"
    static let unreadyKey: UInt64 = 0x7554E5245414459  // "UNREADY"
    static let startedKey: UInt64 = 0x753544152544544  // "STARTED"
    static let statsKey: UInt64 = 0x55354415453  // "STATS"
    static let ratingKey: UInt64 = 0x6524154494E47  // "RATING"
    static let topKey: UInt64 = 0x3544F50  // "TOP"
    static let tokenKey: UInt64 = 0x5544F4B454E  // "TOKEN"
    static let noticeKey: UInt64 = 0x64E4F54494345  // "NOTICE"
    static let rematchKey: UInt64 = 0x752454D41544348  // "REMATCH"
    static let csvKey: UInt64 = 0x3435356  // "CSV"
    static let onlineKey: UInt64 = 0x66F6E6C696E65  // "online"
    static let awayKey: UInt64 = 0x461776179  // "away"
    static let dashKey: UInt64 = 0x12D  // "-"

    func key(_ k: Int) -> UInt64 { Self.key(UnsafeBufferPointer(rebasing: b[words[k]])) }

    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
    }

    func word(_ k: Int) -> String { text(words[k]) }

    /// What follows word `n` (counting from 1) after one separator byte: the free text of a line.
    func rest(after n: Int) -> String {
        let start = words[n - 1].upperBound + 1
        return start < b.count ? text(start..<b.count) : ""
    }

    /// The number in `range` as `Int(String)` reads it: an optional sign, then ASCII digits, no overflow.
    func int(_ range: Range<Int>) -> Int? {
        var i = range.lowerBound
        var isNegative = false
        if i < range.upperBound, b[i] == 0x2D || b[i] == 0x2B {
            isNegative = b[i] == 0x2D
            i += 1
        }
        guard i < range.upperBound else { return nil }
        var value = 0
        while i < range.upperBound {
            let digit = b[i] &- 0x30
            guard digit < 10 else { return nil }
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            // Negative numbers are built downwards, so `Int.min` reads too.
            let (next, o2) =
                isNegative
                ? shifted.subtractingReportingOverflow(Int(digit))
                : shifted.addingReportingOverflow(Int(digit))
            guard !o1, !o2 else { return nil }
            value = next
            i += 1
        }
        return value
    }

    func int(word k: Int) -> Int? { int(words[k]) }

    /// `<left>:<right>`, split at the last colon (a position or name never holds one; a card `=JH` may
    /// follow it).
    func pair(_ k: Int) -> (Range<Int>, Range<Int>)? {
        let range = words[k]
        guard let colon = range.last(where: { b[$0] == Self.colon }) else { return nil }
        return (range.lowerBound..<colon, (colon + 1)..<range.upperBound)
    }

    func line() -> ServerLine? {
        guard let first = words.first else { return nil }
        let count = words.count
        switch Self.key(UnsafeBufferPointer(rebasing: b[first])) {
        case Self.boardKey where count >= 2:
            guard let revision = int(word: 1) else { return nil }
            var cards: [(position: String, card: String)] = []
            cards.reserveCapacity(count - 2)
            for k in 2..<count {
                guard let (position, card) = pair(k) else { return nil }
                cards.append((position: text(position), card: text(card)))
            }
            return .board(revision: revision, cards: cards)
        case Self.playerKey where count == 4:
            guard let score = int(word: 2) else { return nil }
            switch key(3) {
            case Self.onlineKey: return .player(name: word(1), score: score, isOnline: true)
            case Self.awayKey: return .player(name: word(1), score: score, isOnline: false)
            default: return nil
            }
        case Self.setKey where count >= 3:
            return .set(name: word(1), cards: (2..<count).map(word))
        case Self.deckKey where count == 2:
            return int(word: 1).map { .deck($0) }
        case Self.okKey where count >= 2:
            return .ok(verb: word(1), detail: rest(after: 2))
        case Self.errKey where count >= 3:
            return .err(verb: word(1), code: ErrorCode(rawValue: word(2)), text: rest(after: 3))
        case Self.roomKey where count == 5:
            guard let game = GameKind(rawValue: word(2)), let players = int(word: 3),
                let status = RoomStatus(rawValue: word(4))
            else { return nil }
            return .room(name: word(1), game: game, players: players, status: status)
        case Self.overKey:
            var scores: [(name: String, score: Int)] = []
            scores.reserveCapacity(count - 1)
            for k in 1..<count {
                guard let (name, score) = pair(k), let points = int(score) else { return nil }
                scores.append((name: text(name), score: points))
            }
            return .over(scores)
        case Self.setdKey where count >= 2:
            return int(word: 1).map { .greeting(version: $0, text: rest(after: 2)) }
        case Self.optionsKey:
            // Split at the first `=`: `mode:chain` is not an option, and a value may hold `:` or `=`.
            var options: [(String, String)] = []
            for k in 1..<count {
                let range = words[k]
                guard let equals = range.first(where: { b[$0] == Self.equals }) else { return nil }
                options.append((text(range.lowerBound..<equals), text((equals + 1)..<range.upperBound)))
            }
            return .options(options)
        case Self.chainKey where count >= 2:
            return .chain(key(1) == Self.dashKey ? [] : (1..<count).map(word))
        case Self.turnKey where count == 2:
            return .turn(word(1))
        case Self.foundKey where count >= 3:
            guard let found = int(word: 1), let total = int(word: 2), found == count - 3 else { return nil }
            return .found(
                total: total,
                claims: (3..<count).map { k in
                    // At the comma byte, as every field is split: never at `Character`s.
                    UnsafeBufferPointer(rebasing: b[words[k]]).split(separator: 0x2C).map {
                        String(decoding: $0, as: UTF8.self)
                    }
                })
        case Self.clockKey where count == 3:
            guard let ms = int(word: 1), key(2) == Self.runningKey || key(2) == Self.pausedKey else {
                return nil
            }
            return .clock(milliseconds: ms, isRunning: key(2) == Self.runningKey)
        case Self.joinedKey where count == 2:
            return .joined(word(1))
        case Self.leftKey where count == 2:
            return .left(word(1))
        case Self.wrongKey where count >= 4:
            // The cards end at the first word that is a lone `:`; the reason after it may hold more.
            guard let penalty = int(word: 2),
                let colon = (3..<count).first(where: {
                    words[$0].count == 1 && b[words[$0].lowerBound] == Self.colon
                })
            else { return nil }
            return .wrong(
                name: word(1), penalty: penalty, cards: (3..<colon).map(word), why: rest(after: colon + 1))
        case Self.choseKey where count >= 3:
            return int(word: 2).map { .chose(name: word(1), points: $0, text: rest(after: 3)) }
        case Self.chatKey where count >= 2:
            return .chat(name: word(1), text: rest(after: 2))
        case Self.newGameKey where count == 2:
            return .newGame(word(1))
        case Self.voteKey where count >= 4:
            guard let votes = int(word: 2), let needed = int(word: 3) else { return nil }
            var options: [(String, String)] = []
            for k in 4..<count {
                let range = words[k]
                guard let equals = range.first(where: { b[$0] == Self.equals }) else { return nil }
                options.append((text(range.lowerBound..<equals), text((equals + 1)..<range.upperBound)))
            }
            return .vote(name: word(1), votes: votes, needed: needed, options: options)
        case Self.hintKey where count == 2:
            return pair(1).map { .hint(position: text($0.0), card: text($0.1)) }
        case Self.historyKey: return .history(rest(after: 1))
        case Self.helpKey: return .help(rest(after: 1))
        case Self.pingKey: return .ping(rest(after: 1))
        case Self.tokenKey where count == 2: return .token(word(1))
        case Self.noticeKey where count >= 2: return .notice(rest(after: 1))
        case Self.byeKey: return .bye(rest(after: 1))
        case Self.readyKey where count == 4:
            guard let ready = int(word: 2), let seated = int(word: 3) else { return nil }
            return .ready(name: word(1), ready: ready, seated: seated)
        case Self.hostKey where count == 2: return .host(word(1))
        case Self.kickedKey where count >= 3:
            return .kicked(name: word(1), by: word(2), reason: count > 3 ? rest(after: 3) : nil)
        case Self.unreadyKey where count == 4:
            guard let ready = int(word: 2), let seated = int(word: 3) else { return nil }
            return .unready(name: word(1), ready: ready, seated: seated)
        case Self.startedKey where count == 2: return int(word: 1).map { .started($0) }
        case Self.lockedKey where count == 2: return .locked(word(1))
        case Self.statsKey where count == 7:
            guard let sets = field(2, "sets"), let wrong = field(3, "wrong"), let stale = field(4, "stale"),
                let fastest = optionalField(5, "fastest"), let mean = optionalField(6, "mean")
            else { return nil }
            return .stats(
                ScoreSheetEntry(
                    name: word(1), sets: sets, wrong: wrong, stale: stale, fastest: fastest, mean: mean))
        case Self.ratingKey where count == 9:
            guard let rating = field(3, "rating"), let games = field(4, "games"), let wins = field(5, "wins"),
                let sets = field(6, "sets"), let wrong = field(7, "wrong"), let stale = field(8, "stale")
            else { return nil }
            return .rating(
                RatingEntry(
                    name: word(1), mode: word(2), rating: rating, games: games, wins: wins, sets: sets,
                    wrong: wrong, stale: stale))
        case Self.topKey where count == 5:
            guard let rank = int(word: 1), let rating = int(word: 3), let games = int(word: 4) else {
                return nil
            }
            return .top(rank: rank, name: word(2), rating: rating, games: games)
        case 0 where word(0) == "PROPOSAL":
            return proposal(count)
        case Self.rematchKey where count == 4:
            guard let offers = int(word: 2), let needed = int(word: 3) else { return nil }
            return .rematch(name: word(1), offers: offers, needed: needed)
        case Self.csvKey where count >= 2: return .csv(rest(after: 1))
        case 0 where count == 8 && word(0) == "STANDING":
            guard let place = int(word: 1), let points = field(3, "points"), let wins = field(4, "wins"),
                let games = field(5, "games"), let sets = field(6, "sets"),
                let best = optionalField(7, "best")
            else { return nil }
            return .standing(
                StandingRow(
                    place: place, name: word(2), points: points, wins: wins, games: games, sets: sets,
                    bestMs: best))
        case 0 where count == 2:
            // Words longer than seven bytes have no key: the few such verbs are compared whole.
            switch word(0) {
            case "COUNTDOWN" where key(1) == Self.dashKey: return .countdownStopped
            case "COUNTDOWN": return int(word: 1).map { .countdown($0) }
            case "DURATION": return int(word: 1).map { .duration($0) }
            case "STANDINGS": return int(word: 1).map { .standings(games: $0) }
            case "UNLOCKED": return .unlocked(word(1))
            default: return nil
            }
        default: return nil
        }
    }

    /// `PROPOSAL -`, or `PROPOSAL <votes> <needed> <voter>,... <option>=<value> ...` (the voters are
    /// names, which never hold a comma).
    func proposal(_ count: Int) -> ServerLine? {
        if count == 2, key(1) == Self.dashKey { return .proposal(nil) }
        guard count >= 4, let votes = int(word: 1), let needed = int(word: 2) else { return nil }
        let voters = word(3).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard voters.allSatisfy({ !$0.isEmpty }) else { return nil }
        var options: [(String, String)] = []
        for k in 4..<count {
            let range = words[k]
            guard let equals = range.first(where: { b[$0] == Self.equals }) else { return nil }
            options.append((text(range.lowerBound..<equals), text((equals + 1)..<range.upperBound)))
        }
        return .proposal(Proposal(votes: votes, needed: needed, voters: voters, options: options))
    }

    /// The number in word `k` if it is `<name>=<number>`.
    func field(_ k: Int, _ name: String) -> Int? {
        let range = words[k]
        let prefix = Array(name.utf8) + [Self.equals]
        guard range.count > prefix.count, zip(b[range], prefix).allSatisfy({ $0 == $1 }) else { return nil }
        return int((range.lowerBound + prefix.count)..<range.upperBound)
    }

    /// Word `k` as `<name>=<number>` or `<name>=-` (no figure): `.some(nil)` for `-`, `nil` otherwise.
    func optionalField(_ k: Int, _ name: String) -> Int?? {
        let range = words[k]
        if range.count == name.utf8.count + 2, b[range.upperBound - 1] == 0x2D,
            b[range.upperBound - 2] == Self.equals, zip(b[range], name.utf8).allSatisfy({ $0 == $1 })
        {
            return .some(nil)
        }
        return field(k, name).map { .some($0) }
    }
}
