import SetGame

extension Command {
    /// Every verb with its argument synopsis, for `HELP` and for error messages.
    public static let synopses: [(verb: Verb, usage: String)] = [
        (.hello, "HELLO <name> [key=<secret>]"),
        (.resume, "RESUME <token>"),
        (.rooms, "ROOMS"),
        (.join, "JOIN <room> [set|matchismo] [<option>=<value> ...]"),
        (.leave, "LEAVE"),
        (.state, "STATE"),
        (.choose, "CHOOSE <pos|card> ... [@<rev>]"),
        (.hint, "HINT"),
        (.new, "NEW [<option>=<value> ...]"),
        (.history, "HISTORY [<room>]"),
        (.chat, "CHAT <text>"),
        (.watch, "WATCH <room> [password=<secret>]"),
        (.ping, "PING"),
        (.help, "HELP"),
        (.quit, "QUIT"),
        (.ready, "READY"),
        (.start, "START"),
        (.stats, "STATS [<name>]"),
        (.top, "TOP [<mode>|matchismo]"),
        (.kick, "KICK <name> [<reason>]"),
        (.lock, "LOCK"),
        (.unlock, "UNLOCK"),
        (.unready, "UNREADY"),
        (.allow, "ALLOW <name>"),
        (.record, "RECORD <game-id>"),
        (.rematch, "REMATCH"),
        (.standings, "STANDINGS [csv|reset]"),
        (.pause, "PAUSE"),
        (.unpause, "UNPAUSE"),
    ]

    /// Most cards one `CHOOSE` may name; more is never a valid claim in any mode.
    public static let maximumPicks = 8

    /// Parses one line (without its terminator). Verbs are case-insensitive; arguments are separated by
    /// runs of spaces or tabs.
    public static func parse(_ bytes: [UInt8]) -> Result<Command, ProtocolError> {
        // ASCII is UTF-8 as it is, and nearly every line is ASCII: only the others are validated (and
        // the line is parsed from its bytes either way, never made a string first).
        if !bytes.allSatisfy({ $0 < 0x80 }), String(validating: bytes, as: UTF8.self) == nil {
            return .failure(ProtocolError(nil, .badUTF8, "the line is not valid UTF-8"))
        }
        return parse(utf8: bytes)
    }

    /// Parses one line of text.
    public static func parse(_ line: String) -> Result<Command, ProtocolError> {
        parse(utf8: Array(line.utf8))
    }

