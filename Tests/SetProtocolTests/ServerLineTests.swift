import SetProtocol
import SetTestSupport
import Testing

@Suite("Server lines")
struct ServerLineTests {
    /// One line of every case, with the exact text protocol.md gives it.
    static let samples: [(ServerLine, String)] = [
        (.greeting(version: 1, text: "welcome to setd; type HELP"), "SETD 1 welcome to setd; type HELP"),
        (.ok(verb: "HELLO", detail: "bob TOKEN"), "OK HELLO bob TOKEN"),
        (.ok(verb: "STATE", detail: ""), "OK STATE"),
        (.ok(verb: "NEW", detail: "voted 2/3"), "OK NEW voted 2/3"),
        (.ok(verb: "RESUME", detail: "bob -"), "OK RESUME bob -"),
        (.err(verb: "CHOOSE", code: .stale, text: "why"), "ERR CHOOSE STALE why"),
        (
            .err(verb: "-", code: .tooLong, text: "a line is at most 1024 bytes"),
            "ERR - TOOLONG a line is at most 1024 bytes"
        ),
        (
            .err(verb: "CHOOSE", code: .notSet, text: "colour: two red, one green"),
            "ERR CHOOSE NOTSET colour: two red, one green"
        ),
        (.room(name: "fun", game: .set, players: 2, status: .playing), "ROOM fun set 2 playing"),
        (.room(name: "m", game: .matchismo, players: 0, status: .over), "ROOM m matchismo 0 over"),
        (
            .options([("mode", "chain"), ("penalty", "0"), ("hints", "on")]),
            "OPTIONS mode=chain penalty=0 hints=on"
        ),
        (.options([("n", "3")]), "OPTIONS n=3"),
        (.options([("x", "a:b=c")]), "OPTIONS x=a:b=c"),  // a value may hold `:` and `=`
        (.options([]), "OPTIONS"),
        (.board(revision: 3, cards: [("a", "1RFS"), ("b", "2GHT")]), "BOARD 3 a:1RFS b:2GHT"),
        (
            .board(revision: 12, cards: [("a", "??"), ("b", "=JH"), ("c", "10H")]),
            "BOARD 12 a:?? b:=JH c:10H"
        ),
        (.board(revision: 1, cards: []), "BOARD 1"),
        (.deck(69), "DECK 69"),
        (.deck(0), "DECK 0"),
        (.chain(["1RFS", "2GHT", "3PEC"]), "CHAIN 1RFS 2GHT 3PEC"),
        (.chain([]), "CHAIN -"),
        (.turn("alice"), "TURN alice"),
        (.turn("-"), "TURN -"),
        (
            .found(total: 5, claims: [["1RFS", "2GHT", "3PEC"], ["1RFTW", "2RFTO", "3RFT"]]),
            "FOUND 2 5 1RFS,2GHT,3PEC 1RFTW,2RFTO,3RFT"
        ),
        (.found(total: 4, claims: []), "FOUND 0 4"),
        (.clock(milliseconds: 12_500, isRunning: true), "CLOCK 12500 running"),
        (.clock(milliseconds: 0, isRunning: false), "CLOCK 0 paused"),
        (.player(name: "bob", score: 2, isOnline: false), "PLAYER bob 2 away"),
        (.player(name: "alice", score: -3, isOnline: true), "PLAYER alice -3 online"),
        (.joined("bob"), "JOINED bob"),
        (.left("bob"), "LEFT bob"),
        (.set(name: "alice", cards: ["1RFS", "2GHT", "3PEC"]), "SET alice 1RFS 2GHT 3PEC"),
        (.set(name: "alice", cards: ["1RFS", "2GHT", "3PEC", "1GFT"]), "SET alice 1RFS 2GHT 3PEC 1GFT"),
        (
            .wrong(
                name: "bob", penalty: 1, cards: ["1RFS", "2GHT", "3PEC"], why: "colour: two red, one green"),
            "WRONG bob 1 1RFS 2GHT 3PEC : colour: two red, one green"
        ),
        (
            .wrong(name: "bob", penalty: 0, cards: ["1RFS", "?", "3PEC"], why: "a : b"),
            "WRONG bob 0 1RFS ? 3PEC : a : b"
        ),
        (
            .chose(name: "bob", points: 32, text: "Matched J♥ J♠ for 32 points"),
            "CHOSE bob 32 Matched J♥ J♠ for 32 points"
        ),
        (
            .chose(name: "bob", points: -4, text: "6♦ J♣ don't match! 4 point penalty!"),
            "CHOSE bob -4 6♦ J♣ don't match! 4 point penalty!"
        ),
        (.chose(name: "bob", points: -2, text: "8♦"), "CHOSE bob -2 8♦"),
        (.chat(name: "bob", text: "hi  there :)"), "CHAT bob hi  there :)"),
        (.newGame("alice"), "NEWGAME alice"),
        (.vote(name: "bob", votes: 1, needed: 2, options: []), "VOTE bob 1 2"),
        (
            .vote(
                name: "bob", votes: 1, needed: 2,
                options: [("mode", "ultra"), ("penalty", "1"), ("hints", "on")]),
            "VOTE bob 1 2 mode=ultra penalty=1 hints=on"
        ),
        (.over([(name: "alice", score: 3), (name: "bob", score: 1)]), "OVER alice:3 bob:1"),
        (.over([(name: "alice", score: 0), (name: "bob", score: -2)]), "OVER alice:0 bob:-2"),
        (.hint(position: "f", card: "2GHT"), "HINT f:2GHT"),
        (.history("12 alice 1RFS 2GHT 3PEC"), "HISTORY 12 alice 1RFS 2GHT 3PEC"),
        (
            .history("40 bob -4 6♦ J♣ don't match! 4 point penalty!"),
            "HISTORY 40 bob -4 6♦ J♣ don't match! 4 point penalty!"
        ),
        (
            .history("GAME 1 2026-12-02T20:01:00Z 2026-12-02T20:09:00Z alice:5 bob:2"),
            "HISTORY GAME 1 2026-12-02T20:01:00Z 2026-12-02T20:09:00Z alice:5 bob:2"
        ),
        (.help("HELLO <name>"), "HELP HELLO <name>"),
        (.ping("k7"), "PING k7"),
        (.bye("resumed elsewhere"), "BYE resumed elsewhere"),
        (.unknown("FUTURE thing 1 2"), "FUTURE thing 1 2"),
    ]

