import SetGame
import SetProtocol

extension JournalRecord {
    /// The journal format this version writes.
    public static let formatVersion = 2

    /// The record's fields, escaped and joined: the line without its checksum and LF.
    public var body: [UInt8] {
        var out = RecordWriter()
        write(to: &out)
        return out.body
    }

    /// Appends ``body`` to `buffer`, with no array made for the body alone (a check comparing whole
    /// snapshots writes every record's into one buffer it keeps).
    public func appendBody(to buffer: inout [UInt8]) {
        var out = RecordWriter(continuing: &buffer)
        write(to: &out)
        out.finish(into: &buffer)
    }

    /// Writes the record's kind and fields to `out`.
    private func write(to out: inout RecordWriter) {
        switch self {
        case .header(let version):
            out.append("setd-journal")
            out.append(version)
        case .snapshot(let snapshot):
            out.append("snapshot")
            snapshot.write(to: &out)
        case .room(let name, let seed, let options):
            out.append("room")
            out.append(name)
            out.append(seed)
            out.append(pairs: options)
        case .game(let room, let index, let time, let first, let options):
            out.append("game")
            out.append(room)
            out.append(index)
            out.append(time: time)
            out.append(first)
            out.append(pairs: options)
        case .seat(let room, let name, let token):
            out.append("seat")
            out.append(room)
            out.append(name)
            out.append(token)
        case .token(let room, let name, let old, let new):
            out.append("token")
            out.append(room)
            out.append(name)
            out.append(old)
            out.append(new)
        case .unseat(let room, let name):
            out.append("unseat")
            out.append(room)
            out.append(name)
        case .presence(let room, let name, let isOnline):
            out.append("presence")
            out.append(room)
            out.append(name)
            out.append(isOnline)
        case .claim(let room, let name, let time, let cards):
            out.append("claim")
            out.append(room)
            out.append(name)
            out.append(time: time)
            out.append(list: cards)
        case .choose(let room, let name, let time, let position):
            out.append("choose")
            out.append(room)
            out.append(name)
            out.append(time: time)
            out.append(position)
        case .chat(let room, let name, let text):
            out.append("chat")
            out.append(room)
            out.append(name)
            out.append(text)
        case .close(let room):
            out.append("close")
            out.append(room)
        case .archive(let room, let game):
            out.append("archive")
            out.append(room)
            if let fields = game.fields {
                out.append(written: fields.bytes)
            } else {
                game.write(to: &out)
            }
        case .vote(let room, let name, let options):
            out.append("vote")
            out.append(room)
            out.append(name)
            out.append(pairs: options)
        case .restart(let time):
            out.append("restart")
            out.append(time: time)
        case .countdown(let room):
            out.append("countdown")
            out.append(room)
        case .ready(let room, let name):
            out.append("ready")
            out.append(room)
            out.append(name)
        case .unready(let room, let name):
            out.append("unready")
            out.append(room)
            out.append(name)
        case .deal(let room, let time):
            out.append("deal")
            out.append(room)
            out.append(time: time)
        case .clock(let room, let change, let time):
            out.append("clock")
            out.append(room)
            out.append(change.rawValue)
            out.append(time: time)
        case .stale(let room, let name):
            out.append("stale")
            out.append(room)
            out.append(name)
        case .lock(let room, let isLocked, let host):
            out.append("lock")
            out.append(room)
            out.append(isLocked)
            out.append(host)
        case .kick(let room, let name, let host, let address, let until):
            out.append("kick")
            out.append(room)
            out.append(name)
            out.append(host)
            if let until {
                out.append(address)
                out.append(time: until)
            }
        case .allow(let room, let name, let host):
            out.append("allow")
            out.append(room)
            out.append(name)
            out.append(host)
        case .rating(let name, let mode, let rating, let games, let wins, let sets, let wrong, let stale):
            out.append("rating")
            out.append(name)
            out.append(mode)
            out.append(rating)
            for figure in [games, wins, sets, wrong, stale] { out.append(figure) }
        case .gain(let name, let mode, let time, let amount):
            out.append("gain")
            out.append(name)
            out.append(mode)
            out.append(time: time)
            out.append(amount)
        case .nameClaim(let name, let salt, let digest):
            out.append("name-claim")
            out.append(name)
            out.append(salt)
            out.append(digest)
        case .nameKey(let name, let secret, let address, let claimedAt, let usedAt):
            out.append("name-key")
            out.append(name)
            out.append(secret)
            out.append(address)
            out.append(time: claimedAt)
            out.append(time: usedAt)
        case .nameUsed(let name, let time):
            out.append("name-used")
            out.append(name)
            out.append(time: time)
        case .nameFree(let name):
            out.append("name-free")
            out.append(name)
        case .recordEvent(let room, let event):
            out.append("event")
            out.append(room)
            out.append(event: event)
        case .rematch(let room, let name):
            out.append("rematch")
            out.append(room)
            out.append(name)
        case .standingsReset(let room, let host):
            out.append("standings-reset")
            out.append(room)
            out.append(host)
        }
    }

