import SetProtocol
import Testing

@Suite("OK details")
struct OKDetailTests {
    /// Every documented detail, with the text protocol.md gives it.
    static let samples: [(OKDetail, String)] = [
        (
            .hello(name: "alice", token: "d54eb72423f733102e8c9db7315a6d79"),
            "OK HELLO alice d54eb72423f733102e8c9db7315a6d79"
        ),
        (.resume(name: "bob", room: "fun", count: 7), "OK RESUME bob fun 7"),
        (.resume(name: "bob", room: nil, count: 0), "OK RESUME bob"),
        (.join(room: "fun", count: 6), "OK JOIN fun 6"),
        (.watch(room: "fun", count: 6), "OK WATCH fun 6"),
        (.state(count: 7), "OK STATE 7"),
        (.help(count: 14), "OK HELP 14"),
        (.hint(count: 1), "OK HINT 1"),
        (.leave(room: "fun"), "OK LEAVE fun"),
        (.rooms(count: 1), "OK ROOMS 1"),
        (.rooms(count: 0), "OK ROOMS 0"),
        (.history(count: 12), "OK HISTORY 12"),
        (.choose(cards: ["3PES", "2GFT", "1RHC"]), "OK CHOOSE 3PES 2GFT 1RHC"),
        (.choose(cards: ["10H"]), "OK CHOOSE 10H"),
        (.new(.started), "OK NEW started"),
        (.new(.voted(votes: 1, needed: 2)), "OK NEW voted 1/2"),
        (.other(verb: "PING", detail: ""), "OK PING"),
        (.other(verb: "FUTURE", detail: "a b c"), "OK FUTURE a b c"),
    ]

    @Test(arguments: samples)
    func aDetailFormatsAndReadsBack(detail: OKDetail, text: String) {
        #expect(detail.line.text == text)
        #expect(ServerLine(parsing: text).okDetail == detail)
    }

    /// Details not in the documented shape are not half-read: they stay text, as `.other`.
    @Test(arguments: [
        ("HELLO", "alice"), ("HELLO", "alice tok extra"), ("HELLO", "alice  tok"), ("HELLO", ""),
        ("RESUME", ""), ("RESUME", "bob fun extra"), ("RESUME", "bob "), ("RESUME", "bob fun"),
        ("JOIN", "fun more"), ("JOIN", "fun"), ("JOIN", "fun 1 2"), ("WATCH", "fun"), ("STATE", ""),
        ("STATE", "x"), ("HELP", ""), ("HINT", ""), ("HINT", "01"),
        ("ROOMS", "x"), ("ROOMS", "+3"), ("ROOMS", "03"), ("HISTORY", "1 2"), ("CHOOSE", ""),
        ("CHOOSE", "1RFS  2GHT"), ("NEW", "voted"), ("NEW", "voted 1/x"), ("NEW", "voted 1/2/3"),
        ("NEW", "voted 1-2"), ("NEW", "begun"), ("NEW", "started now"), ("new", "started"),
    ])
    func aMalformedDetailIsOther(verb: String, detail: String) {
        #expect(OKDetail(verb: verb, detail: detail) == .other(verb: verb, detail: detail))
        #expect(OKDetail(verb: verb, detail: detail).detail == detail)
    }

    @Test func onlyOKLinesHaveADetail() {
        #expect(ServerLine(parsing: "ERR HELLO TAKEN alice is playing").okDetail == nil)
        #expect(ServerLine(parsing: "DECK 3").okDetail == nil)
        #expect(ServerLine(parsing: "OK").okDetail == nil)  // not an OK line: it has no verb
    }

    /// What the server of protocol.md's captured session says reads as what it means.
    @Test func theCapturedSessionReads() {
        #expect(
            ServerLine(parsing: "OK HELLO bob adb6332164b7fc63281fc8332adf4ad9").okDetail
                == .hello(name: "bob", token: "adb6332164b7fc63281fc8332adf4ad9"))
        #expect(ServerLine(parsing: "OK ROOMS 1").okDetail == .rooms(count: 1))
        #expect(ServerLine(parsing: "OK HISTORY 1").okDetail == .history(count: 1))
        #expect(
            ServerLine(parsing: "OK CHOOSE 3PES 2GFT 1RHC").okDetail
                == .choose(cards: ["3PES", "2GFT", "1RHC"]))
    }
}
