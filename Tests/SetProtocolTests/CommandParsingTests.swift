import SetProtocol
import SetTestSupport
import Testing

@Suite("Parsing client commands")
struct CommandParsingTests {
    @Test(arguments: [
        ("HELLO bob", Command.hello(name: "bob")),
        ("RESUME 3f9a-TOKEN", .resume(token: "3f9a-TOKEN")),
        ("ROOMS", .rooms),
        ("JOIN fun", .join(room: "fun", game: nil, options: [:])),
        ("LEAVE", .leave),
        ("STATE", .state),
        ("CHOOSE a b c", .choose(picks: [.position(0), .position(1), .position(2)], revision: nil)),
        ("HINT", .hint),
        ("NEW", .new(options: [:])),
        ("HISTORY", .history(room: nil)),
        ("CHAT hi", .chat(text: "hi")),
        ("WATCH fun", .watch(room: "fun", password: nil)),
        ("PING", .ping),
        ("HELP", .help),
        ("QUIT", .quit),
        ("PAUSE", .pause),
        ("unpause", .unpause),
        ("RECORD 0123456789abcdef", .record(id: "0123456789abcdef")),
        ("RECORD 0123456789ABCDEF", .record(id: "0123456789abcdef")),
        ("REMATCH", .rematch),
        ("STANDINGS", .standings(.show)),
        ("STANDINGS csv", .standings(.csv)),
        ("standings RESET", .standings(.reset)),
    ])
    func everyVerbParses(text: String, expected: Command) {
        let parsed = command(text)
        #expect(parsed == expected)
        #expect(parsed?.verb.rawValue == text.split(separator: " ")[0].uppercased())
    }