    /// The record as readable text (its body), for logs and tests.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The whole line as written: body, checksum, LF.
    public var line: [UInt8] { JournalCoding.line(body: body) }

    /// Appends ``line`` to `out`, with no array made for the line alone.
    public func appendLine(to out: inout [UInt8]) {
        let start = out.count
        appendBody(to: &out)
        JournalCoding.finishLine(bodyFrom: start, in: &out)
    }

    /// Reads a record from a body whose checksum was verified.
    public init(body: ArraySlice<UInt8>) throws(JournalFormatError) {
        var reader = RecordReader(body: body)
        do {
            self = try Self.read(&reader)
            try reader.finish()
        } catch {
            throw JournalFormatError(description: error.description)
        }
    }

    private static func read(_ r: inout RecordReader) throws(RecordReader.Malformed) -> JournalRecord {
        let kind = try r.text()
        switch kind {
        case "setd-journal": return .header(version: try r.int())
        case "snapshot": return .snapshot(try RoomSnapshot(reading: &r))
        case "room": return .room(name: try r.text(), seed: try r.uint64(), options: try r.pairs())
        case "game":
            return .game(
                room: try r.text(), index: try r.int(), time: try r.time(), firstRevision: try r.int(),
                options: try r.pairs())
        case "seat": return .seat(room: try r.text(), name: try r.text(), token: try r.text())
        case "unseat": return .unseat(room: try r.text(), name: try r.text())
        case "token":
            return .token(room: try r.text(), name: try r.text(), old: try r.text(), new: try r.text())
        case "presence": return .presence(room: try r.text(), name: try r.text(), isOnline: try r.bool())
        case "claim":
            return .claim(room: try r.text(), name: try r.text(), time: try r.time(), cards: try r.list())
        case "choose":
            return .choose(room: try r.text(), name: try r.text(), time: try r.time(), position: try r.int())
        case "chat": return .chat(room: try r.text(), name: try r.text(), text: try r.text())
        case "close": return .close(room: try r.text())
        case "archive":
            let room = try r.text()
            let written = r.unread
            let started = try r.time()
            let ended = try r.time()
            let isPrivate = try r.bool()
            let password = try r.text()
            var scores: [(name: String, score: Int)] = []
            for _ in 0..<(try r.count()) { scores.append((try r.text(), try r.int())) }
            var entries: [(seconds: Int, name: String, detail: String)] = []
            for _ in 0..<(try r.count()) { entries.append((try r.int(), try r.text(), try r.text())) }
            var sheet: [ScoreSheetEntry] = []
            var duration: Int?
            if !r.isAtEnd {
                func figure(_ n: Int) -> Int? { n < 0 ? nil : n }
                for _ in 0..<(try r.count()) {
                    let name = try r.text()
                    let (sets, wrong, stale) = (try r.int(), try r.int(), try r.int())
                    let (fastest, mean) = (try r.int(), try r.int())
                    sheet.append(
                        ScoreSheetEntry(
                            name: name, sets: sets, wrong: wrong, stale: stale, fastest: figure(fastest),
                            mean: figure(mean)))
                }
                duration = figure(try r.int())
            }
            var record: GameRecord?
            // The record's JSON when it is exactly what writing the record gives, so the bytes kept
            // below are checked without writing the record a second time.
            var writtenJSON: String?
            if !r.isAtEnd {
                let json = try r.text()
                if let exact = GameRecord.parseAsWritten(json) {
                    record = exact
                    writtenJSON = json
                } else {
                    guard let parsed = GameRecord.parse(json) else {
                        throw RecordReader.Malformed(
                            description: "an archived game's record that is not its JSON")
                    }
                    record = parsed
                }
            }
            var game = ArchivedGame(
                startedAt: started, endedAt: ended, password: isPrivate ? password : nil, scores: scores,
                entries: entries, sheet: sheet, duration: duration, record: record)
            if r.isAtEnd { game.keepBytes(ifWrittenAs: written, recordJSON: writtenJSON) }
            return .archive(room: room, game: game)
        case "vote": return .vote(room: try r.text(), name: try r.text(), options: try r.pairs())
        case "countdown": return .countdown(room: try r.text())
        case "restart": return .restart(time: try r.time())
        case "ready": return .ready(room: try r.text(), name: try r.text())
        case "unready": return .unready(room: try r.text(), name: try r.text())
        case "deal": return .deal(room: try r.text(), time: try r.time())
        case "clock":
            let room = try r.text()
            let text = try r.text()
            guard let change = ClockChange(rawValue: text) else {
                throw RecordReader.Malformed(description: "'\(text.prefix(20))' is not a change of a clock")
            }
            return .clock(room: room, change: change, time: try r.time())
        case "stale": return .stale(room: try r.text(), name: try r.text())
        case "lock": return .lock(room: try r.text(), isLocked: try r.bool(), by: try r.text())
        case "kick":
            let room = try r.text()
            let name = try r.text()
            let host = try r.text()
            // A kick from before bans has no address and no end.
            guard !r.isAtEnd else { return .kick(room: room, name: name, by: host) }
            return .kick(room: room, name: name, by: host, address: try r.text(), until: try r.time())
        case "allow": return .allow(room: try r.text(), name: try r.text(), by: try r.text())
        case "rating":
            return .rating(
                name: try r.text(), mode: try r.text(), rating: try r.uint64(), games: try r.int(),
                wins: try r.int(), sets: try r.int(), wrong: try r.int(), stale: try r.int())
        case "gain":
            return .gain(name: try r.text(), mode: try r.text(), time: try r.time(), amount: try r.uint64())
        case "name-claim": return .nameClaim(name: try r.text(), salt: try r.text(), digest: try r.text())
        case "name-key":
            return .nameKey(
                name: try r.text(), secret: try r.text(), address: try r.text(), claimedAt: try r.time(),
                usedAt: try r.time())
        case "name-used": return .nameUsed(name: try r.text(), time: try r.time())
        case "name-free": return .nameFree(name: try r.text())
        case "event":
            let room = try r.text()
            guard let event = GameRecord.Event.parse(try r.text()) else {
                throw RecordReader.Malformed(description: "a game record's event that is not its JSON")
            }
            return .recordEvent(room: room, event: event)
        case "rematch": return .rematch(room: try r.text(), name: try r.text())
        case "standings-reset": return .standingsReset(room: try r.text(), by: try r.text())
        default:
            throw RecordReader.Malformed(description: "unknown record kind '\(kind.prefix(20))'")
        }
    }
}