    @Test(arguments: samples)
    func textHasTheProtocolShape(line: ServerLine, text: String) {
        #expect(line.text == text)
        #expect(!line.text.contains("\n"))
    }

    /// A chat line made straight as bytes is the chat line's text and an LF, byte for byte, whatever
    /// the name and the text hold (short strings kept inline, long ones, non-ASCII, combining marks).
    @Test(arguments: [
        ("bob", "hi  there :)"), ("a", "x"), ("ann", ""), ("名前", "héllo wörld ✓ 🂡"),
        ("zoë", "\u{301}after a mark"),
        (
            "longer-name-than-fifteen",
            String(repeating: "a long chat line past the small-string size ", count: 9)
        ),
    ])
    func chatBytesAreTheChatLineAndItsLineFeed(name: String, text: String) {
        let made = ServerLine.chatBytes(name: name, text: text)
        #expect(made == Array((ServerLine.chat(name: name, text: text).text + "\n").utf8))
    }

    @Test(arguments: samples)
    func parsingTheTextGivesTheSameLineBack(line: ServerLine, text: String) {
        let parsed = ServerLine(parsing: text)
        #expect(isSameStructure(parsed, line), "\(String(reflecting: parsed)) != \(String(reflecting: line))")
    }

    @Test func everyCaseHasASample() {
        let cases = Set(Self.samples.map { TextReference.caseName($0.0) })
        #expect(cases.count == 27, "\(cases.sorted())")
    }

