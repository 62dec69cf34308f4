import SetGame
import SetProtocol

/// What the player asked for on the input line.
public enum UserCommand: Equatable, Sendable {
    /// Claim these cards (SET) or turn this card (Matchismo), as the protocol names them: position
    /// letters or card codes.
    case claim([String])
    /// `/chat <text>`.
    case chat(String)
    /// `/hint`.
    case hint
    /// `/ready`: ready for a waiting room's game to start.
    case ready
    /// `/unready`: not ready after all (stops a countdown under way).
    case unready
    /// `/start`: the host starts a waiting room's game now.
    case start
    /// `/pause`: stops a practice game and its clock (protocol.md, `PAUSE`).
    case pause
    /// `/unpause`: lets a paused practice game go on.
    case unpause
    /// `/new [<option>=<value> ...]`.
    case new([String])
    /// `/history [<room>]`.
    case history(String?)
    /// `/rooms`.
    case rooms
    /// `/join <room> [set|matchismo] [<option>=<value> ...]`.
    case join(room: String, words: [String])
    /// `/leave`.
    case leave
    /// `/watch <room> [password=<secret>]`: follow a room as a spectator.
    case watch(room: String, password: String?)
    /// `/kick <name> [<reason>]`: the host sends a player out of the room, saying why.
    case kick(name: String, reason: String?)
    /// `/lock`: the host closes the room to new players.
    case lock
    /// `/unlock`: the host opens it again.
    case unlock
    /// `/allow <name>`: the host lets a kicked player back in before their 10 minutes are up.
    case allow(name: String)
    /// `/record <game-id>`: a finished game's record (its id is on `/history`'s game headers).
    case record(id: String)
    /// `/rematch`: after the game, offer to play again with the same players.
    case rematch
    /// `/standings [csv|reset]`: the room's standings for the night (the host may reset them).
    case standings(Command.StandingsRequest)
    /// `/stats [<name>]`: a name's totals and ratings (yours without one).
    case stats(String?)
    /// `/top [<mode>]`: the best ratings of a mode.
    case top(String?)
    /// `/reconnect`: connect again after the server said goodbye.
    case reconnect
    /// `?` or `/help`: show the keys.
    case help
    /// `/quit`.
    case quit

    /// What the parser needs to know about the board to read a claim.
    public struct Context: Equatable, Sendable {
        /// Whether the room plays Matchismo (one card per choice).
        public var isMatchismo: Bool
        /// Cards one SET claim names: 3, or 4 in ultra mode.
        public var cardsPerClaim: Int
        /// Cards on the board.
        public var boardCount: Int
        /// The chain cards (chain mode), which a claim names by their number 1–3.
        public var chain: [String]
        /// Whether the cards lie face down (memory), so a claim names positions, never codes.
        public var isFaceDown: Bool

        /// Creates a context.
        public init(
            isMatchismo: Bool = false, cardsPerClaim: Int = 3, boardCount: Int, chain: [String] = [],
            isFaceDown: Bool = false
        ) {
            self.isMatchismo = isMatchismo
            self.cardsPerClaim = cardsPerClaim
            self.boardCount = boardCount
            self.chain = chain
            self.isFaceDown = isFaceDown
        }

        /// The context of a view of a room.
        public init(_ view: GameView) {
            self.init(
                isMatchismo: view.game == .matchismo, cardsPerClaim: view.setMode.cardsPerClaim,
                boardCount: view.board.count, chain: view.chain.map(\.code),
                isFaceDown: view.game != .matchismo && view.setMode.dealsFaceDown)
        }
    }

    /// The text of `?` and `/help`, one line per key or command.
    public static let helpLines: [String] = [
        "A set is three cards (four in ultra and 4set, six in ghostset) where each of number, colour,",
        "  fill and shape (and megaset's border) is all the same or all different on every card.",
        "Claim a set: type its letters and Enter — a f k, or afk",
        "  past z (megaset): za…zv, e.g. a za zb; memory: by letter only, the cards lie face down",
        "  chain mode: name the chain card by its number, e.g. af2",
        "  Matchismo: type one letter and Enter to turn that card",
        "/chat <text>      say something to the room",
        "/hint             one card of a set on the board",
        "/ready, /unready  ready to play (the game starts when everyone is), or not after all",
        "/new [mode] [opt=value]  a new game (/new 4set); while a vote runs, /new alone agrees",
        "  timed: /new sets=5 (first to 5 sets), /new minutes=3 (most sets in 3 min), =off ends it",
        "  practice: /new practice (unrated, free hints, /pause allowed); practice=off ends it",
        "/pause, /unpause  practice games: stop the game and its clock, or go on",
        "/rematch          after a game: play again, same players (starts when everyone agrees)",
        "/standings [csv]  the night's standings: points 3/2/1 by place, wins, sets, best time",
        "/history [room]   everything taken this game and the games before, scrollable",
        "/record <game-id> a finished game's record: who took what, when (ids: /history)",
        "/stats [name]     totals and rating per mode; /top [mode] the best ratings",
        "/rooms            the rooms on this server",
        "/join <room> [set|matchismo|<mode>] [opt=value ...]   password=SECRET makes it private",
        "  modes: \(SetMode.allCases.map(\.rawValue).joined(separator: " "))",
        "/watch <room> [password=SECRET]   follow a room without playing",
        "/leave            leave the room",
        "The host (who made the room):",
        "/start            start the game now, with a countdown",
        "/kick <name> [reason]   send a player out of the room (for 10 min), saying why",
        "/allow <name>     let a kicked player back in now",
        "/lock, /unlock    close the room to new players, or open it again",
        "/standings reset  start the night's standings again",
        "/reconnect        drop the connection and make it again (keeps your seat)",
        "/quit             leave and close (also Ctrl-C, Ctrl-D)",
        "?                 this help",
        "Keys: ← → Home End edit · ↑ ↓ earlier lines · Esc clears · Ctrl-L redraws",
        "In a list: ↑ ↓ PgUp PgDn Home End scroll · Esc, q or Enter closes",
    ]