/// Why bytes are not a journal record.
public struct JournalFormatError: Error, CustomStringConvertible, Equatable {
    /// What is wrong.
    public var description: String

    /// Creates an error.
    public init(description: String) { self.description = description }
}

extension RecordWriter {
    mutating func append(pairs: [(String, String)]) {
        append(pairs.count)
        for (key, value) in pairs {
            append(key)
            append(value)
        }
    }
}

extension RecordWriter {
    /// A count, then each card's code: what `append(list:)` of the codes writes, with no list made.
    mutating func append(cards: [Card]) {
        append(cards.count)
        for card in cards { append(written: CardFields.written[card.index]) }
    }

    /// A count, then each number: what `append(list:)` of their texts writes, with no text made.
    mutating func append(numbers: [Int]) {
        append(numbers.count)
        for number in numbers { append(number) }
    }
}

extension RecordReader {
    mutating func pairs() throws(Malformed) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for _ in 0..<(try count()) { pairs.append((try text(), try text())) }
        return pairs
    }

    mutating func setCards() throws(Malformed) -> [Card] {
        // Read field by field, with no list of codes in between: a snapshot holds every card of a deck.
        let size = try self.count()
        var cards: [Card] = []
        cards.reserveCapacity(min(size, Card.universe.count))
        for _ in 0..<size {
            // A field that is some card's code as written reads as that code reads (the table holds
            // what `Card(anyCode:)` gives for it); any other field is read as text, as before.
            if let field = peekedField, let card = CardFields.card(written: field) {
                skip()
                cards.append(card)
                continue
            }
            let code = try text()
            // Any deck's code: MegaSet's and 4Set's cards read as the classic ones always did.
            guard let card = try? Card(anyCode: code) else {
                throw Malformed(description: "'\(code)' is not a card")
            }
            cards.append(card)
        }
        return cards
    }
}

