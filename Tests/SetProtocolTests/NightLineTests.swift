import SetProtocol
import Testing

/// The game-night lines (issue 13) parse back to what the server formatted, and malformed ones are
/// unknown lines a client ignores.
@Suite struct NightLineTests {
    static let lines: [ServerLine] = [
        .ready(name: "ann", ready: 1, seated: 2), .countdown(3), .host("ann"),
        .kicked(name: "carl", by: "ann"),
        .locked("ann"), .unlocked("ann"),
        .stats(ScoreSheetEntry(name: "ann", sets: 12, wrong: 1, stale: 2, fastest: 812, mean: 4310)),
        .stats(ScoreSheetEntry(name: "bob", sets: 0, wrong: 0, stale: 0, fastest: nil, mean: nil)),
        .duration(312_004),
        .rating(
            RatingEntry(
                name: "ann", mode: "chain", rating: 1628, games: 3, wins: 2, sets: 40, wrong: 3, stale: 1)),
        .top(rank: 1, name: "bob", rating: 1537, games: 2),
        .room(name: "r", game: .set, players: 2, status: .waiting),
        .kicked(name: "eve", by: "ann", reason: "too rude, sorry"),
        .unready(name: "bob", ready: 1, seated: 3),
        .countdownStopped, .started(1_798_761_600_150),
        .proposal(
            Proposal(
                votes: 2, needed: 3, voters: ["bob", "carl"], options: [("mode", "junior"), ("hints", "on")])),
        .proposal(nil),
    ]

    @Test(arguments: lines)
    func aLineParsesBackToItself(_ line: ServerLine) {
        let parsed = ServerLine(parsing: line.text)
        #expect(parsed == line)
        if case .unknown = parsed { Issue.record("\(line.text) is not understood") }
    }

    @Test func theLinesHaveTheAgreedShapes() {
        #expect(
            Self.lines.map(\.text).prefix(9) == [
                "READY ann 1 2", "COUNTDOWN 3", "HOST ann", "KICKED carl ann", "LOCKED ann", "UNLOCKED ann",
                "STATS ann sets=12 wrong=1 stale=2 fastest=812 mean=4310",
                "STATS bob sets=0 wrong=0 stale=0 fastest=- mean=-", "DURATION 312004",
            ])
        #expect(Self.lines[9].text == "RATING ann chain rating=1628 games=3 wins=2 sets=40 wrong=3 stale=1")
        #expect(Self.lines[10].text == "TOP 1 bob 1537 2")
        #expect(
            Self.lines.suffix(6).map(\.text) == [
                "KICKED eve ann too rude, sorry", "UNREADY bob 1 3", "COUNTDOWN -", "STARTED 1798761600150",
                "PROPOSAL 2 3 bob,carl mode=junior hints=on", "PROPOSAL -",
            ])
    }

    @Test(arguments: [
        "READY ann 1", "READY ann x 2", "COUNTDOWN", "COUNTDOWN x", "COUNTDOWNS 3", "HOST", "HOST a b",
        "KICKED carl", "STATS ann sets=1 wrong=0 stale=0 fastest=- mean", "STATS ann sets=1 wrong=0 stale=0",
        "STATS ann set=1 wrong=0 stale=0 fastest=- mean=-",
        "STATS ann sets=1 wrong=0 stale=0 fastest=-- mean=-",
        "DURATION -", "RATING ann normal rating=x games=1 wins=0 sets=0 wrong=0 stale=0", "TOP 1 bob 1537",
        "UNLOCKED", "UNREADY bob 1", "STARTED", "STARTED soon", "PROPOSAL", "PROPOSAL 1 2",
        "PROPOSAL 1 2 a,,b",
        "PROPOSAL 1 2 bob junior",
    ])
    func aMalformedLineIsUnknown(_ text: String) {
        guard case .unknown = ServerLine(parsing: text) else {
            Issue.record("\(text) parsed as \(ServerLine(parsing: text))")
            return
        }
    }

    @Test func repliesCountTheirDataLines() {
        #expect(
            ServerLine.rating(
                RatingEntry(
                    name: "a", mode: "normal", rating: 1, games: 1, wins: 0, sets: 0, wrong: 0, stale: 0)
            ).isData(ofReplyTo: "STATS"))
        #expect(ServerLine.top(rank: 1, name: "a", rating: 1, games: 1).isData(ofReplyTo: "TOP"))
        #expect(ServerLine.host("a").isData(ofReplyTo: "JOIN"), "HOST is a snapshot line")
        #expect(!ServerLine.countdown(2).isData(ofReplyTo: "READY"))
        #expect(OKDetail(verb: "READY", detail: "1 2") == .ready(ready: 1, seated: 2))
        #expect(OKDetail(verb: "STATS", detail: "3").dataCount == 3)
        #expect(OKDetail(verb: "TOP", detail: "10").dataCount == 10)
        #expect(OKDetail(verb: "UNREADY", detail: "0 2") == .unready(ready: 0, seated: 2))
        #expect(ServerLine.started(1).isData(ofReplyTo: "STATE") && ServerLine.proposal(nil).isSnapshot)
    }

    @Test func aLineANewerServerAddsToASnapshotIsCountedAsItsData() {
        var tracker = ReplyTracker<Int>()
        tracker.sent("JOIN", context: 0)
        var sorted: [ReplyTracker<Int>.Received] = []
        for text in ["ROOM r set 1 playing", "FUTURE thing", "HOST ann", "OK JOIN r 3"] {
            sorted += tracker.receive(ServerLine(parsing: text))
        }
        guard case .reply(let reply) = sorted.last else {
            Issue.record("no reply: \(sorted)")
            return
        }
        #expect(reply.data.map(\.text) == ["ROOM r set 1 playing", "FUTURE thing", "HOST ann"])
        // While no reply with data waits, an unknown line is an event at once.
        tracker.sent("CHAT", context: 1)
        guard case .event = tracker.receive(ServerLine(parsing: "FUTURE thing")).first else {
            Issue.record("an unknown line was held for a CHAT")
            return
        }
    }

    @Test func aViewFollowsTheWaitingRoom() {
        var view = GameView(lines: [
            "ROOM r set 2 waiting", "OPTIONS mode=normal penalty=1 hints=on start=ready", "BOARD 1",
            "DECK 81",
            "PLAYER ann 0 online", "PLAYER bob 0 online", "HOST ann", "READY ann 1 2", "COUNTDOWN 3",
            "COUNTDOWN 2",
        ])
        #expect(view.status == .waiting && view.host == "ann" && view.countdown == 2)
        #expect(view.readyCount?.ready == 1 && view.readyCount?.seated == 2 && view.board.isEmpty)
        view.apply(text: "ROOM r set 2 playing")
        #expect(view.countdown == nil && view.readyCount == nil)
        view.apply(text: "HOST bob")
        #expect(view.host == "bob")
        view.apply(text: "STARTED 1798761600150")
        #expect(view.startedAt == 1_798_761_600_150)
        view.apply(text: "PROPOSAL 1 2 ann mode=junior")
        #expect(view.proposal?.voters == ["ann"] && view.proposal?.options.first?.1 == "junior")
        view.apply(text: "NEWGAME ann")
        #expect(view.proposal == nil && view.startedAt == nil)
    }
}