    @Test func helpListsEveryVerbOnce() {
        let verbs = Command.synopses.map(\.verb.rawValue)
        #expect(Set(verbs).count == verbs.count)
        #expect(
            Set(verbs) == [
                "HELLO", "RESUME", "ROOMS", "JOIN", "LEAVE", "STATE", "CHOOSE", "HINT", "NEW", "HISTORY",
                "CHAT", "WATCH", "PING", "HELP", "QUIT", "READY", "START", "STATS", "TOP", "KICK", "LOCK",
                "UNLOCK", "UNREADY", "ALLOW", "RECORD", "REMATCH", "STANDINGS", "PAUSE", "UNPAUSE",
            ])
        for (verb, usage) in Command.synopses {
            #expect(usage == verb.rawValue || usage.hasPrefix(verb.rawValue + " "))
        }
    }

    @Test func everyVerbIsReadInAnyCaseAndNothingElseIs() {
        for verb in Verb.allCases {
            let upper = verb.rawValue
            let lower = upper.lowercased()
            let mixed = String(
                upper.enumerated().map {
                    $0.offset % 2 == 0 ? $0.element : Character($0.element.lowercased())
                })
            for spelling in [upper, lower, mixed] {
                #expect(Verb(spelledBy: Array(spelling.utf8)[...]) == verb, "\(spelling)")
                // Parsed: the verb's own command or its usage, never an unknown command.
                switch Command.parse(Array(spelling.utf8)) {
                case .success(let command): #expect(command.verb == verb, "\(spelling)")
                case .failure(let error): #expect(error.code != .unknown, "\(spelling): \(error)")
                }
            }
            // A verb followed by NUL bytes is no verb (words are compared packed, with their lengths).
            for other in [
                String(upper.dropLast()), upper + "S", upper + "\u{301}", "X" + upper, upper + "\u{0}",
                upper + "\u{0}\u{0}\u{0}",
            ] {
                #expect(Verb(spelledBy: Array(other.utf8)[...]) == nil, "\(other)")
            }
        }
        #expect(Verb(spelledBy: Array("\u{212A}ICK".utf8)[...]) == nil)
        #expect(Verb(spelledBy: []) == nil)
    }

    @Test(arguments: ["STATE", "state ", "STATE\t", "STATE \t  ", "  STATE"])
    func aVerbWithoutArgumentsMayHaveBlanksAfterIt(text: String) {
        #expect(Command.parse(Array(text.utf8)) == .success(.state))
    }

    @Test(arguments: ["STATE x", "STATE \t x", "READY \u{301}", "LOCK\t-"])
    func aVerbWithoutArgumentsRefusesAWordAfterIt(text: String) {
        guard case .failure(let error) = Command.parse(Array(text.utf8)) else {
            Issue.record("\(text) parsed")
            return
        }
        #expect(error.code == .args)
    }

    @Test(arguments: ["hello bob", "Hello bob", "hElLo bob", "HELLO bob"])
    func verbsAreCaseInsensitive(text: String) {
        #expect(command(text) == .hello(name: "bob"))
    }

    @Test func otherVerbsAreCaseInsensitiveToo() {
        #expect(command("Join Fun") == .join(room: "Fun", game: nil, options: [:]))
        #expect(command("quit") == .quit)
        #expect(command("cHoOsE a") == .choose(picks: [.position(0)], revision: nil))
        #expect(command("history Lobby") == .history(room: "Lobby"))
    }

    @Test func namesAndTokensKeepTheirCase() {
        #expect(command("HELLO BoB") == .hello(name: "BoB"))
        #expect(command("resume AbC") == .resume(token: "AbC"))
        #expect(command("watch MyRoom") == .watch(room: "MyRoom", password: nil))
    }

    @Test(arguments: ["  HELLO bob", "HELLO   bob", "HELLO\tbob", "\tHELLO \t bob \t", "HELLO bob   "])
    func runsOfSpacesAndTabsSeparateWords(text: String) {
        #expect(command(text) == .hello(name: "bob"))
    }

    @Test(arguments: [
        ("HELLO", "HELLO"), ("HELLO bob alice", "HELLO"), ("resume", "RESUME"), ("RESUME a b", "RESUME"),
        ("ROOMS all", "ROOMS"), ("LEAVE now", "LEAVE"), ("state x", "STATE"), ("HINT a", "HINT"),
        ("PING 1", "PING"), ("help me", "HELP"), ("QUIT now", "QUIT"), ("WATCH", "WATCH"),
        ("watch a password=x y", "WATCH"), ("JOIN", "JOIN"), ("HISTORY a b", "HISTORY"), ("CHOOSE", "CHOOSE"),
        ("CHAT", "CHAT"), ("chat   \t ", "CHAT"),
    ])
    func missingOrExtraArgumentsAreArgsWithTheUpperCasedVerb(text: String, verb: String) throws {
        let error = try #require(refusal(text))
        #expect(error.code == .args)
        #expect(error.verb?.rawValue == verb)
        let usage = try #require(Command.synopses.first { $0.verb.rawValue == verb }?.usage)
        #expect(error.text.contains(usage))
    }

    @Test(arguments: ["FROB", "frob x y", "HELLOO bob", "HEL", "JOINED fun", "OK", "ERR - x", "/quit", "é"])
    func unknownVerbsAreUnknownWithNoVerb(text: String) throws {
        let error = try #require(refusal(text))
        #expect(error.code == .unknown)
        #expect(error.verb == nil)
    }

    @Test(arguments: ["", " ", "\t\t  "])
    func emptyLinesAreUnknown(text: String) throws {
        let error = try #require(refusal(text))
        #expect(error.code == .unknown)
        #expect(error.verb == nil)
    }

    @Test func theUnknownVerbIsQuotedSafelyAndShort() throws {
        let error = try #require(
            refusal("\u{1B}[2J\u{1B}]0;pwned\u{07}" + String(repeating: "W", count: 200)))
        #expect(error.code == .unknown)
        #expect(!error.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(!error.text.contains("pwned"))
        #expect(error.text.count < 80)
    }

    @Test(arguments: [
        [0xFF] as [UInt8],
        bytes("HELLO ") + [0xC3],  // truncated two-byte sequence
        bytes("CHAT ") + [0xC0, 0xAF],  // overlong encoding of "/"
        bytes("CHAT ") + [0xED, 0xA0, 0x80],  // a UTF-16 surrogate
        bytes("CHAT ") + [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
        [0x80, 0x0D],
    ])
    func invalidUTF8IsBadUTF8WithNoVerb(input: [UInt8]) throws {
        guard case .failure(let error) = Command.parse(input) else {
            Issue.record("\(input) parsed")
            return
        }
        #expect(error.code == .badUTF8)
        #expect(error.verb == nil)
        #expect(error.line.text.hasPrefix("ERR - BADUTF8 "))
    }

    @Test func validMultiByteUTF8IsNotBadUTF8() {
        #expect(Command.parse(bytes("CHAT héllo ♥ 👍🏽")) == .success(.chat(text: "héllo ♥ 👍🏽")))
    }

    @Test func nulBytesDoNotCrashOrSneakThrough() throws {
        let error = try #require(refusal("\u{0}"))
        #expect(error.code == .unknown && error.verb == nil)
        #expect(command("HELLO bob\u{0}") == .hello(name: "bob\u{0}"))  // the server's name check refuses it
        guard case .success(.chat(let text)) = Command.parse(bytes("CHAT a") + [0x00] + bytes("b")) else {
            Issue.record("CHAT with a NUL did not parse")
            return
        }
        #expect(text == "ab")
    }
}

