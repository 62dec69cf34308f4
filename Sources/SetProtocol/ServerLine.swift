/// A line the server sends: a reply's final line, a snapshot line, or an event.
///
/// The same type formats lines in the server and parses them in clients, so the two cannot drift apart.
public enum ServerLine: Equatable, Sendable {
    /// `SETD <version> <text>`: the greeting, sent once on connect.
    case greeting(version: Int, text: String)
    /// `OK <VERB> [<detail>]`: a command succeeded. The detail stays text so that every reply, known or
    /// not, formats back as it came; ``okDetail`` reads it by verb.
    case ok(verb: String, detail: String)
    /// `ERR <VERB> <CODE> <text>`: a command failed. A code this version does not know still parses, as
    /// ``ErrorCode/unrecognized(_:)``, so the line still ends its reply.
    case err(verb: String, code: ErrorCode, text: String)
    /// `ROOM <name> <game> <players> <status>`. A game or status this version does not know makes the
    /// line ``unknown(_:)``: see ``RoomStatus``.
    case room(name: String, game: GameKind, players: Int, status: RoomStatus)
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
    /// `FOUND <found> <total> <card>,<card>,<card> ...`: in puzzle, how many claims of the board were
    /// found, how many it holds, and the found ones, each as its codes joined by commas.
    case found(total: Int, claims: [[String]])
    /// `CLOCK <ms> running|paused`: a timed or practice game's play time so far (pauses left out) and
    /// whether it is running.
    case clock(milliseconds: Int, isRunning: Bool)
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
    /// `VOTE <name> <votes> <needed> <option>=<value> ...`: somebody asked for a new game mid-game with
    /// these options (the proposal); `<votes>` counts the votes for that same proposal.
    case vote(name: String, votes: Int, needed: Int, options: [(String, String)])
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
    /// `READY <name> <ready> <seated>`: somebody in a waiting room is ready; `ready` of the `seated`
    /// online players are.
    case ready(name: String, ready: Int, seated: Int)
    /// `COUNTDOWN <n>`: the game is dealt `n` seconds from now (3, 2, 1).
    case countdown(Int)
    /// `COUNTDOWN -`: the countdown stopped (a player took back `READY`); the room waits again.
    case countdownStopped
    /// `UNREADY <name> <ready> <seated>`: somebody in a waiting room took back their `READY`; `ready` of
    /// the `seated` online players are ready.
    case unready(name: String, ready: Int, seated: Int)
    /// `STARTED <unix ms>`: when the current game was dealt (a snapshot line while a game is dealt, and
    /// an event at the deal), so every client's game clock counts from the same moment.
    case started(Int)
    /// `PROPOSAL <votes> <needed> <voter>,... <option>=<value> ...`: the standing proposal for a new game,
    /// the one `NEW` without options agrees with (a snapshot line while one stands, and an event when it
    /// changes); `PROPOSAL -` when none stands any more.
    case proposal(Proposal?)
    /// `HOST <name>`: who hosts the room (a snapshot line, and an event when it changes).
    case host(String)
    /// `KICKED <name> <host> [<reason>]`: the host took a player's seat away, saying why if they did.
    case kicked(name: String, by: String, reason: String? = nil)
    /// `LOCKED <host>`: the host closed the room to new players.
    case locked(String)
    /// `UNLOCKED <host>`: the host opened the room to new players again.
    case unlocked(String)
    /// `STATS <name> sets=<n> wrong=<n> stale=<n> fastest=<ms> mean=<ms>`: a score sheet line after `OVER`.
    case stats(ScoreSheetEntry)
    /// `DURATION <ms>`: the game's length, deal to last set, after the score sheet.
    case duration(Int)
    /// `RATING <name> <mode> rating=<r> games=<n> wins=<n> sets=<n> wrong=<n> stale=<n>`: a data line of
    /// the `STATS` reply.
    case rating(RatingEntry)
    /// `TOP <rank> <name> <rating> <games>`: a data line of the `TOP` reply.
    case top(rank: Int, name: String, rating: Int, games: Int)
    /// `TOKEN <token>`: the token that resumes your seat from now on, sent (as an event, before the reply)
    /// when `RESUME` replaced the one presented; keep it instead of the old one, which no longer works.
    case token(String)
    /// `NOTICE <text>`: something the server wants you to know about your own seat (someone presented a
    /// token of yours that a `RESUME` replaced).
    case notice(String)
    /// `REMATCH <name> <offers> <needed>`: after the game, somebody offered to play again; `offers` of
    /// the `needed` online players have.
    case rematch(name: String, offers: Int, needed: Int)
    /// `STANDINGS <games>`: the room's standings for the night follow, one `STANDING` line per player,
    /// added up over `games` games (`STANDINGS 0`: reset, none follow).
    case standings(games: Int)
    /// `STANDING <place> <name> points=<n> wins=<n> games=<n> sets=<n> best=<ms>`: a player's night.
    case standing(StandingRow)
    /// `CSV <text>`: a line of CSV, a data line of `STANDINGS csv`.
    case csv(String)
    /// A line this version does not know; clients should ignore it.
    case unknown(String)

