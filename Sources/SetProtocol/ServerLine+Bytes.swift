extension ServerLine {
    /// The line as sent, and its LF, as bytes: exactly `text`'s UTF-8 and an LF. Every line a server sends
    /// is made here, straight into one array (the text is this array read as UTF-8): building each line as
    /// strings interpolated and joined, then copied into bytes, cost about 2,500 instructions a line.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        append(to: &bytes)
        bytes.append(0x0A)
        return bytes
    }

    /// Appends the line as sent, without its LF, to `bytes`.
    public func append(to bytes: inout [UInt8]) {
        var out = LineWriter(bytes: bytes)
        bytes = []
        defer { bytes = out.bytes }
        switch self {
        case .greeting(let version, let text): out.words("SETD", version, text)
        case .ok(let verb, let detail):
            out.words("OK", verb)
            if !detail.isEmpty { out.word(detail) }
        case .err(let verb, let code, let text): out.words("ERR", verb, code.rawValue, text)
        case .room(let name, let game, let players, let status):
            out.words("ROOM", name, game.rawValue, players, status.rawValue)
        case .options(let pairs):
            out.start("OPTIONS")
            for (key, value) in pairs { out.pair(key, value) }
        case .board(let revision, let cards):
            out.words("BOARD", revision)
            for (position, card) in cards {
                out.word(position)
                out.raw(0x3A)
                out.raw(card)
            }
        case .deck(let n): out.words("DECK", n)
        case .chain(let cards):
            out.start("CHAIN")
            if cards.isEmpty { out.word("-") }
            for card in cards { out.word(card) }
        case .turn(let name): out.words("TURN", name)
        case .found(let total, let claims):
            out.words("FOUND", claims.count, total)
            for claim in claims {
                out.raw(0x20)
                for (index, card) in claim.enumerated() {
                    if index > 0 { out.raw(0x2C) }
                    out.raw(card)
                }
            }
        case .clock(let ms, let isRunning): out.words("CLOCK", ms, isRunning ? "running" : "paused")
        case .player(let name, let score, let isOnline):
            out.words("PLAYER", name, score, isOnline ? "online" : "away")
        case .joined(let name): out.words("JOINED", name)
        case .left(let name): out.words("LEFT", name)
        case .set(let name, let cards):
            out.words("SET", name)
            for card in cards { out.word(card) }
        case .wrong(let name, let penalty, let cards, let why):
            out.words("WRONG", name, penalty)
            for card in cards { out.word(card) }
            out.words(":", why)
        case .chose(let name, let points, let text): out.words("CHOSE", name, points, text)
        case .chat(let name, let text): out.words("CHAT", name, text)
        case .newGame(let name): out.words("NEWGAME", name)
        case .vote(let name, let votes, let needed, let options):
            out.words("VOTE", name, votes, needed)
            for (key, value) in options { out.pair(key, value) }
        case .over(let scores):
            out.start("OVER")
            for (name, score) in scores {
                out.word(name)
                out.raw(0x3A)
                out.number(score)
            }
        case .hint(let position, let card):
            out.words("HINT", position)
            out.raw(0x3A)
            out.raw(card)
        case .history(let text): out.words("HISTORY", text)
        case .help(let text): out.words("HELP", text)
        case .ping(let token): out.words("PING", token)
        case .bye(let reason): out.words("BYE", reason)
        case .ready(let name, let ready, let seated): out.words("READY", name, ready, seated)
        case .countdown(let n): out.words("COUNTDOWN", n)
        case .host(let name): out.words("HOST", name)
        case .kicked(let name, let host, let reason):
            out.words("KICKED", name, host)
            if let reason { out.word(reason) }
        case .countdownStopped: out.words("COUNTDOWN", "-")
        case .unready(let name, let ready, let seated): out.words("UNREADY", name, ready, seated)
        case .started(let ms): out.words("STARTED", ms)
        case .proposal(nil): out.words("PROPOSAL", "-")
        case .proposal(let p?):
            out.words("PROPOSAL", p.votes, p.needed)
            out.raw(0x20)
            for (index, voter) in p.voters.enumerated() {
                if index > 0 { out.raw(0x2C) }
                out.raw(voter)
            }
            for (key, value) in p.options { out.pair(key, value) }
        case .locked(let host): out.words("LOCKED", host)
        case .unlocked(let host): out.words("UNLOCKED", host)
        case .stats(let entry): out.start(entry.text)
        case .duration(let ms): out.words("DURATION", ms)
        case .rating(let entry): out.start(entry.text)
        case .top(let rank, let name, let rating, let games): out.words("TOP", rank, name, rating, games)
        case .token(let token): out.words("TOKEN", token)
        case .notice(let text): out.words("NOTICE", text)
        case .rematch(let name, let offers, let needed): out.words("REMATCH", name, offers, needed)
        case .standings(let games): out.words("STANDINGS", games)
        case .standing(let row): out.start(row.text)
        case .csv(let text): out.words("CSV", text)
        case .unknown(let text): out.start(text)
        }
    }

    /// `CHAT <name> <text>` and its LF, as bytes, made straight from the name's and the text's UTF-8:
    /// exactly `ServerLine.chat(name:text:).text` and an LF, without the string made in between. A busy
    /// room's events are nearly all chat lines, and each was a string, then copied into bytes.
    public static func chatBytes(name: String, text: String) -> [UInt8] {
        var name = name
        var text = text
        return name.withUTF8 { name in
            text.withUTF8 { text in
                let prefix: StaticString = "CHAT "
                let count = prefix.utf8CodeUnitCount + name.count + 1 + text.count + 1
                // Written on the stack, then made an array by copying: `Array(unsafeUninitializedCapacity:)`
                // reached the runtime's generic array allocation, which looks its type up in a table every
                // call (a twentieth of the engine's instructions a chat line), where copying a buffer is
                // compiled for bytes.
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { bytes in
                    var at = bytes.baseAddress!
                    at.initialize(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
                    at += prefix.utf8CodeUnitCount
                    if let base = name.baseAddress { at.initialize(from: base, count: name.count) }
                    at += name.count
                    at.initialize(to: 0x20)
                    at += 1
                    if let base = text.baseAddress { at.initialize(from: base, count: text.count) }
                    at += text.count
                    at.initialize(to: 0x0A)
                    return Array(bytes)
                }
            }
        }
    }
}

