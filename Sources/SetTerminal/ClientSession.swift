import SetGame
import SetProtocol

/// The terminal client's side of the protocol, with no I/O: it takes the lines the server sends and
/// the commands the player types, keeps the ``GameView``, and says what to send and what to show.
///
/// Replies are matched to commands by a ``ReplyTracker``: every command sent is queued, and an
/// `OK`/`ERR` line ends the oldest one (protocol.md, "Replies and events"). That is how a claim's `ERR`
/// is told apart from a chat's, even when several commands are in flight.
public struct ClientSession: Sendable {
    /// Something the session wants done.
    public enum Output: Equatable, Sendable {
        /// Send this line to the server.
        case send(String)
        /// Add this to the event list.
        case event(LogEntry)
        /// Show this as the result of the player's last command.
        case status(Status)
        /// Open a scrollable list (history, rooms).
        case panel(Panel)
        /// The server confirmed `QUIT`: the program can end.
        case finished
        /// Keep this `RESUME` token for the next start (`nil`: forget the kept one).
        case keepToken(String?)
        /// The session cannot go on (every name it may use is taken): say this and exit non-zero.
        case fatal(String)
    }

    /// The result of a command, for the line above the input.
    public struct Status: Equatable, Sendable {
        /// Whether it is good news, news, or a refusal.
        public enum Kind: Equatable, Sendable { case success, info, failure }
        /// Which kind.
        public var kind: Kind
        /// The words.
        public var text: String

        /// Creates a status.
        public init(_ kind: Kind, _ text: String) {
            self.kind = kind
            self.text = text
        }
    }

    /// How many names to try when the one asked for is taken (`alice2` … `alice9`).
    static let nameAttempts = 9

    /// The room as the server described it.
    public private(set) var view = GameView()
    /// The name asked for, then the name the server confirmed.
    public private(set) var name: String
    /// The token from `OK HELLO`, or the latest `TOKEN` line (each `RESUME` replaces it), for `RESUME`
    /// after a drop.
    public private(set) var token: String?
    /// Whether the server confirmed the name (or a resumed seat) on this connection.
    public private(set) var isNamed = false
    /// The room to be in: the one asked for, then the one joined.
    public private(set) var room: String
    /// The position and card of the last hint, until the board changes.
    public private(set) var hint: (position: Int, card: String)?
    /// Whether the player asked to quit.
    public private(set) var isQuitting = false
    /// Whether a lost connection should be made again: not after `QUIT`, and not when the server
    /// said goodbye because of idleness, flooding or the seat being resumed elsewhere.
    public private(set) var shouldReconnect = true
    /// Whether a connection is open.
    public private(set) var isConnected = false
    /// The game night's state of the room: waiting, ready, countdown, host, score sheet.
    public private(set) var night = GameNight()
    /// Whether the session follows its room as a spectator (`/watch`, `--watch`) instead of a seat.
    public private(set) var isWatching: Bool
    private var watchPassword: String?

    private let baseName: String
    private let game: GameKind?
    private let joinOptions: [String]
    private var nameAttempt = 1
    /// Whether the server knows the room option `start=`; a server from before game nights refuses
    /// it with `ERR JOIN BADOPTION`, and the JOIN is sent again without it.
    private var sendsStartOption = true
    private var replies = ReplyTracker<Sent>()

    /// What the session keeps with a command until its reply.
    private struct Sent: Sendable {
        /// The line as sent.
        var line: String
        /// For snapshot commands: whether the snapshot's first line reset the view yet.
        var hasSnapshot = false
    }

    private typealias Pending = ReplyTracker<Sent>.Pending

    /// Creates a session that will name itself `name` and sit down in `room`, creating it with
    /// `game` and `options` (`mode=ultra` …) if it does not exist.
    /// `token` is one kept from an earlier run (``TokenStore``): the first connection resumes its seat.
    public init(
        name: String, room: String, game: GameKind? = nil, options: [String] = [], token: String? = nil,
        watching: Bool = false
    ) {
        self.isWatching = watching
        self.watchPassword = options.first { $0.lowercased().hasPrefix("password=") }.map {
            String($0.dropFirst("password=".count))
        }
        self.name = name
        self.baseName = name
        self.room = room
        self.game = game
        self.joinOptions = options
        self.token = token
    }