@Suite("Parsing JOIN and NEW")
struct JoinAndNewParsingTests {
    @Test func joinTakesAGameAndOptions() {
        #expect(
            command("JOIN fun matchismo n=3") == .join(room: "fun", game: .matchismo, options: ["n": "3"]))
        #expect(
            command("JOIN fun mode=chain penalty=0")
                == .join(room: "fun", game: nil, options: ["mode": "chain", "penalty": "0"]))
        #expect(
            command("JOIN fun set mode=ultra hints=off")
                == .join(room: "fun", game: .set, options: ["mode": "ultra", "hints": "off"]))
    }

    @Test func gameNamesAndOptionNamesAreCaseInsensitive() {
        #expect(
            command("join fun MATCHISMO N=3") == .join(room: "fun", game: .matchismo, options: ["n": "3"]))
        #expect(command("JOIN fun Set") == .join(room: "fun", game: .set, options: [:]))
    }

    @Test func anOptionValueMayContainAnEqualsSign() {
        #expect(command("JOIN fun a=b=c") == .join(room: "fun", game: nil, options: ["a": "b=c"]))
    }

    @Test(arguments: [
        "JOIN fun poker", "JOIN fun matchismo set", "JOIN fun n", "JOIN fun n=", "JOIN fun =3", "JOIN fun =",
        "JOIN fun mode=chain matchismo", "JOIN fun set mode",
    ])
    func badGamesAndOptionsAreBadOption(text: String) throws {
        let error = try #require(refusal(text))
        #expect(error.code == .badOption)
        #expect(error.verb == .join)
    }

    @Test func newTakesOptions() {
        #expect(command("NEW") == .new(options: [:]))
        #expect(command("new penalty=0 Mode=junior") == .new(options: ["penalty": "0", "mode": "junior"]))
        #expect(command("NEW n=5") == .new(options: ["n": "5"]))
    }

    @Test(arguments: ["NEW fast", "NEW n=", "NEW =2", "NEW mode=chain x"])
    func badNewOptionsAreBadOption(text: String) throws {
        let error = try #require(refusal(text))
        #expect(error.code == .badOption)
        #expect(error.verb == .new)
    }

    @Test func theBadOptionIsQuotedSafely() throws {
        let error = try #require(refusal("NEW \u{1B}[31mred"))
        #expect(!error.text.contains("\u{1B}"))
        #expect(error.text.contains("red"))
    }

    @Test func watchTakesARoomAndAnOptionalPassword() {
        #expect(command("WATCH fun") == .watch(room: "fun", password: nil))
        #expect(command("watch fun password=S3cret") == .watch(room: "fun", password: "S3cret"))
    }

    @Test(arguments: ["WATCH fun colour=red", "WATCH fun secret", "WATCH fun password="])
    func watchRefusesOtherOptions(text: String) throws {
        let error = try #require(refusal(text))
        #expect(error.code == .badOption)
        #expect(error.verb == .watch)
    }

    @Test func historyTakesAnOptionalRoom() {
        #expect(command("HISTORY") == .history(room: nil))
        #expect(command("HISTORY lobby") == .history(room: "lobby"))
        #expect(command("history  lobby ") == .history(room: "lobby"))
    }
}