extension RoomSnapshot {
    func write(to out: inout RecordWriter) {
        out.append(name)
        out.append(seed)
        out.append(pairs: options)
        out.append(gameIndex)
        out.append(time: startedAt)
        out.append(historyTimes.count)
        for time in historyTimes { out.append(time: time) }
        out.append(votes.count)
        for vote in votes {
            out.append(vote.name)
            out.append(pairs: vote.options)
        }
        out.append(creator)
        out.append(seats.count)
        for seat in seats {
            out.append(seat.name)
            out.append(seat.token)
            out.append(seat.isOnline)
        }
        switch game {
        case .set(let state):
            out.append("set")
            out.append(state.options.mode.rawValue)
            out.append(state.options.wrongClaimPenalty)
            out.append(state.seed)
            out.append(state.revision)
            out.append(cards: state.board)
            out.append(cards: state.deck)
            out.append(scores: state.scores)
            out.append(state.takenSets.count)
            for taken in state.takenSets {
                out.append(taken.player)
                out.append(taken.revision)
                out.append(cards: taken.cards)
            }
            out.append(state.wrongClaims)
            out.append(state.chainCards != nil)
            out.append(cards: state.chainCards ?? [])
        case .matchismo(let state):
            out.append("matchismo")
            out.append(state.matchCount)
            out.append(state.deckCount)
            out.append(state.revision)
            out.append(state.slots.count)
            for slot in state.slots {
                out.append(slot.card.code)
                out.append(slot.isMatched ? "matched" : slot.isFaceUp ? "up" : "down")
            }
            out.append(list: state.players)
            out.append(scores: state.scores)
            out.append(state.turn != nil)
            out.append(state.turn ?? "")
            out.append(state.history.count)
            for choice in state.history {
                out.append(choice.player)
                out.append(choice.points)
                out.append(choice.isMatch)
                out.append(list: choice.scored.map(\.code))
                out.append(choice.text)
            }
            out.append(list: state.absent.sorted())
        }
        // The game-night state comes last, so a snapshot written before it still reads.
        out.append("night")
        out.append(night.isWaiting)
        out.append(list: night.ready)
        out.append(night.host != nil)
        out.append(night.host ?? "")
        out.append(night.isLocked)
        out.append(list: night.kicked)
        let players = night.tally.players.sorted { $0.key < $1.key }
        out.append(players.count)
        for (name, player) in players {
            out.append(name)
            out.append(player.sets)
            out.append(player.wrong)
            out.append(player.stale)
            out.append(numbers: player.setTimes)
        }
        let arrivals = night.tally.arrivals.sorted { $0.key < $1.key }
        out.append(arrivals.count)
        for (code, time) in arrivals {
            out.append(code)
            out.append(time)
        }
        // The later modes' play (puzzle's found sets, a pause, time called, the time spent paused) is a
        // section too, written only when there is some, so a room of the first modes writes what it
        // always wrote.
        let play = playSection
        // Written only when set, so a snapshot without a countdown reads in a setd from before it. The
        // sections after it each start with their name and are written only when they hold something.
        let hasRecord = !night.recordEvents.isEmpty || !night.dealtIn.isEmpty
        let log = logSection
        let hasLaterSections =
            !night.bans.isEmpty || hasRecord || !night.standings.isEmpty || !night.rematchOffers.isEmpty
            || play != nil || log != nil
        if night.isCountingDown || hasLaterSections { out.append(night.isCountingDown) }
        // Likewise the kicks that expire: a `bans` section only when there are some.
        if !night.bans.isEmpty {
            out.append("bans")
            out.append(night.bans.count)
            for ban in night.bans {
                out.append(ban.name)
                out.append(ban.address)
                out.append(time: ban.until)
            }
        }
        // The game's record so far: who was dealt in, then each event as its JSON.
        if hasRecord {
            out.append("record")
            out.append(list: night.dealtIn)
            out.append(events: night.recordEvents)
        }
        if !night.standings.isEmpty {
            out.append("standings")
            out.append(night.standings.games)
            let players = night.standings.players.sorted { $0.key < $1.key }
            out.append(players.count)
            for (name, player) in players {
                out.append(name)
                for figure in [player.games, player.wins, player.points, player.sets, player.bestMs ?? -1] {
                    out.append(figure)
                }
            }
        }
        if !night.rematchOffers.isEmpty {
            out.append("rematch")
            out.append(list: night.rematchOffers)
        }
        if let play {
            out.append("play")
            out.append(play.found.count)
            for claim in play.found { out.append(cards: claim) }
            out.append(play.isPaused)
            out.append(play.isTimeUp)
            out.append(time: night.pausedSeconds)
            out.append(night.pausedAt != nil)
            out.append(time: night.pausedAt ?? 0)
        }
        // What a bounded game log let go (see GameLogLimit): written only once something was.
        if let log {
            out.append("log")
            out.append(log.forgotten)
            out.append(list: log.order.map(String.init))
            out.append(night.recordOmitted)
        }
    }