    /// Parses one line of valid UTF-8.
    private static func parse(utf8 bytes: [UInt8]) -> Result<Command, ProtocolError> {
        // Words are split on the blank *bytes*: split on `Character`s, a space followed by a zero-width
        // joiner or a combining mark is one grapheme, not a blank, and `CHAT <ZWJ>hi` would be one word.
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let start = bytes.firstIndex(where: { !blank($0) }) else {
            return .failure(ProtocolError(nil, .unknown, "empty line; type HELP"))
        }
        // The verb is the first word; what follows it is split into words only for a verb that takes
        // words. CHAT, most of a busy room's input, takes its text whole and never pays for the split.
        let verbEnd = bytes[start...].firstIndex(where: blank) ?? bytes.endIndex
        let afterVerb = bytes[verbEnd...]
        guard let verb = Verb(spelledBy: bytes[start..<verbEnd]) else {
            let shown = TextRules.sanitized(
                String(decoding: bytes[start..<verbEnd], as: UTF8.self).prefix(20))
            return .failure(ProtocolError(nil, .unknown, "unknown command '\(shown)'; type HELP"))
        }
        lazy var args = afterVerb.split(whereSeparator: blank).map { String(decoding: $0, as: UTF8.self) }
        func usage() -> ProtocolError {
            let synopsis = synopses.first { $0.verb == verb }?.usage ?? verb.rawValue
            return ProtocolError(verb, .args, "usage: \(synopsis)")
        }
        // No words after the verb is only blanks after it: read on the bytes, without splitting them.
        func none(_ command: Command) -> Result<Command, ProtocolError> {
            afterVerb.allSatisfy(blank) ? .success(command) : .failure(usage())
        }
        func one(_ make: (String) -> Command) -> Result<Command, ProtocolError> {
            args.count == 1 ? .success(make(args[0])) : .failure(usage())
        }
        switch verb {
        case .hello:
            // A second word is an option, or a mistake in the arguments (`HELLO ann bob`).
            guard let name = args.first, args.count <= 2, args.dropFirst().allSatisfy({ $0.contains("=") })
            else { return .failure(usage()) }
            return parseOptions(args.dropFirst(), verb: verb).flatMap { options in
                guard options.keys.allSatisfy({ $0 == "key" }) else {
                    return .failure(ProtocolError(verb, .badOption, "HELLO takes only key=<secret>"))
                }
                return .success(.hello(name: name, key: options["key"]))
            }
        case .ready: return none(.ready)
        case .start: return none(.start)
        case .lock: return none(.lock)
        case .unlock: return none(.unlock)
        case .unready: return none(.unready)
        case .pause: return none(.pause)
        case .unpause: return none(.unpause)
        case .kick:
            guard let name = args.first else { return .failure(usage()) }
            // Whatever follows the name is the reason, as a chat's text: told to the room as it was typed.
            let afterName = afterVerb.drop(while: blank).drop(while: { !blank($0) })
            let reason = TextRules.sanitized(String(decoding: afterName, as: UTF8.self))
            return .success(.kick(name: name, reason: reason.isEmpty ? nil : reason))
        case .stats:
            guard args.count <= 1 else { return .failure(usage()) }
            return .success(.stats(name: args.first))
        case .top:
            guard args.count <= 1 else { return .failure(usage()) }
            return .success(.top(mode: args.first?.lowercased()))
        case .resume: return one { .resume(token: $0) }
        case .allow: return one { .allow(name: $0) }
        case .record:
            guard args.count == 1 else { return .failure(usage()) }
            // Checked here so a typo gets a clear error, never a lookup of arbitrary text.
            let id = args[0].lowercased().utf8
            guard id.count == 16, id.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            else {
                return .failure(
                    ProtocolError(
                        verb, .args, "a game id is 16 hex digits, as HISTORY's GAME <k> ID line shows"))
            }
            return .success(.record(id: args[0].lowercased()))
        case .rematch: return none(.rematch)
        case .standings:
            guard args.count <= 1 else { return .failure(usage()) }
            guard let request = Command.StandingsRequest(rawValue: args.first?.lowercased() ?? "") else {
                return .failure(usage())
            }
            return .success(.standings(request))
        case .rooms: return none(.rooms)
        case .leave: return none(.leave)
        case .state: return none(.state)
        case .hint: return none(.hint)
        case .ping: return none(.ping)
        case .help: return none(.help)
        case .quit: return none(.quit)
        case .watch:
            guard let room = args.first, args.count <= 2 else { return .failure(usage()) }
            return parseOptions(args.dropFirst(), verb: verb).flatMap { options in
                guard options.keys.allSatisfy({ $0 == "password" }) else {
                    return .failure(ProtocolError(verb, .badOption, "WATCH takes only password=<secret>"))
                }
                return .success(.watch(room: room, password: options["password"]))
            }
        case .history:
            guard args.count <= 1 else { return .failure(usage()) }
            return .success(.history(room: args.first))
        case .chat:
            // Skip leading blanks, then the verb: whatever follows is the text.
            let text = TextRules.sanitized(utf8: afterVerb)
            guard !text.isEmpty else { return .failure(usage()) }
            return .success(.chat(text: text))
        case .join:
            guard let room = args.first else { return .failure(usage()) }
            var rest = args.dropFirst()
            var game: GameKind?
            if let word = rest.first, !word.contains("=") {
                guard let kind = GameKind(rawValue: word.lowercased()) else {
                    // The word is echoed back: sanitized and capped, like every echo of client text.
                    let shown = TextRules.sanitized(word.prefix(20))
                    return .failure(
                        ProtocolError(verb, .badOption, "unknown game '\(shown)'; games: set, matchismo"))
                }
                game = kind
                rest = rest.dropFirst()
            }
            return parseOptions(rest, verb: verb).map { .join(room: room, game: game, options: $0) }
        case .new:
            return parseOptions(args[...], verb: verb).map { .new(options: $0) }
        case .choose:
            // Read on the bytes: a claim is most of a game's input, and its words are positions and codes.
            return parseChoose(afterVerb.split(whereSeparator: blank), usage: usage)
        }
    }

    private static func parseOptions(_ words: ArraySlice<String>, verb: Verb)
        -> Result<[String: String], ProtocolError>
    {
        var options: [String: String] = [:]
        for word in words {
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                return .failure(
                    ProtocolError(
                        verb, .badOption, "'\(TextRules.sanitized(word.prefix(32)))' is not <option>=<value>")
                )
            }
            let key = parts[0].lowercased()
            guard options[key] == nil else {
                let shown = TextRules.sanitized(key.prefix(20))
                return .failure(ProtocolError(verb, .badOption, "\(shown) is given twice; give it once"))
            }
            options[key] = String(parts[1])
        }
        return .success(options)
    }

    /// `usage` is made only for a claim that needs it (its text is looked up and written).
    private static func parseChoose(_ args: [ArraySlice<UInt8>], usage: () -> ProtocolError) -> Result<
        Command, ProtocolError
    > {
        var words = args
        var revision: Int?
        if let last = words.last, last.first == 0x40 {
            // Digits only: `Int` would take `@+1` too.
            let digits = last.dropFirst()
            guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                let number = Int(String(decoding: digits, as: UTF8.self))
            else {
                let shown = String(decoding: last, as: UTF8.self).prefix(24)
                return .failure(
                    ProtocolError(
                        .choose, .args, "'\(TextRules.sanitized(shown))' is not a revision like @17"))
            }
            revision = number
            words.removeLast()
        }
        // `CHOOSE afk` is three positions typed without spaces; two letters are a playing card (`QD`). (ASCII
        // letters are one byte and one character each, so the bytes count as the characters did.)
        if words.count == 1, words[0].count > 2, words[0].count <= maximumPicks,
            words[0].allSatisfy({ (0x61...0x7A).contains($0 | 0x20) })
        {
            let word = words[0]
            words = word.indices.map { word[$0...$0] }
        }
        guard !words.isEmpty, words.count <= maximumPicks else { return .failure(usage()) }
        let picks = words.map { word -> Pick in
            if let position = SetGame.position(spelledBy: word) { return .position(position) }
            return .code(String(decoding: word, as: UTF8.self))
        }
        return .success(.choose(picks: picks, revision: revision))
    }
}