@Suite("Parsing CHOOSE")
struct ChooseParsingTests {
    static func positions(_ indices: Int...) -> [Command.Pick] { indices.map { .position($0) } }

    @Test func positionsAreLettersFromA() {
        #expect(command("CHOOSE a f k") == .choose(picks: Self.positions(0, 5, 10), revision: nil))
        #expect(command("CHOOSE z") == .choose(picks: Self.positions(25), revision: nil))
        #expect(command("CHOOSE A F K") == .choose(picks: Self.positions(0, 5, 10), revision: nil))
    }

    @Test func compactPositionsSplitIntoLetters() {
        #expect(command("CHOOSE afk") == .choose(picks: Self.positions(0, 5, 10), revision: nil))
        #expect(command("choose AFK") == .choose(picks: Self.positions(0, 5, 10), revision: nil))
        #expect(command("CHOOSE abcd") == .choose(picks: Self.positions(0, 1, 2, 3), revision: nil))
        #expect(command("CHOOSE afk @17") == .choose(picks: Self.positions(0, 5, 10), revision: 17))
    }

    @Test func cardCodesStayCodesAsTyped() {
        #expect(
            command("CHOOSE 1RFS 2GHT 3PEC")
                == .choose(picks: [.code("1RFS"), .code("2GHT"), .code("3PEC")], revision: nil))
        #expect(command("CHOOSE 1rfs") == .choose(picks: [.code("1rfs")], revision: nil))
    }

    @Test(arguments: ["QD", "qd", "AS", "10H", "KC"])
    func aPlayingCardCodeIsNotSplitIntoPositions(code: String) {
        #expect(command("CHOOSE \(code)") == .choose(picks: [.code(code)], revision: nil))
    }

    @Test func positionsAndCodesMix() {
        #expect(
            command("CHOOSE a 2GHT k @17")
                == .choose(picks: [.position(0), .code("2GHT"), .position(10)], revision: 17))
    }

    @Test func aRevisionComesLast() {
        #expect(command("CHOOSE a f k @17") == .choose(picks: Self.positions(0, 5, 10), revision: 17))
        #expect(command("CHOOSE a f k @0") == .choose(picks: Self.positions(0, 5, 10), revision: 0))
        #expect(command("CHOOSE b @3") == .choose(picks: Self.positions(1), revision: 3))
    }

    @Test(arguments: [
        "CHOOSE a f k @x", "CHOOSE a f k @", "CHOOSE a f k @-1", "CHOOSE a @1.5", "CHOOSE a @17x",
    ])
    func aBadRevisionIsArgs(text: String) throws {
        let error = try #require(refusal(text))
        #expect(error.code == .args)
        #expect(error.verb == .choose)
    }

    @Test(arguments: ["CHOOSE", "CHOOSE @17", "choose  \t"])
    func noCardsIsArgs(text: String) throws {
        let error = try #require(refusal(text))
        #expect(error.code == .args)
        #expect(error.verb == .choose)
    }

    @Test func upToTheMaximumNumberOfPicksIsAllowed() {
        let letters = "abcdefghijklmnopqrstuvwxyz".prefix(Command.maximumPicks).map { String($0) }
        #expect(Command.maximumPicks >= 4)  // ultra mode names four cards
        #expect(
            command("CHOOSE " + letters.joined(separator: " "))
                == .choose(picks: letters.indices.map { .position($0) }, revision: nil))
    }

    @Test func tooManyPicksIsArgs() throws {
        let letters = "abcdefghijklmnopqrstuvwxyz".prefix(Command.maximumPicks + 1).map { String($0) }
        let error = try #require(refusal("CHOOSE " + letters.joined(separator: " ") + " @2"))
        #expect(error.code == .args)
        #expect(error.verb == .choose)
        #expect(refusal("CHOOSE " + String(repeating: "1RFS ", count: 40))?.code == .args)
    }
}

