import SetProtocol
import SetTerminal
import Testing

/// set-cli's host tools and game-night commands (issue 24), without a terminal: what each typed
/// command sends, and what the player is shown of the replies and events.
@Suite struct HostToolsSessionTests {
    private struct Harness {
        var session = ClientSession(name: "alice", room: "night")
        var sent: [String] = []
        var events: [LogEntry] = []
        var statuses: [ClientSession.Status] = []
        var panels: [Panel] = []

        init(watching: Bool = false) {
            session = ClientSession(name: "alice", room: "night", watching: watching)
            session.connectionOpened()
        }

        mutating func server(_ lines: String...) {
            for line in lines {
                for output in session.receive(.init(parsing: line)) {
                    switch output {
                    case .send(let text): sent.append(text)
                    case .event(let entry): events.append(entry)
                    case .status(let status): statuses.append(status)
                    case .panel(let panel): panels.append(panel)
                    default: break
                    }
                }
            }
        }

        mutating func type(_ line: String) {
            guard case .success(let command)? = UserCommand.parse(line, context: .init(session.view)) else {
                Issue.record("\(line) does not parse")
                return
            }
            for case .send(let text) in session.perform(command, revision: session.view.revision) {
                sent.append(text)
            }
        }

        mutating func seat() {
            server("SETD 1 hi", "OK HELLO alice t0k")
            server(
                "ROOM night set 2 playing", "OPTIONS mode=normal penalty=1 hints=on",
                "BOARD 3 a:1RFS b:2GHT c:3PEC d:1GFT e:2PHC f:3REC g:1PES h:2RFT i:3GHS j:1RHC k:2GET l:3PFS",
                "DECK 66", "PLAYER alice 0 online", "PLAYER eve 0 online", "HOST alice",
                "STARTED 1798761600150", "OK JOIN night 8")
            (sent, events, statuses) = ([], [], [])
        }
    }

    @Test("The host's commands are sent as the protocol spells them")
    func hostCommands() {
        var h = Harness()
        h.seat()
        for typed in [
            "/kick eve trolling the chat", "/kick eve", "/lock", "/unlock", "/start", "/ready", "/unready",
            "/stats", "/stats bob", "/top", "/top Chain", "/history", "/watch other", "/watch p password=pw",
        ] {
            h.type(typed)
        }
        #expect(
            h.sent == [
                "KICK eve trolling the chat", "KICK eve", "LOCK", "UNLOCK", "START", "READY", "UNREADY",
                "STATS",
                "STATS bob", "TOP", "TOP chain", "HISTORY", "WATCH other", "WATCH p password=pw",
            ])
        #expect(h.session.view.startedAt == 1_798_761_600_150, "the clock counts from the deal")
    }

    @Test("Refusals are told before anything is sent")
    func badHostCommands() {
        for line in ["/kick", "/kick no/such", "/lock now", "/stats a b", "/watch", "/watch r pw"] {
            guard case .failure? = UserCommand.parse(line, context: .init(boardCount: 12)) else {
                Issue.record("\(line) was accepted")
                continue
            }
        }
    }

    @Test("A kick is told with its reason; the kicked player is in no room")
    func kicked() {
        var h = Harness()
        h.seat()
        h.server("KICKED eve alice spamming", "LEFT eve")
        #expect(h.events.first == .problem("alice (the host) sent eve out of the room: spamming"))
        var kicked = Harness()
        kicked.seat()
        kicked.server("KICKED alice eve too fast")
        #expect(
            kicked.events == [.problem("eve (the host) sent you out of night: too fast; /join another room")])
        #expect(kicked.session.view.room == nil)
    }

    @Test("A vote says what is voted on; a bare /new agrees; the standing proposal is in the view")
    func votes() {
        var h = Harness()
        h.seat()
        h.server(
            "VOTE eve 1 2 mode=junior penalty=1 hints=on", "PROPOSAL 1 2 eve mode=junior penalty=1 hints=on")
        #expect(
            h.events.last
                == .vote(
                    name: "eve", votes: 1, needed: 2, options: ["mode=junior", "penalty=1", "hints=on"],
                    isMine: false))
        #expect(h.events.last?.styled.plainText.hasSuffix("(1/2 votes; /new agrees)") == true)
        #expect(h.session.view.proposal?.voters == ["eve"])
        h.type("/new")
        #expect(h.sent == ["NEW"], "the server counts a bare NEW for the standing proposal")
    }

    @Test("Ready can be taken back; a stopped countdown is told")
    func unready() {
        var h = Harness()
        h.server("SETD 1 hi", "OK HELLO alice t0k")
        h.server(
            "ROOM night set 2 waiting", "OPTIONS mode=normal penalty=1 hints=on start=ready", "BOARD 1",
            "DECK 81", "PLAYER alice 0 online", "PLAYER eve 0 online", "HOST alice", "OK JOIN night 7")
        h.server("READY eve 1 2", "READY alice 2 2", "COUNTDOWN 3", "UNREADY eve 1 2", "COUNTDOWN -")
        #expect(h.session.night.ready == ["alice"] && h.session.night.countdown == nil)
        #expect(
            h.events.suffix(2).map(\.styled.plainText) == [
                "eve is not ready (1 of 2)", "the countdown stopped: not everyone is ready",
            ])
    }

    @Test("Stats and top open as lists; watching sits nobody down")
    func panelsAndWatching() {
        var h = Harness()
        h.seat()
        h.type("/stats")
        h.server(
            "RATING alice normal rating=1532 games=3 wins=2 sets=30 wrong=1 stale=4", "OK STATS 1")
        #expect(h.panels.last?.title == "Stats of alice")
        #expect(h.panels.last?.lines.last?.plainText.contains("1532") == true)
        h.type("/top")
        h.server("TOP 1 alice 1532 3", "TOP 2 eve 1468 3", "OK TOP 2")
        #expect(h.panels.last?.lines.map(\.plainText).first?.contains("alice") == true)
        var watcher = Harness(watching: true)
        watcher.server("SETD 1 hi", "OK HELLO alice t0k")
        #expect(watcher.sent == ["HELLO alice", "WATCH night"])
        watcher.server("ROOM night set 1 playing", "HOST eve", "OK WATCH night 2")
        #expect(watcher.session.isWatching && watcher.session.view.room == "night")
    }

    @Test("Times are rounded to the nearest tenth, as the page rounds them")
    func rounding() {
        #expect(
            [1150, 1190, 1149, 950, 0, 59_999].map { GameNight.seconds($0) } == [
                "1.2 s", "1.2 s", "1.1 s", "1.0 s", "0.0 s", "60.0 s",
            ])
    }
}