    /// The game log's bounds (see ``write(to:)``): the Matchismo choices forgotten and the face-up order
    /// the history no longer tells, or `nil` when nothing was forgotten or left out of the record.
    private var logSection: (forgotten: Int, order: [Int])? {
        var forgotten = 0
        var order: [Int] = []
        if case .matchismo(let state) = game {
            forgotten = state.forgottenChoices
            order = state.faceUpOrder ?? []
        }
        return forgotten > 0 || night.recordOmitted > 0 ? (forgotten, order) : nil
    }

    /// The game's play beyond the first modes' (see ``write(to:)``), or `nil` when there is none to keep.
    private var playSection: (found: [[Card]], isPaused: Bool, isTimeUp: Bool)? {
        guard case .set(let state) = game else { return nil }
        let hasPlay =
            !state.foundClaims.isEmpty || state.isPaused || state.isTimeUp || night.pausedSeconds != 0
            || night.pausedAt != nil
        return hasPlay ? (state.foundClaims, state.isPaused, state.isTimeUp) : nil
    }

    init(reading r: inout RecordReader) throws(RecordReader.Malformed) {
        name = try r.text()
        seed = try r.uint64()
        options = try r.pairs()
        gameIndex = try r.int()
        startedAt = try r.time()
        historyTimes = []
        for _ in 0..<(try r.count()) { historyTimes.append(try r.time()) }
        votes = []
        for _ in 0..<(try r.count()) { votes.append((try r.text(), try r.pairs())) }
        creator = try r.text()
        seats = []
        for _ in 0..<(try r.count()) {
            seats.append(Seat(name: try r.text(), token: try r.text(), isOnline: try r.bool()))
        }
        switch try r.text() {
        case "set":
            let modeName = try r.text()
            guard let mode = SetMode(rawValue: modeName) else {
                throw RecordReader.Malformed(description: "'\(modeName)' is not a mode")
            }
            let options = SetGame.Options(mode: mode, wrongClaimPenalty: try r.int())
            let seed = try r.uint64()
            let revision = try r.int()
            let board = try r.setCards()
            let deck = try r.setCards()
            let scores = try r.scores()
            var taken: [SetGame.TakenSet] = []
            for _ in 0..<(try r.count()) {
                let player = try r.text()
                let revision = try r.int()
                taken.append(SetGame.TakenSet(player: player, cards: try r.setCards(), revision: revision))
            }
            let wrong = try r.int()
            let hasChain = try r.bool()
            let chain = try r.setCards()
            game = .set(
                SetGame.State(
                    options: options, seed: seed, board: board, deck: deck, revision: revision,
                    scores: scores,
                    takenSets: taken, wrongClaims: wrong, chainCards: hasChain ? chain : nil))
        case "matchismo":
            let matchCount = try r.int()
            let deckCount = try r.int()
            let revision = try r.int()
            var slots: [MatchismoGame.Slot] = []
            for _ in 0..<(try r.count()) {
                let card = try playingCard(try r.text())
                let face = try r.text()
                guard ["matched", "up", "down"].contains(face) else {
                    throw RecordReader.Malformed(description: "'\(face)' is not a card's face")
                }
                slots.append(
                    MatchismoGame.Slot(card: card, isFaceUp: face != "down", isMatched: face == "matched"))
            }
            let players = try r.list()
            let scores = try r.scores()
            let hasTurn = try r.bool()
            let turn = try r.text()
            var history: [MatchismoGame.Choice] = []
            for _ in 0..<(try r.count()) {
                let player = try r.text()
                let points = try r.int()
                let isMatch = try r.bool()
                let scored = try r.list().map { (code) throws(RecordReader.Malformed) in try playingCard(code)
                }
                history.append(
                    MatchismoGame.Choice(
                        player: player, text: try r.text(), points: points, scored: scored, isMatch: isMatch))
            }
            let absent = Set(try r.list())
            game = .matchismo(
                MatchismoGame.State(
                    matchCount: matchCount, slots: slots, deckCount: deckCount, revision: revision,
                    players: players, scores: scores, turn: hasTurn ? turn : nil, history: history,
                    absent: absent))
        case let other:
            throw RecordReader.Malformed(description: "'\(other.prefix(20))' is not a game")
        }
        night = Night()
        guard !r.isAtEnd else { return }
        let marker = try r.text()
        guard marker == "night" else {
            throw RecordReader.Malformed(
                description: "'\(marker.prefix(20))' where the room's night state goes")
        }
        night.isWaiting = try r.bool()
        night.ready = try r.list()
        let hasHost = try r.bool()
        let host = try r.text()
        night.host = hasHost ? host : nil
        night.isLocked = try r.bool()
        night.kicked = try r.list()
        for _ in 0..<(try r.count()) {
            let name = try r.text()
            var player = GameTally.Player(sets: try r.int(), wrong: try r.int(), stale: try r.int())
            for time in try r.list() {
                guard let ms = Int(time) else {
                    throw RecordReader.Malformed(description: "'\(time)' is not a time")
                }
                player.setTimes.append(ms)
            }
            night.tally.players[name] = player
        }
        for _ in 0..<(try r.count()) { night.tally.arrivals[try r.text()] = try r.int() }
        if !r.isAtEnd { night.isCountingDown = try r.bool() }
        // Then named sections, each at most once, in the order they are written.
        var order = ["bans", "record", "standings", "rematch", "play", "log"][...]
        while !r.isAtEnd {
            let section = try r.text()
            guard let at = order.firstIndex(of: section) else {
                throw RecordReader.Malformed(
                    description: "'\(section.prefix(20))' where a section of the room's night goes")
            }
            order = order[(at + 1)...]
            switch section {
            case "bans":
                for _ in 0..<(try r.count()) {
                    night.bans.append(
                        RoomSnapshot.KickBan(name: try r.text(), address: try r.text(), until: try r.time()))
                }
            case "record":
                night.dealtIn = try r.list()
                for json in try r.list() {
                    guard let event = GameRecord.Event.parse(json) else {
                        throw RecordReader.Malformed(
                            description: "a game record's event that is not its JSON")
                    }
                    night.recordEvents.append(event)
                }
            case "standings":
                night.standings.games = try r.int()
                for _ in 0..<(try r.count()) {
                    let name = try r.text()
                    let (games, wins, points, sets, best) = (
                        try r.int(), try r.int(), try r.int(), try r.int(), try r.int()
                    )
                    night.standings.players[name] = NightStandings.Player(
                        games: games, wins: wins, points: points, sets: sets, bestMs: best < 0 ? nil : best)
                }
            case "rematch":
                night.rematchOffers = try r.list()
            case "log":
                let forgotten = try r.int()
                var order: [Int] = []
                for position in try r.list() {
                    guard let p = Int(position), (0..<MatchismoGame.boardSize).contains(p) else {
                        throw RecordReader.Malformed(description: "'\(position.prefix(8))' is not a position")
                    }
                    order.append(p)
                }
                night.recordOmitted = try r.int()
                if case .matchismo(var state) = game, forgotten > 0 {
                    state.forgottenChoices = forgotten
                    state.faceUpOrder = order
                    game = .matchismo(state)
                }
            default:
                guard case .set(var state) = game else {
                    throw RecordReader.Malformed(description: "a game's play where the game is not SET")
                }
                state.foundClaims = []
                for _ in 0..<(try r.count()) { state.foundClaims.append(try r.setCards()) }
                state.isPaused = try r.bool()
                state.isTimeUp = try r.bool()
                night.pausedSeconds = try r.time()
                let isPausing = try r.bool()
                let pausedAt = try r.time()
                night.pausedAt = isPausing ? pausedAt : nil
                game = .set(state)
            }
        }
    }
}