    /// Lines sent and not answered yet, oldest first.
    public var outstandingCommands: [String] { replies.pending.map(\.context.line) }

    // MARK: Connection

    /// A connection was made; the greeting comes next.
    public mutating func connectionOpened() {
        isConnected = true
        isNamed = false
        replies.removeAll()
        nameAttempt = 1
    }

    /// The connection is gone; what was in flight will never be answered.
    public mutating func connectionLost(_ reason: String) -> [Output] {
        isConnected = false
        isNamed = false
        replies.removeAll()
        if isQuitting { return [.finished] }
        return [.event(.problem("connection lost: \(reason)"))]
    }

    // MARK: Server lines

    /// Handles one line from the server.
    public mutating func receive(_ line: ServerLine) -> [Output] {
        replies.receive(line).flatMap { sorted(received: $0) }
    }

    private mutating func sorted(received: ReplyTracker<Sent>.Received) -> [Output] {
        switch received {
        case .unexpected(let line):
            if case .err(_, _, let text) = line { return [.event(.problem("server: \(text)"))] }
            return []
        case .reply(let reply):
            return finish(reply)
        case .data(let line, let command):
            if case .room(let roomName, _, _, _) = line, command.verb == "ROOMS" {
                // A ROOMS listing: only our own room's line also tells the view something.
                if roomName == view.room { view.apply(line) }
                return []
            }
            noteSnapshotStart(line, of: command)
            // Data lines of the shape of events (a snapshot's PLAYER line) are applied like events.
            return handleEvent(line)
        case .event(let line):
            return handleEvent(line)
        }
    }

    /// A snapshot starts with its ROOM line: forget the old room before reading the new one. The data
    /// lines are exactly the snapshot (the final line counts them), so its one ROOM line is the start;
    /// the command is no longer pending by now.
    private mutating func noteSnapshotStart(_ line: ServerLine, of command: Pending) {
        guard case .room(let name, _, _, _) = line,
            ["JOIN", "RESUME", "STATE", "WATCH"].contains(command.verb),
            command.verb != "JOIN" || name == Self.joinTarget(command.context.line)
        else { return }
        view.reset()
        night.reset()
        hint = nil
    }

    private static func joinTarget(_ line: String) -> String {
        line.split(separator: " ").dropFirst().first.map(String.init) ?? ""
    }

    private mutating func handleEvent(_ line: ServerLine) -> [Output] {
        let oldRevision = view.revision
        let wasPaused = view.clock.map { !$0.isRunning }
        view.apply(line)
        if view.revision != oldRevision { hint = nil }
        let news = night.apply(line)
        if let news { return [.event(news)] }
        switch line {
        case .greeting:
            if let token { return send(.resume(token: token)) }
            return send(.hello(name: name))
        case .set(let who, let cards): return [.event(.took(name: who, cards: cards))]
        case .wrong(let who, let penalty, let cards, let why):
            return [.event(.wrong(name: who, penalty: penalty, cards: cards, why: why))]
        case .chose(let who, let points, let text):
            return [.event(.chose(name: who, points: points, text: text))]
        case .chat(let who, let text): return [.event(.chat(name: who, text: text))]
        case .joined(let who): return who == name ? [] : [.event(.joined(who))]
        case .clock(_, let isRunning):
            // A pause or its end (a snapshot of a running game says nothing new).
            if !isRunning, wasPaused != true {
                return [.event(.info("the game is paused: its clock stands (/unpause goes on)"))]
            }
            if isRunning, wasPaused == true { return [.event(.info("the game goes on"))] }
            return []
        case .left(let who): return [.event(.left(who))]
        case .newGame(let who):
            hint = nil
            return [.event(.newGame(who))]
        case .vote(let who, let votes, let needed, let options):
            let shown = options.filter { $0.0 != "private" }.map { "\($0)=\($1)" }
            return [
                .event(.vote(name: who, votes: votes, needed: needed, options: shown, isMine: who == name))
            ]
        case .kicked(let who, let host, let reason):
            let because = reason.map { ": \($0)" } ?? ""
            guard who == name else {
                return [.event(.problem("\(host) (the host) sent \(who) out of the room\(because)"))]
            }
            let left = view.room ?? room
            view.reset()
            night.reset()
            hint = nil
            return [
                .event(.problem("\(host) (the host) sent you out of \(left)\(because); /join another room"))
            ]
        case .over(let scores): return [.event(.over(scores.map { "\($0.name) \($0.score)" }))]
        case .token(let fresh):
            // The RESUME just sent retired the token it presented: keep this one instead.
            token = fresh
            return [.keepToken(fresh)]
        case .notice(let text): return [.event(.problem("server: \(TextRules.sanitized(text))"))]
        case .bye(let reason):
            let lasting = ["idle", "flood", "resumed"]
            if isQuitting || lasting.contains(where: { reason.hasPrefix($0) }) { shouldReconnect = false }
            return [.event(.bye(reason))]
        default: return []
        }
    }

