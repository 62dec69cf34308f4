import SetProtocol
import Testing

/// The byte parser of server lines (`ServerLine(parsing:)`), which the server's clients, the bots and the
/// fuzzer all use.
@Suite("Server lines: the byte parser")
struct ServerLineParsingTests {
    /// Lines of every shape the bots see most, well-formed and not, spaced oddly, cut short; none has a
    /// mark that fuses with a space, so splitting by `Character` and by byte must agree on them.
    static let lines: [String] = [
        "BOARD 7 a:1RFS b:2GHT c:3PEC d:1GFT e:2PHC f:3REC g:1PES h:2RFT i:3GHS j:1RHC k:2GET l:3PFS",
        "BOARD 1", "BOARD x a:1RFS", "BOARD 3 a1RFS", "BOARD 3 a:b:c", "BOARD  3   a:1RFS  ",
        " BOARD 3 a:1RFS",
        "BOARD 3 a:??  b:=JH c:10S", "BOARD +3 a:1RFS", "BOARD -1 a:", "BOARD 3 :x", "BOARDS 3 a:1RFS",
        "BOARD 3 a:1RFS\tb:2GHT", "BOARD 3 a:é",
        "PLAYER alice 3 online", "PLAYER bob -2 away", "PLAYER bob 2 gone", "PLAYER bob x online",
        "PLAYER bob 2 online extra", "PLAYER bob", "PLAYER  bob  2  online", "PLAYERS bob 2 online",
        "PLAYER bøb 2 online",
        "SET alice 1RFS 2GHT 3PEC", "SET alice", "SET alice 1RFS", "SET a b c d e", "SETD 1 welcome",
        "SET  alice  1RFS 2GHT 3PEC ",
        "DECK 66", "DECK", "DECK 1 2", "DECK x", "DECK -0",
        "OK CHOOSE 1RFS 2GHT 3PEC", "ERR CHOOSE STALE the board changed", "CHAT bob hi  there", "", " ",
        "D",
        "PING 42", "OVER alice:3 bob:1", "ROOM lobby set 2 playing",
        "OK PING", "OK PING ", "OK PING  ", "OK  CHOOSE  1RFS  2GHT", " OK HELLO bob tok", "OK",
        "OK NEW voted 1/2",
        "ERR CHOOSE STALE", "ERR CHOOSE", "ERR - UNKNOWN unknown command 'x'; type HELP",
        "ERR CHOOSE NOTSET  two  spaces ",
        "OK CHOOSE 1RFS é", "ERR CHOOSE NOTSET colour: two red, one green",
        "ROOM lobby set 2", "ROOM lobby set x playing", "ROOM lobby set 2 playing extra", "ROOMS 3",
        "OVER", "OVER alice", "OVER alice:x", "OVER a:b:3 c:-1", "OVER  alice:3  ", "OVERS a:1",
        "VERYLONGWORD x", "PLAYER bob 2 onlinex", "PLAYER bob 2 awa",
        "OPTIONS mode=chain penalty=0", "OPTIONS x=a:b=c", "OPTIONS mode", "CHAIN -", "CHAIN - 1RFS",
        "CHAIN 1RFS 2GHT 3PEC", "WRONG bob 1 1RFS 2GHT 3PEC : colour: two red", "WRONG bob 1 : why",
        "WRONG bob 1 a b", "CHOSE bob -4 6♦ J♣ don't match!", "VOTE bob 1 2", "HINT f:2GHT", "HINT f",
        "TURN -", "JOINED bob", "LEFT bob x", "NEWGAME alice", "HISTORY", "HISTORY ", "BYE idle",
        "ERR - FULL the server is full", "ERR PING FUTURE code", "SETD 1", "SETD x y",
    ]

    /// Where no mark fuses with a space, the byte parser must agree with the old `Character` parser on
    /// every field of every line, malformed ones included.
    @Test(arguments: lines)
    func agreesWithTheReferenceParser(_ text: String) {
        let parsed = ServerLine(parsing: Array(text.utf8))
        let reference = ReferenceServerLineParser.parse(text)
        #expect(String(reflecting: parsed) == String(reflecting: reference), "\(text)")
    }

    @Test func agreesWithTheReferenceParserOnRandomASCIILines() {
        var random = Xorshift(seed: 0x5E7D_0003)
        let words = [
            "SETD", "OK", "ERR", "ROOM", "OPTIONS", "BOARD", "DECK", "CHAIN", "TURN", "PLAYER", "JOINED",
            "LEFT", "SET", "WRONG", "CHOSE", "CHAT", "NEWGAME", "VOTE", "OVER", "HINT", "HISTORY", "HELP",
            "PING", "BYE", "1", "-2", "+3", "x", ":", "a:1RFS", "bob:3", "a:b:3", "mode=chain", "=", "a=",
            "online", "away", "set", "matchismo", "playing", "over", "-", "", "\t", "STALE", "FUTURE",
            "99999999999999999999", "-9223372036854775808",
        ]
        for _ in 0..<5000 {
            let count = Int.random(in: 1...7, using: &random)
            let text = (0..<count).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            let parsed = ServerLine(parsing: text)
            let reference = ReferenceServerLineParser.parse(text)
            #expect(String(reflecting: parsed) == String(reflecting: reference), "\(text.debugDescription)")
        }
    }