/// A word of a server line: text as its UTF-8, or a number as its decimal digits.
protocol LineWord {
    func write(to bytes: inout [UInt8])
}

extension String: LineWord {
    func write(to bytes: inout [UInt8]) {
        var text = self
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }
}

extension Int: LineWord {
    /// Its decimal digits, with a minus sign below zero: what `"\(self)"` writes.
    func write(to bytes: inout [UInt8]) {
        if self < 0 { bytes.append(0x2D) }
        let first = bytes.count
        var magnitude = self.magnitude
        repeat {
            bytes.append(0x30 + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[first...].reverse()
    }
}

/// Writes a line's words separated by single spaces.
struct LineWriter {
    var bytes: [UInt8]
    /// Where the line began in `bytes` (a word after it gets a space before it).
    private let start: Int

    init(bytes: [UInt8]) {
        self.bytes = bytes
        start = bytes.count
    }

    /// The line's first word, or its whole text.
    mutating func start(_ text: String) { text.write(to: &bytes) }

    /// A space, then `word`.
    mutating func word(_ word: some LineWord) {
        if bytes.count > start { bytes.append(0x20) }
        word.write(to: &bytes)
    }

    mutating func words(_ a: some LineWord, _ b: some LineWord) {
        word(a)
        word(b)
    }

    mutating func words(_ a: some LineWord, _ b: some LineWord, _ c: some LineWord) {
        words(a, b)
        word(c)
    }

    mutating func words(_ a: some LineWord, _ b: some LineWord, _ c: some LineWord, _ d: some LineWord) {
        words(a, b, c)
        word(d)
    }

    mutating func words(
        _ a: some LineWord, _ b: some LineWord, _ c: some LineWord, _ d: some LineWord, _ e: some LineWord
    ) {
        words(a, b, c, d)
        word(e)
    }

    /// A space, then `key=value`.
    mutating func pair(_ key: String, _ value: String) {
        word(key)
        bytes.append(0x3D)
        value.write(to: &bytes)
    }

    /// A byte with no space before it.
    mutating func raw(_ byte: UInt8) { bytes.append(byte) }

    /// Text with no space before it.
    mutating func raw(_ text: String) { text.write(to: &bytes) }

    /// A number with no space before it.
    mutating func number(_ n: Int) { n.write(to: &bytes) }
}