@Suite("Parsing CHAT")
struct ChatParsingTests {
    @Test func chatKeepsInnerSpacesAndCase() {
        #expect(command("CHAT Hello   there, Bob!") == .chat(text: "Hello   there, Bob!"))
        #expect(command("chat   spaced out   ") == .chat(text: "spaced out"))
        #expect(command("CHAT\tTabbed") == .chat(text: "Tabbed"))
    }

    @Test func chatTextIsNotMistakenForCommands() {
        #expect(command("CHAT QUIT now") == .chat(text: "QUIT now"))
        #expect(command("CHAT CHAT") == .chat(text: "CHAT"))
        #expect(command("CHAT @17") == .chat(text: "@17"))
    }

    /// CHAT is read without splitting the line into words: only the verb itself, in any ASCII case and
    /// followed by a blank or the end, is CHAT.
    @Test func onlyTheVerbChatIsChat() {
        #expect(command("cHaT mixed") == .chat(text: "mixed"))
        #expect(refusal("CHATTER hi")?.code == .unknown)
        #expect(refusal("CHA T hi")?.code == .unknown)
        #expect(refusal("\u{1D04}HAT hi")?.code == .unknown, "a small capital C is no C")
        #expect(refusal("CHAT \t ") == ProtocolError(.chat, .args, "usage: CHAT <text>"))
    }

    @Test func leadingWhitespaceBeforeChatIsNotPartOfTheText() {
        #expect(command("  CHAT hi") == .chat(text: "hi"))
        #expect(command("\tchat  hi there") == .chat(text: "hi there"))
    }

    @Test func chatStripsControlCharactersAndEscapes() {
        #expect(command("CHAT \u{1B}[31mred\u{1B}[0m text") == .chat(text: "red text"))
        #expect(command("CHAT a\u{07}b\u{08}c\rd") == .chat(text: "abcd"))
        #expect(command("CHAT \u{1B}]0;evil title\u{07}hi") == .chat(text: "hi"))
        #expect(command("CHAT abc\u{202E}fed") == .chat(text: "abcfed"))
        #expect(command("CHAT héllo ♥") == .chat(text: "héllo ♥"))
    }

    @Test(arguments: ["CHAT \u{1B}[2J", "CHAT \u{07}\u{07}", "CHAT \u{1B}[31m \u{1B}[0m", "CHAT \u{202E}"])
    func chatWithNothingLeftIsArgs(text: String) throws {
        let error = try #require(refusal(text))
        #expect(error.code == .args)
        #expect(error.verb == .chat)
    }
}