    private mutating func finish(_ reply: ReplyTracker<Sent>.Reply) -> [Output] {
        switch reply.line {
        case .ok(let verb, let detail):
            return succeeded(reply.command, detail: OKDetail(verb: verb, detail: detail), data: reply.data)
        case .err(_, let code, let text):
            return failed(reply.command, code: code, text: TextRules.sanitized(text))
        default: return []
        }
    }

    private mutating func succeeded(_ pending: Pending, detail: OKDetail, data: [ServerLine]) -> [Output] {
        switch pending.verb {
        case "HELLO":
            isNamed = true
            var kept: [Output] = []
            if case .hello(let confirmed, let newToken) = detail {
                name = confirmed
                token = newToken
                kept = [.keepToken(newToken)]
            }
            return kept + [.event(.info("connected as \(name)"))] + enterRoom()
        case "RESUME":
            isNamed = true
            if case .resume(let confirmed, let resumedRoom, _) = detail {
                name = confirmed
                if let resumedRoom {
                    room = resumedRoom
                    isWatching = false
                    return [.event(.info("back in \(room) as \(name)"))]
                }
            }
            return enterRoom()
        case "JOIN":
            if case .join(let joined, _) = detail { room = joined }
            isWatching = false
            let game = view.game == .matchismo ? "Matchismo" : "SET"
            return [.event(.info("joined \(room) (\(game)); ? shows the keys"))]
        case "WATCH":
            if case .watch(let watched, _) = detail { room = watched }
            isWatching = true
            let game = view.game == .matchismo ? "Matchismo" : "SET"
            return [.event(.info("watching \(room) (\(game)); /join \(room) to play"))]
        case "LEAVE":
            view.reset()
            night.reset()
            let what = isWatching ? "you stopped watching" : "you left"
            isWatching = false
            return [.status(Status(.info, "\(what) \(room); /join a room to play"))]
        case "KICK":
            return [.status(Status(.success, "you sent \(detail.detail) out of the room"))]
        case "ALLOW":
            return [.status(Status(.success, "\(detail.detail) may come back in now"))]
        case "RECORD":
            return GameRecordSummary.lines(ofJSON: detail.detail).map { .event(.info($0)) }
        case "REMATCH":
            guard case .rematch(.offered(let offers, let needed)) = detail else { return [] }
            return [.status(Status(.success, "you offered a rematch (\(offers) of \(needed) agree)"))]
        case "STANDINGS":
            // The lines as they came: `STANDING …` rows, or `CSV …` ready to copy.
            var shown: [Output] = []
            for line in data {
                if case .csv(let text) = line { shown.append(.event(.info(TextRules.sanitized(text)))) }
                if case .standing(let row) = line {
                    shown.append(
                        .event(.info(TextRules.sanitized(String(row.text.dropFirst("STANDING ".count))))))
                }
            }
            if shown.isEmpty { shown.append(.event(.info("no game has ended here yet tonight"))) }
            return shown
        case "LOCK":
            return [.status(Status(.success, "you locked the room: nobody new can join (/unlock opens it)"))]
        case "UNLOCK":
            return [.status(Status(.success, "you unlocked the room: anyone can join"))]
        case "UNREADY":
            guard case .unready(let ready, let seated) = detail else { return [] }
            return [.status(Status(.info, "you are not ready (\(ready) of \(seated) ready)"))]
        case "STATS":
            return [.panel(Panel.stats(data, name: Self.argument(of: pending.context.line) ?? name))]
        case "TOP":
            return [.panel(Panel.top(data, mode: Self.argument(of: pending.context.line) ?? "normal"))]
        case "CHOOSE":
            guard case .choose(let cards) = detail else { return [] }
            if view.game == .matchismo {
                return [.status(Status(.info, "you turned \(CardArt.inline(cards).plainText)"))]
            }
            return [.status(Status(.success, "Set! \(CardArtText.codes(cards))"))]
        case "HINT":
            for case .hint(let position, let card) in data {
                if let index = SetGame.position(named: position) { hint = (index, card) }
                return [
                    .status(
                        Status(
                            .info,
                            "hint: \(TextRules.sanitized(position)) (\(TextRules.sanitized(card))) is in a set"
                        ))
                ]
            }
            return []
        case "NEW":
            guard case .new(.voted(let votes, let needed)) = detail else { return [] }
            return [.status(Status(.info, "you voted for a new game (\(votes)/\(needed))"))]
        case "HISTORY":
            return [.panel(Panel.history(data, room: Self.argument(of: pending.context.line) ?? room))]
        case "ROOMS":
            return [.panel(Panel.rooms(data))]
        case "READY":
            let words = detail.detail.split(separator: " ")
            guard words.count == 2 else { return [.status(Status(.success, "you are ready"))] }
            return [.status(Status(.success, "you are ready (\(words[0]) of \(words[1]) seated players)"))]
        case "START":
            return [.status(Status(.success, "starting the game"))]
        case "PAUSE":
            return [.status(Status(.success, "you paused the game: its clock stands (/unpause goes on)"))]
        case "UNPAUSE":
            return [.status(Status(.success, "the game goes on"))]
        case "QUIT":
            // QUIT frees the seat at once: a kept token would only be refused next time.
            return [.keepToken(nil), .finished]
        default:
            return []
        }
    }