    @Test func parsedFieldsAreTyped() {
        guard case .player(let name, let score, let isOnline) = ServerLine(parsing: "PLAYER bob 2 away")
        else {
            Issue.record("not a PLAYER line")
            return
        }
        #expect(name == "bob" && score == 2 && !isOnline)
        guard case .board(let revision, let cards) = ServerLine(parsing: "BOARD 3 a:1RFS b:=JH") else {
            Issue.record("not a BOARD line")
            return
        }
        #expect(revision == 3)
        #expect(cards.map(\.position) == ["a", "b"] && cards.map(\.card) == ["1RFS", "=JH"])
        guard
            case .wrong(_, let penalty, let wrongCards, let why) =
                ServerLine(parsing: "WRONG bob 1 1RFS 2GHT 3PEC : colour: two red, one green")
        else {
            Issue.record("not a WRONG line")
            return
        }
        #expect(
            penalty == 1 && wrongCards == ["1RFS", "2GHT", "3PEC"] && why == "colour: two red, one green")
        guard
            case .err(let verb, let code, let text) = ServerLine(
                parsing: "ERR - UNKNOWN empty line; type HELP")
        else {
            Issue.record("not an ERR line")
            return
        }
        #expect(verb == "-" && code == .unknown && text == "empty line; type HELP")
    }

    @Test(arguments: [
        "", " ", "HELLO bob", "FUTURE 1 2 3", "ok HELLO bob", "Ok PING", "setd 1 hi", "PLAYERS bob 2 away",
        "BOARDS 1 a:1RFS",
    ])
    func unknownLinesAreUnknown(text: String) {
        #expect(isSameStructure(ServerLine(parsing: text), .unknown(text)))
    }

    @Test(arguments: [
        "SETD", "SETD x hello", "OK", "ERR", "ERR CHOOSE", "ROOM fun set", "ROOM fun set x playing",
        "ROOM fun set 2 playing extra", "OPTIONS mode", "OPTIONS mode:chain", "BOARD", "BOARD x a:1RFS",
        "BOARD 3 a1RFS", "DECK", "DECK x", "DECK 1 2", "DECK 99999999999999999999", "CHAIN", "TURN",
        "TURN a b",
        "PLAYER bob x online", "PLAYER bob 2 busy", "PLAYER bob 2", "PLAYER bob 2 Online",
        "PLAYER bob 2 away x",
        "JOINED", "JOINED a b", "LEFT", "SET", "SET bob", "WRONG bob 1 1RFS 2GHT 3PEC",
        "WRONG bob x 1RFS : why",
        "WRONG bob 1", "CHOSE bob", "CHOSE bob x text", "CHAT", "NEWGAME", "NEWGAME a b", "VOTE bob 1",
        "VOTE bob x 2", "OVER alice", "OVER alice:x", "OVER alice:3 bob", "HINT", "HINT f",
        "HINT f:1RFS g:2GHT",
    ])
    func malformedKnownLinesAreUnknown(text: String) {
        let parsed = ServerLine(parsing: text)
        #expect(isSameStructure(parsed, .unknown(text)), "\(String(reflecting: parsed))")
    }

    @Test func onlyOkAndErrAreFinal() {
        for (line, text) in Self.samples {
            let isReply = text.hasPrefix("OK ") || text.hasPrefix("ERR ")
            #expect(line.isFinal == isReply, "\(text)")
            #expect(ServerLine(parsing: text).isFinal == isReply, "\(text)")
        }
        #expect(!ServerLine(parsing: "OK").isFinal)
        #expect(!ServerLine(parsing: "OKAY fine").isFinal)
        #expect(ServerLine(parsing: "OK PING").isFinal)
    }

    @Test func equalityIsByText() {
        #expect(ServerLine.deck(3) == ServerLine(parsing: "DECK 3"))
        #expect(ServerLine.deck(3) != .deck(4))
        #expect(
            ServerLine.player(name: "bob", score: 1, isOnline: true)
                != .player(name: "bob", score: 1, isOnline: false))
        #expect(ServerLine.options([("a", "1")]) != .options([("a", "2")]))
    }
}