extension RecordWriter {
    /// Scores in name order, so the same state always writes the same bytes.
    mutating func append(scores: [String: Int]) {
        append(scores.count)
        for (name, score) in scores.sorted(by: { $0.key < $1.key }) {
            append(name)
            append(score)
        }
    }
}

extension RecordReader {
    mutating func scores() throws(Malformed) -> [String: Int] {
        var scores: [String: Int] = [:]
        for _ in 0..<(try count()) { scores[try text()] = try int() }
        return scores
    }
}

/// The playing card a journal field names.
private func playingCard(_ code: String) throws(RecordReader.Malformed) -> PlayingCard {
    guard let card = PlayingCard(code: code) else {
        throw RecordReader.Malformed(description: "'\(code)' is not a playing card")
    }
    return card
}

extension ArchivedGame {
    /// Writes the game's fields, as an `archive` record holds them after the room's name.
    /// `recordJSON`, when given, is what ``GameRecord/json`` gives for ``record``, already written.
    func write(to out: inout RecordWriter, recordJSON: String? = nil) {
        out.append(time: startedAt)
        out.append(time: endedAt)
        out.append(password != nil)
        out.append(password ?? "")
        out.append(scores.count)
        for (name, score) in scores {
            out.append(name)
            out.append(score)
        }
        out.append(entries.count)
        for entry in entries {
            out.append(entry.seconds)
            out.append(entry.name)
            out.append(entry.detail)
        }
        // The score sheet comes last, so an archive record written before it still reads.
        if !sheet.isEmpty || duration != nil {
            out.append(sheet.count)
            for line in sheet {
                out.append(line.name)
                out.append(line.sets)
                out.append(line.wrong)
                out.append(line.stale)
                out.append(line.fastest ?? -1)
                out.append(line.mean ?? -1)
            }
            out.append(duration ?? -1)
            // The record comes after the sheet, so an archive record written before records still
            // reads; it is one escaped text field, its JSON.
            if let record = record { out.append(recordJSON ?? record.json) }
        }
    }