@Suite("Errors")
struct ProtocolErrorTests {
    @Test func anErrorFormatsAsAnErrLine() {
        #expect(ProtocolError(.choose, .stale, "why").line.text == "ERR CHOOSE STALE why")
        #expect(ProtocolError(nil, .tooLong, "too long").line.text == "ERR - TOOLONG too long")
        #expect(
            ProtocolError(.choose, .notSet, "colour: two red, one green").line
                == .err(verb: "CHOOSE", code: .notSet, text: "colour: two red, one green"))
    }

    @Test func theErrorCodesAreProtocolMdsTable() throws {
        // The table under "Error codes": every code it promises exists, and nothing else is sent.
        let root = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let page = String(decoding: try #require(readFile("/" + root + "/protocol.md")), as: UTF8.self)
        let table = try #require(page.split(separator: "## Error codes").last?.split(separator: "## ").first)
        let documented = table.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^\| `([A-Z0-9]+)` \|/).map { String($0.1) }
        }
        #expect(documented.count == ErrorCode.allCases.count)
        #expect(Set(documented) == Set(ErrorCode.allCases.map(\.rawValue)))
        for code in documented {
            let parsed = ErrorCode(rawValue: code)
            #expect(parsed.rawValue == code)
            #expect(ErrorCode.allCases.contains(parsed), "\(code)")
            if case .unrecognized = parsed { Issue.record("\(code) is not recognized") }
        }
    }

    @Test func everyErrorCodeIsOneUpperCaseWord() {
        // A client reads the code as the third word of the ERR line.
        for code in ErrorCode.allCases {
            #expect(!code.rawValue.isEmpty)
            #expect(code.rawValue.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }, "\(code)")
            let line = ProtocolError(.ping, code, "some text").line
            guard case .err(_, let parsed, _) = ServerLine(parsing: line.text) else {
                Issue.record("\(line.text) does not parse as ERR")
                continue
            }
            #expect(parsed == code)
        }
    }
}

/// Typed commands format themselves, and the server reads back exactly the command that was formatted.
@Suite struct CommandFormattingTests {
    @Test(arguments: [
        Command.hello(name: "ann"), .hello(name: "ann", key: "s3cret"), .resume(token: "0123abcd"), .rooms,
        .join(room: "fun", game: nil, options: [:]), .join(room: "m", game: .matchismo, options: ["n": "3"]),
        .join(room: "night", game: .set, options: ["start": "ready", "mode": "junior", "password": "pw"]),
        .leave, .state, .choose(picks: [.position(0), .position(5), .position(10)], revision: 17),
        .choose(picks: [.code("1RES"), .position(2), .code("3GFT")], revision: nil),
        .choose(picks: [.code("QD")], revision: 4), .hint, .new(options: [:]),
        .new(options: ["mode": "ultra"]),
        .history(room: nil), .history(room: "fun"), .chat(text: "hello \u{0600} e\u{301} 👩‍👩‍👧 there"),
        .watch(room: "fun", password: nil), .watch(room: "p", password: "x"), .ping, .help, .quit, .ready,
        .start, .stats(name: nil), .stats(name: "bob"), .top(mode: nil), .top(mode: "chain"),
        .kick(name: "eve"), .kick(name: "eve", reason: "spamming the chat"), .lock, .unlock, .unready,
    ])
    func aFormattedCommandParsesBackToItself(command: Command) throws {
        #expect(try Command.parse(command.text).get() == command, "\(command.text)")
        #expect(command.text.hasPrefix(command.verb.rawValue))
    }
}

/// The commands issue 24 added: a kick's reason is the rest of the line, as a chat's text is.
@Suite struct HostCommandParsingTests {
    @Test func aKicksReasonIsTheRestOfTheLineSanitized() throws {
        #expect(try Command.parse("KICK eve").get() == .kick(name: "eve"))
        #expect(try Command.parse("kick  eve   too  rude ").get() == .kick(name: "eve", reason: "too  rude"))
        #expect(try Command.parse("KICK eve \u{1B}[31mred").get() == .kick(name: "eve", reason: "red"))
        #expect(try Command.parse("KICK eve \t ").get() == .kick(name: "eve"), "blanks are no reason")
        #expect(code(Command.parse("KICK")) == .args)
    }

    @Test func unreadyTakesNoArguments() throws {
        #expect(try Command.parse("unready").get() == .unready)
        #expect(code(Command.parse("UNREADY now")) == .args)
    }

    private func code(_ result: Result<Command, ProtocolError>) -> ErrorCode? {
        if case .failure(let error) = result { return error.code }
        return nil
    }
}