    private mutating func failed(_ pending: Pending, code: ErrorCode, text: String) -> [Output] {
        switch (pending.verb, code) {
        case ("JOIN", .badOption) where sendsStartOption && pending.context.line.hasSuffix(" start=ready"):
            // A server from before game nights: the room starts at once, as it always did.
            sendsStartOption = false
            return send(String(pending.context.line.dropLast(" start=ready".count)))
        case ("HELLO", .taken) where nameAttempt >= Self.nameAttempts:
            let tried =
                [baseName]
                + (2...Self.nameAttempts).map {
                    String(baseName.prefix(TextRules.maximumNameLength - 1)) + String($0)
                }
            return [
                .fatal(
                    "set-cli: every name tried is taken on this server (\(tried.first!) … \(tried.last!)); "
                        + "choose another with --name")
            ]
        case ("HELLO", .taken) where nameAttempt < Self.nameAttempts:
            nameAttempt += 1
            let next = String(baseName.prefix(TextRules.maximumNameLength - 1)) + String(nameAttempt)
            name = next
            return [.event(.problem("the name \(baseName) is taken; trying \(next)"))]
                + send(.hello(name: next))
        case ("RESUME", .badToken):
            // The seat is gone (the grace ran out, or the server restarted): start over with the name.
            token = nil
            name = baseName
            nameAttempt = 1
            return [.keepToken(nil), .event(.problem("your old seat is gone; joining again"))]
                + send(.hello(name: name))
        case ("CHOOSE", .stale):
            return [
                .status(
                    Status(.failure, "too late: the board changed before your claim arrived (no penalty)"))
            ]
        case ("CHOOSE", .notSet):
            return [.status(Status(.failure, "not a set: \(text)"))]
        case ("HELLO", _), ("JOIN", _), ("RESUME", _):
            return [.event(.problem("\(pending.verb.lowercased()) refused: \(text)"))]
        default:
            return [.status(Status(.failure, text))]
        }
    }