    /// Every way of handing the parser bytes gives the same line: an array, a slice, a string's UTF-8
    /// view, and a collection with no contiguous storage.
    @Test(arguments: lines + ["CHAT bob héllo ♥", "WRONG bøb 1 1RFS 2GHT 3PEC : why ✓"])
    func everyByteCollectionParsesTheSame(_ text: String) {
        let expected = String(reflecting: ServerLine(parsing: text))
        let framed = Array(("x" + text).utf8)
        #expect(String(reflecting: ServerLine(parsing: Array(text.utf8))) == expected)
        #expect(String(reflecting: ServerLine(parsing: framed.dropFirst())) == expected)
        #expect(String(reflecting: ServerLine(parsing: text.utf8)) == expected)
        #expect(String(reflecting: ServerLine(parsing: text.utf8.lazy.map { $0 })) == expected)
    }

    /// A combining mark (U+0301) or a prepend mark (U+0600) after a space fuses with it into one
    /// `Character`; split by bytes, the space still separates the words.
    @Test func aMarkAfterASpaceDoesNotSwallowTheSpace() {
        for mark in ["\u{301}", "\u{600}"] {
            guard case .chat(let name, let text) = ServerLine(parsing: "CHAT ann \(mark)hi") else {
                Issue.record("CHAT with \(mark.unicodeScalars.first!) did not parse")
                continue
            }
            #expect(name == "ann" && text == "\(mark)hi")
            // The `Character` split read the name and the mark as one word of a two-word line.
            #expect(
                isSameStructure(ServerLine(parsing: "JOINED bob \(mark)"), .unknown("JOINED bob \(mark)")))
            guard case .set(let who, let cards) = ServerLine(parsing: "SET bob \(mark)1RFS 2GHT") else {
                Issue.record("SET with \(mark.unicodeScalars.first!) did not parse")
                continue
            }
            #expect(who == "bob" && cards == ["\(mark)1RFS", "2GHT"])
        }
    }

    @Test func numbersReadAsIntDoes() {
        #expect(isSameStructure(ServerLine(parsing: "DECK +3"), .deck(3)))
        #expect(isSameStructure(ServerLine(parsing: "DECK -0"), .deck(0)))
        #expect(isSameStructure(ServerLine(parsing: "DECK 007"), .deck(7)))
        #expect(isSameStructure(ServerLine(parsing: "DECK \(Int.min)"), .deck(Int.min)))
        #expect(isSameStructure(ServerLine(parsing: "DECK \(Int.max)"), .deck(Int.max)))
        for text in [
            "DECK 9223372036854775808", "DECK -9223372036854775809", "DECK -", "DECK +", "DECK 3x",
            "DECK ３",
        ] {
            #expect(isSameStructure(ServerLine(parsing: text), .unknown(text)), "\(text)")
        }
    }

    @Test func bytesThatAreNotUTF8AreReplacedNotDropped() {
        let parsed = ServerLine(parsing: Array("DECK ".utf8) + [0xFF])
        #expect(isSameStructure(parsed, .unknown("DECK \u{FFFD}")))
        guard case .chat(let name, let text) = ServerLine(parsing: Array("CHAT bob a".utf8) + [0xC3]) else {
            Issue.record("a CHAT with a torn character did not parse")
            return
        }
        #expect(name == "bob" && text == "a\u{FFFD}")
    }

    /// A newer server's error code still makes an `ERR` line, so it still ends its reply.
    @Test func anUnknownErrorCodeIsKept() {
        let parsed = ServerLine(parsing: "ERR CHOOSE TOOSOON wait for the dealer")
        guard case .err(let verb, let code, let text) = parsed else {
            Issue.record("not an ERR line: \(parsed)")
            return
        }
        #expect(verb == "CHOOSE" && code == .unrecognized("TOOSOON") && text == "wait for the dealer")
        #expect(code.rawValue == "TOOSOON" && !ErrorCode.allCases.contains(code))
        #expect(parsed.isFinal)
        #expect(parsed.text == "ERR CHOOSE TOOSOON wait for the dealer")
        // Known codes always come back as their case, which a `switch` needs.
        guard case .stale = ErrorCode(rawValue: "STALE") else {
            Issue.record("STALE is not .stale")
            return
        }
        #expect(ErrorCode.unrecognized("STALE") == .stale)  // equality is by the text
    }

    /// A `ROOM` line with a game or status this version does not know is a line it does not know.
    @Test(arguments: ["ROOM fun set 2 paused", "ROOM fun poker 2 playing", "ROOM fun set 2 Playing"])
    func aRoomOfAnUnknownKindIsUnknown(_ text: String) {
        #expect(isSameStructure(ServerLine(parsing: text), .unknown(text)))
    }

    @Test func aRoomLineIsTyped() {
        #expect(
            isSameStructure(
                ServerLine(parsing: "ROOM den matchismo 3 over"),
                .room(name: "den", game: .matchismo, players: 3, status: .over)))
    }
}