    /// The game with its fields' bytes kept, for every rewrite of the journal to come.
    func keepingItsBytes() -> ArchivedGame {
        var out = RecordWriter()
        write(to: &out)
        var kept = self
        kept.fields = EncodedFields(out.body)
        return kept
    }

    /// Keeps the bytes `read` as the game's fields if they are what writing it gives; a record written
    /// in an older form (without a sheet, a time not to the millisecond) is written anew each time, as
    /// it always was, not kept in its old form.
    ///
    /// `recordJSON`, when given, is the record's JSON as ``GameRecord/json`` writes it (read and
    /// found to be exactly that), used instead of writing it again.
    mutating func keepBytes(ifWrittenAs read: ArraySlice<UInt8>, recordJSON: String? = nil) {
        var out = RecordWriter()
        write(to: &out, recordJSON: recordJSON)
        // Compared as memory: a game's line is kilobytes, and `elementsEqual` went byte by byte.
        guard JournalCoding.sameBytes(out.body[...], read) else { return }
        fields = EncodedFields(out.body)
    }
}

/// Every card's code as a record's field holds it, both ways: a snapshot writes and reads every card of
/// its deck, and making each code's text (and escaping it, and reading it back through a `String`) was
/// most of what a card cost.
enum CardFields {
    /// Each card's field, by card index: exactly what `RecordWriter.append(card.code)` writes.
    static let written: [[UInt8]] = Card.universe.map { card in
        var writer = RecordWriter()
        writer.append(card.code)
        return writer.body
    }

    /// What `Card(anyCode:)` reads each written field as (by the field's bytes packed in a word, all
    /// codes being at most 8 bytes), for the fields it reads; worked out once from the codes themselves.
    private static let read: [UInt64: Card] = {
        var table: [UInt64: Card] = [:]
        for field in written {
            guard let key = key(field[...]), let text = JournalCoding.unescape(field[...]),
                let card = try? Card(anyCode: text)
            else { continue }
            table[key] = card
        }
        return table
    }()

    /// The card a field that is some card's written code reads as, or `nil` (any other field).
    static func card(written field: ArraySlice<UInt8>) -> Card? {
        guard let key = key(field) else { return nil }
        return read[key]
    }

    /// `field`'s bytes packed in a word with its length, or `nil` if it is longer than 7 bytes.
    private static func key(_ field: ArraySlice<UInt8>) -> UInt64? {
        guard field.count < 8 else { return nil }
        var key = UInt64(field.count)
        for byte in field { key = key << 8 | UInt64(byte) }
        return key
    }
}