    /// The first argument of a command line sent (`HISTORY fun` → `fun`).
    private static func argument(of line: String) -> String? {
        let words = line.split(separator: " ")
        return words.count > 1 ? String(words[1]) : nil
    }

    // MARK: Commands

    private var joinWords: [String] {
        (game.map { [$0.rawValue] } ?? []) + joinOptions
    }

    /// Sits down in the room (or watches it, after `/watch` or `--watch`).
    private mutating func enterRoom() -> [Output] {
        if isWatching { return send(.watch(room: room, password: watchPassword)) }
        return send(joinLine(room: room, words: joinWords))
    }

    /// The JOIN line: rooms set-cli creates start when their players are ready (`start=ready`), unless
    /// the player named a `start=` of their own or the server does not know the option.
    private func joinLine(room: String, words: [String]) -> String {
        let start =
            sendsStartOption && !words.contains { $0.lowercased().hasPrefix("start=") } ? ["start=ready"] : []
        return (["JOIN", room] + words + start).joined(separator: " ")
    }

    /// Sends a typed command.
    private mutating func send(_ command: Command) -> [Output] { send(command.text) }

    /// Sends a line as the player typed its words (a `JOIN` or `NEW` with their options).
    private mutating func send(_ line: String) -> [Output] {
        let verb = line.split(separator: " ").first.map { $0.uppercased() } ?? "-"
        replies.sent(verb, context: Sent(line: line))
        return [.send(line)]
    }

    /// Carries out a command typed by the player. `revision` is the board revision on the screen the
    /// player was looking at, sent with claims so the server can refuse a claim on a changed board.
    public mutating func perform(_ command: UserCommand, revision: Int) -> [Output] {
        if case .quit = command {
            isQuitting = true
            shouldReconnect = false
            return isConnected ? send(.quit) : [.finished]
        }
        if case .reconnect = command {
            shouldReconnect = true
            return []
        }
        guard isConnected, isNamed else {
            let advice = shouldReconnect ? "wait for the connection (or /quit)" : "/reconnect connects again"
            return [.status(Status(.failure, "not connected; \(advice)"))]
        }
        switch command {
        case .claim(let picks):
            guard view.room != nil else {
                return [.status(Status(.failure, "join a room first: /join <room>"))]
            }
            return send((["CHOOSE"] + picks + ["@\(revision)"]).joined(separator: " "))
        case .chat(let text): return send(.chat(text: text))
        case .ready: return send(.ready)
        case .unready: return send(.unready)
        case .start: return send(.start)
        case .pause: return send(.pause)
        case .unpause: return send(.unpause)
        case .lock: return send(.lock)
        case .unlock: return send(.unlock)
        case .kick(let who, let reason): return send(.kick(name: who, reason: reason))
        case .allow(let who): return send(.allow(name: who))
        case .record(let id): return send(.record(id: id))
        case .rematch: return send(.rematch)
        case .standings(let request): return send(.standings(request))
        case .stats(let who): return send(.stats(name: who))
        case .top(let mode): return send(.top(mode: mode))
        case .watch(let target, let password):
            watchPassword = password
            return send(.watch(room: target, password: password))
        case .hint: return send(.hint)
        case .new(let words): return send((["NEW"] + words).joined(separator: " "))
        case .history(let other): return send(.history(room: other))
        case .rooms: return send(.rooms)
        case .join(let target, let words): return send(joinLine(room: target, words: words))
        case .leave: return send(.leave)
        case .help, .quit, .reconnect: return []
        }
    }
}

/// Card codes as plain text for status lines.
enum CardArtText {
    static func codes(_ codes: [String]) -> String {
        codes.map { TextRules.sanitized($0) }.joined(separator: " ")
    }
}