    /// Reads what the player typed; `nil` for an empty line, an error with advice for a line that
    /// cannot be right.
    public static func parse(_ line: String, context: Context) -> Result<UserCommand, InputError>? {
        let text = line.trimmingCharacters(in: " ")
        guard !text.isEmpty else { return nil }
        if text == "?" { return .success(.help) }
        if text.hasPrefix("/") { return parseSlash(text) }
        return parseClaim(text, context: context).map { .claim($0) }
    }

    /// The board positions named so far by a claim being typed, for highlighting them while typing.
    public static func typedPositions(_ line: String, context: Context) -> [Int] {
        guard !line.hasPrefix("/"), !line.hasPrefix("?") else { return [] }
        var positions: [Int] = []
        for word in words(line) where (try? Card(anyCode: word)) == nil {
            for (_, p) in positionNames(in: word, boardCount: context.boardCount) where p != nil {
                if let p, p < context.boardCount, !positions.contains(p) { positions.append(p) }
            }
        }
        return positions
    }

    /// A typed word read as position names, each with its position (`nil` for a character that names
    /// none). On a board past `z` (MegaSet's reaches 48) a `z` and the letter after it are one name,
    /// `za`…`zv`; on a smaller board every letter is a name of its own, as always.
    static func positionNames(in word: String, boardCount: Int) -> [(name: String, position: Int?)] {
        let characters = Array(word)
        var names: [(name: String, position: Int?)] = []
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if boardCount > 26, c == "z" || c == "Z", i + 1 < characters.count,
                let p = SetGame.position(named: String([c, characters[i + 1]]))
            {
                names.append((String([c, characters[i + 1]]).lowercased(), p))
                i += 2
                continue
            }
            names.append((String(c).lowercased(), SetGame.position(named: String(c))))
            i += 1
        }
        return names
    }

    /// A bare mode name typed after `/new` or `/join <room>` (`4set`) as the option it stands for
    /// (`mode=4set`), and `practice` as `practice=on`; any other word as typed.
    static func modeOption(_ word: String) -> String {
        if word.lowercased() == "practice" { return "practice=on" }
        return SetMode(rawValue: word.lowercased()).map { "mode=" + $0.rawValue } ?? word
    }

    private static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
    }

    private static func parseSlash(_ text: String) -> Result<UserCommand, InputError> {
        let parts = words(text)
        let verb = parts[0].lowercased()
        let args = Array(parts.dropFirst())
        func noArgs(_ command: UserCommand) -> Result<UserCommand, InputError> {
            args.isEmpty ? .success(command) : .failure(InputError("\(verb) takes no arguments"))
        }
        switch verb {
        case "/chat", "/say", "/c":
            let said = String(text.drop { $0 != " " }).trimmingCharacters(in: " ")
            let clean = TextRules.sanitized(said)
            guard !clean.isEmpty else { return .failure(InputError("usage: /chat <text>")) }
            return .success(.chat(clean))
        case "/hint", "/h": return noArgs(.hint)
        case "/ready", "/r": return noArgs(.ready)
        case "/unready", "/notready": return noArgs(.unready)
        case "/lock": return noArgs(.lock)
        case "/rematch", "/again": return noArgs(.rematch)
        case "/standings":
            guard args.count <= 1,
                let request = Command.StandingsRequest(rawValue: args.first?.lowercased() ?? "")
            else { return .failure(InputError("usage: /standings [csv|reset]")) }
            return .success(.standings(request))
        case "/unlock": return noArgs(.unlock)
        case "/record":
            guard let id = args.first, args.count == 1 else {
                return .failure(InputError("usage: /record <game-id> (the ID line of a /history game)"))
            }
            return .success(.record(id: id))
        case "/allow":
            guard let name = args.first, args.count == 1 else {
                return .failure(InputError("usage: /allow <name>"))
            }
            guard TextRules.isValidName(name) else {
                return .failure(InputError("a name is 1–16 of A–Z a–z 0–9 _ -"))
            }
            return .success(.allow(name: name))
        case "/kick":
            guard let name = args.first else { return .failure(InputError("usage: /kick <name> [reason]")) }
            guard TextRules.isValidName(name) else {
                return .failure(InputError("a name is 1–16 of A–Z a–z 0–9 _ -"))
            }
            // The reason is the rest of the line as typed, like a chat.
            let afterVerb = text.drop { $0 != " " }.drop { $0 == " " }
            let reason = TextRules.sanitized(afterVerb.drop { $0 != " " })
            return .success(.kick(name: name, reason: reason.isEmpty ? nil : reason))
        case "/stats":
            guard args.count <= 1 else { return .failure(InputError("usage: /stats [name]")) }
            return .success(.stats(args.first))
        case "/top":
            guard args.count <= 1 else { return .failure(InputError("usage: /top [mode]")) }
            return .success(.top(args.first?.lowercased()))
        case "/watch":
            guard let room = args.first, args.count <= 2 else {
                return .failure(InputError("usage: /watch <room> [password=SECRET]"))
            }
            guard TextRules.isValidName(room) else {
                return .failure(InputError("a room name is 1–16 of A–Z a–z 0–9 _ -"))
            }
            var password: String?
            if args.count == 2 {
                guard args[1].lowercased().hasPrefix("password="), args[1].count > "password=".count else {
                    return .failure(InputError("usage: /watch <room> [password=SECRET]"))
                }
                password = String(args[1].dropFirst("password=".count))
            }
            return .success(.watch(room: room, password: password))
        case "/start": return noArgs(.start)
        case "/pause": return noArgs(.pause)
        case "/unpause", "/continue": return noArgs(.unpause)
        case "/new": return .success(.new(args.map(modeOption)))
        case "/history":
            guard args.count <= 1 else { return .failure(InputError("usage: /history [room]")) }
            return .success(.history(args.first))
        case "/rooms": return noArgs(.rooms)
        case "/join":
            guard let room = args.first else {
                return .failure(InputError("usage: /join <room> [set|matchismo] [option=value ...]"))
            }
            guard TextRules.isValidName(room) else {
                return .failure(InputError("a room name is 1–16 of A–Z a–z 0–9 _ -"))
            }
            return .success(.join(room: room, words: args.dropFirst().map(modeOption)))
        case "/leave": return noArgs(.leave)
        case "/reconnect": return noArgs(.reconnect)
        case "/help", "/?", "/keys": return noArgs(.help)
        case "/quit", "/q", "/exit", "/bye": return noArgs(.quit)
        default:
            return .failure(
                InputError("unknown command \(TextRules.sanitized(verb.prefix(20))); ? shows the commands"))
        }
    }

    private static func parseClaim(_ text: String, context: Context) -> Result<[String], InputError> {
        var picks: [String] = []
        var positions: [Int] = []
        for word in words(text) {
            if context.isMatchismo
                ? PlayingCard(code: word) != nil && word.count >= 2 : (try? Card(anyCode: word)) != nil
            {
                if context.isFaceDown {
                    return .failure(InputError("the cards lie face down: name them by their letters"))
                }
                picks.append(word.uppercased())
                continue
            }
            // Matchismo's board runs past z: `za`…`zd` name positions 27–30.
            if context.isMatchismo, word.count == 2, let position = SetGame.position(named: word) {
                picks.append(word.lowercased())
                positions.append(position)
                continue
            }
            for (name, position) in positionNames(in: word, boardCount: context.boardCount) {
                let c = Character(String(name.prefix(1)))
                if let position {
                    picks.append(name)
                    positions.append(position)
                } else if let n = c.wholeNumberValue, !context.chain.isEmpty {
                    guard (1...context.chain.count).contains(n) else {
                        return .failure(InputError("the chain cards are 1–\(context.chain.count)"))
                    }
                    picks.append(context.chain[n - 1])
                } else {
                    let shown = TextRules.sanitized(String(c))
                    return .failure(
                        InputError("'\(shown)' is not a card letter; to talk, type /chat \(text)"))
                }
            }
        }
        // Count first: a line of the wrong length is more likely chat typed without /chat than a typo.
        if context.isMatchismo {
            guard picks.count == 1 else { return .failure(InputError("Matchismo: turn one card at a time")) }
        } else if picks.count != context.cardsPerClaim {
            let advice = picks.count > context.cardsPerClaim ? "; to talk, type /chat \(text)" : ""
            return .failure(
                InputError("a claim names \(context.cardsPerClaim) cards, not \(picks.count)\(advice)"))
        }
        if let twice = picks.first(where: { p in picks.filter { $0 == p }.count > 1 }) {
            return .failure(InputError("you named \(twice) twice"))
        }
        if let missing = positions.first(where: { $0 >= context.boardCount }) {
            return .failure(InputError("there is no card \(SetGame.positionName(missing)) on the board"))
        }
        return .success(picks)
    }
}

/// Why an input line cannot be sent, in words for the status line.
public struct InputError: Error, Equatable, Sendable {
    /// The advice to show.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }
}