    public static func == (lhs: ServerLine, rhs: ServerLine) -> Bool { lhs.text == rhs.text }
}

extension ServerLine {
    /// The line as sent, without the LF: its bytes (``append(to:)``) read as UTF-8, which they are (every
    /// word is a string's UTF-8 or a number's digits).
    public var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether this line ends a reply (`OK …` or `ERR …`).
    public var isFinal: Bool {
        switch self {
        case .ok, .err: return true
        default: return false
        }
    }

    /// Whether this line, arriving while `verb` is the oldest command waiting for its reply, has the shape
    /// of that reply's data lines (protocol.md, "Commands"), so that only the count in the final line
    /// tells whether it is data or an event: the `ROOM` lines of `ROOMS`, the `HISTORY`,
    /// `HINT` and `HELP` lines of those verbs, the `RATING` lines of `STATS`, the `TOP` lines of `TOP`, and the snapshot lines of `JOIN`, `WATCH`, `STATE` and
    /// `RESUME`. Snapshot lines are also sent as events in the same shape, so a client applies them
    /// to its view either way.
    public func isData(ofReplyTo verb: String) -> Bool {
        switch (verb, self) {
        case ("ROOMS", .room), ("HISTORY", .history), ("HINT", .hint), ("HELP", .help), ("STATS", .rating),
            ("TOP", .top), ("STANDINGS", .standings), ("STANDINGS", .standing), ("STANDINGS", .csv):
            return true
        case ("JOIN", _), ("WATCH", _), ("STATE", _), ("RESUME", _): return isSnapshot
        default: return false
        }
    }

    /// The verbs whose replies may have data lines (protocol.md, "Telling data from events"), each with
    /// the number of words of its final line when that line carries the count (`OK JOIN <room> <n>` has
    /// four; `OK RESUME <name>`, three words, has no data). The page's script reads the same table
    /// (`Sources/SetWeb/Page/replies.json`, tested against this one).
    public static let dataReplies: [String: Int] = [
        "HELP": 3, "ROOMS": 3, "JOIN": 4, "WATCH": 4, "STATE": 3, "RESUME": 5, "HINT": 3, "HISTORY": 3,
        "STATS": 3, "TOP": 3, "STANDINGS": 3,
    ]

    /// Whether this line, arriving while `verb` waits for its reply, must wait for the final line to say
    /// whether it is data: a line in the shape of that reply's data, or a line this version does not
    /// know (a newer server may add lines to a snapshot; they are counted in the final line like the
    /// others).
    public func mayBeData(ofReplyTo verb: String) -> Bool {
        if case .unknown = self { return Self.dataReplies[verb] != nil }
        return isData(ofReplyTo: verb)
    }

    /// Whether this is one of the lines a room's snapshot is made of.
    public var isSnapshot: Bool {
        switch self {
        case .room, .options, .board, .deck, .chain, .turn, .found, .clock, .player, .host, .started,
            .proposal:
            return true
        default: return false
        }
    }
}
