import SetTerminal
import Testing

/// The protocol side of the client, driven with server lines as text.
@Suite struct ClientSessionTests {
    /// Feeds server lines and collects what the session wants sent and shown.
    private struct Harness {
        var session: ClientSession
        var sent: [String] = []
        var events: [LogEntry] = []
        var statuses: [ClientSession.Status] = []
        var panels: [Panel] = []
        var finished = false
        var kept: [String?] = []
        var fatal: String?

        init(name: String = "alice", room: String = "lobby", game: String? = nil, token: String? = nil) {
            session = ClientSession(
                name: name, room: room, game: game.flatMap { .init(rawValue: $0) }, token: token)
            session.connectionOpened()
        }

        mutating func take(_ outputs: [ClientSession.Output]) {
            for output in outputs {
                switch output {
                case .send(let line): sent.append(line)
                case .event(let entry): events.append(entry)
                case .status(let status): statuses.append(status)
                case .panel(let panel): panels.append(panel)
                case .finished: finished = true
                case .keepToken(let token): kept.append(token)
                case .fatal(let message): fatal = message
                }
            }
        }

        mutating func server(_ lines: String...) {
            for line in lines { take(session.receive(.init(parsing: line))) }
        }

        mutating func type(_ command: UserCommand, revision: Int? = nil) {
            take(session.perform(command, revision: revision ?? session.view.revision))
        }

        /// Greets, names and seats the player in `lobby` with a 12-card board at revision 3.
        mutating func seat() {
            server("SETD 1 welcome to setd; type HELP", "OK HELLO alice t0k3n")
            server(
                "ROOM lobby set 1 playing", "OPTIONS mode=normal penalty=1 hints=on",
                "BOARD 3 a:1RFS b:2GHT c:3PEC d:1GFT e:2PHC f:3REC g:1PES h:2RFT i:3GHS j:1RHC k:2GET l:3PFS",
                "DECK 66", "PLAYER alice 0 online", "OK JOIN lobby 5")
            sent = []
            events = []
            kept = []
        }
    }

    @Test("The greeting is answered with HELLO, and the name with JOIN")
    func introducesItself() {
        var h = Harness(game: "matchismo")
        h.server("SETD 1 welcome to setd; type HELP")
        #expect(h.sent == ["HELLO alice"])
        h.server("OK HELLO alice t0k3n")
        #expect(h.sent == ["HELLO alice", "JOIN lobby matchismo start=ready"])
        #expect(h.session.token == "t0k3n")
        #expect(h.session.isNamed)
    }

    @Test("A taken name is retried as name2, name3, …")
    func takenName() {
        var h = Harness()
        h.server("SETD 1 hi", "ERR HELLO TAKEN alice is playing")
        #expect(h.sent == ["HELLO alice", "HELLO alice2"])
        h.server("ERR HELLO TAKEN alice2 is playing", "OK HELLO alice3 tok")
        #expect(h.sent.last == "JOIN lobby start=ready")
        #expect(h.session.name == "alice3")
    }

    @Test("The snapshot replaces the view, and claims carry the revision on screen")
    func claimsCarryTheRevision() {
        var h = Harness()
        h.seat()
        #expect(h.session.view.board.count == 12)
        #expect(h.session.view.revision == 3)
        h.type(.claim(["a", "f", "k"]), revision: 3)
        #expect(h.sent == ["CHOOSE a f k @3"])
    }

    @Test("Pipelined commands: each OK or ERR ends the oldest outstanding command")
    func pipelining() {
        var h = Harness()
        h.seat()
        h.type(.chat("hello"))
        h.type(.claim(["a", "b", "c"]))
        h.type(.hint)
        #expect(h.session.outstandingCommands == ["CHAT hello", "CHOOSE a b c @3", "HINT"])
        h.server("CHAT alice hello", "OK CHAT")
        h.server("WRONG alice 1 1RFS 2GHT 3PEC : colour: two red, one green", "PLAYER alice -1 online")
        h.server("ERR CHOOSE NOTSET colour: two red, one green")
        #expect(h.statuses == [.init(.failure, "not a set: colour: two red, one green")])
        h.server("HINT d:1GFT", "OK HINT 1")
        #expect(h.session.outstandingCommands.isEmpty)
        #expect(h.session.hint?.position == 3)
        #expect(h.statuses.last == .init(.info, "hint: d (1GFT) is in a set"))
        #expect(
            h.events == [
                .chat(name: "alice", text: "hello"),
                .wrong(
                    name: "alice", penalty: 1, cards: ["1RFS", "2GHT", "3PEC"],
                    why: "colour: two red, one green"),
            ])
        #expect(h.session.view.players.first?.score == -1)
    }

    @Test("A stale claim is explained, costs nothing, and the hint goes when the board changes")
    func staleClaim() {
        var h = Harness()
        h.seat()
        h.type(.hint)
        h.server("HINT a:1RFS", "OK HINT 1")
        h.type(.claim(["a", "b", "c"]), revision: 3)
        h.server(
            "SET bob 1RFS 2GHT 3PEC",
            "BOARD 4 a:1GHS b:2GHS c:3GHS d:1GFT e:2PHC f:3REC g:1PES h:2RFT i:3GHS j:1RHC k:2GET l:3PFS",
            "ERR CHOOSE STALE the board changed since revision 3; it is now 4")
        #expect(h.session.hint == nil)
        #expect(h.statuses.last?.kind == .failure)
        #expect(h.statuses.last?.text.contains("no penalty") == true)
        #expect(h.events == [.took(name: "bob", cards: ["1RFS", "2GHT", "3PEC"])])
    }

    @Test("After a drop the session resumes with its token and keeps its seat")
    func resumesAfterADrop() {
        var h = Harness()
        h.seat()
        h.take(h.session.connectionLost("reset by peer"))
        #expect(h.events == [.problem("connection lost: reset by peer")])
        #expect(h.session.shouldReconnect)
        h.type(.chat("anyone?"))
        #expect(h.sent.isEmpty)  // Nothing is sent while disconnected.
        h.session.connectionOpened()
        h.server("SETD 1 welcome")
        #expect(h.sent == ["RESUME t0k3n"])
        h.server(
            "ROOM lobby set 2 playing", "BOARD 5 a:1RFS b:2GHT c:3PEC", "DECK 60", "PLAYER alice 0 online",
            "PLAYER bob 1 online", "OK RESUME alice lobby 5")
        #expect(h.sent == ["RESUME t0k3n"])  // Back in the room: no JOIN needed.
        #expect(h.session.view.revision == 5)
        #expect(h.session.view.players.map(\.name) == ["alice", "bob"])
    }

    @Test("A RESUME's TOKEN line replaces the token, kept for the next start and the next drop")
    func resumeTakesTheNewToken() {
        var h = Harness()
        h.seat()
        _ = h.session.connectionLost("timeout")
        h.session.connectionOpened()
        h.server("SETD 1 welcome")
        #expect(h.sent == ["RESUME t0k3n"])
        h.server(
            "TOKEN n3wt0k3n", "ROOM lobby set 1 playing", "BOARD 5 a:1RFS", "DECK 60",
            "PLAYER alice 0 online",
            "OK RESUME alice lobby 4")
        #expect(h.session.token == "n3wt0k3n")
        #expect(h.kept.last == "n3wt0k3n")
        #expect(h.session.view.players.map(\.name) == ["alice"], "the TOKEN line is no part of the snapshot")
        _ = h.session.connectionLost("timeout")
        h.session.connectionOpened()
        h.server("SETD 1 welcome")
        #expect(h.sent.last == "RESUME n3wt0k3n")
    }

    @Test("A NOTICE is shown as the server's word")
    func noticeIsShown() {
        var h = Harness()
        h.seat()
        h.server("NOTICE someone tried an old token of your seat")
        #expect(h.events.last == .problem("server: someone tried an old token of your seat"))
    }

    @Test("An expired seat starts over with HELLO and JOIN")
    func expiredSeat() {
        var h = Harness()
        h.seat()
        _ = h.session.connectionLost("timeout")
        h.session.connectionOpened()
        h.server("SETD 1 welcome", "ERR RESUME BADTOKEN unknown or expired token", "OK HELLO alice n3w")
        #expect(h.sent == ["RESUME t0k3n", "HELLO alice", "JOIN lobby start=ready"])
        #expect(h.session.token == "n3w")
    }

    @Test("A resumed seat outside any room joins the room again")
    func resumedWithoutRoom() {
        var h = Harness()
        h.seat()
        _ = h.session.connectionLost("timeout")
        h.session.connectionOpened()
        h.server("SETD 1 welcome", "OK RESUME alice")
        #expect(h.sent == ["RESUME t0k3n", "JOIN lobby start=ready"])
    }

    @Test("Joining another room forgets the old one when the new snapshot starts")
    func joinResetsTheView() {
        var h = Harness()
        h.seat()
        h.type(.join(room: "den", words: ["matchismo"]))
        #expect(h.sent == ["JOIN den matchismo start=ready"])
        h.server(
            "CHAT bob bye", "ROOM den matchismo 1 playing", "OPTIONS n=2", "BOARD 1 a:?? b:??", "DECK 50",
            "TURN alice")
        h.server("PLAYER alice 0 online", "OK JOIN den 6")
        #expect(h.session.view.room == "den")
        #expect(h.session.view.game == .matchismo)
        #expect(h.session.view.players.map(\.name) == ["alice"])
        #expect(h.session.room == "den")
    }

    @Test("A ROOMS listing becomes a panel and does not change the room on screen")
    func roomsListing() {
        var h = Harness()
        h.seat()
        h.type(.rooms)
        h.server("ROOM den matchismo 3 playing", "ROOM lobby set 2 playing", "OK ROOMS 2")
        #expect(h.session.view.room == "lobby")
        #expect(h.session.view.game == .set)
        #expect(h.panels.first?.title == "Rooms — 2")
        #expect(h.panels.first?.lines.first?.plainText.hasPrefix("den") == true)
    }

    @Test("HISTORY becomes a scrollable panel: this game with times and codes, then finished games")
    func history() {
        var h = Harness()
        h.seat()
        h.type(.history(nil))
        h.server(
            "HISTORY 5 bob 1RFS 2GHT 3PEC", "HISTORY 72 alice 1GFT 2PHC 3REC",
            "HISTORY GAME 2 2026-12-02T20:01:00Z 2026-12-02T20:15:30Z alice:5 bob:3",
            "HISTORY GAME 2 12 alice 1RFS 1RHS 1RES",
            "HISTORY GAME 1 2026-12-01T23:50:00Z 2026-12-02T00:10:00Z bob:1",
            "HISTORY GAME 1 3 bob 7 Matched J♥ J♠ for 32 points", "OK HISTORY 6")
        #expect(h.panels.first?.title == "History of lobby — 2 entries this game, 2 finished games")
        #expect(
            h.panels.first?.lines.map(\.plainText) == [
                "This game",
                "00:05  bob              1RFS 2GHT 3PEC",
                "01:12  alice            1GFT 2PHC 3REC",
                "Game of 2026-12-02 20:01–20:15 UTC · alice 5, bob 3",
                "  00:12  alice            1RFS 1RHS 1RES",
                "Game of 2026-12-01 23:50–2026-12-02 00:10 UTC · bob 1",
                "  00:03  bob              +7   Matched J♥ J♠ for 32 points",
            ])
    }

    @Test("A server PING needs no answer (any line resets its timer), so none is sent")
    func ping() {
        var h = Harness()
        h.seat()
        h.server("PING 42")
        #expect(h.sent.isEmpty && h.statuses.isEmpty && h.events.isEmpty)
    }

    @Test("Goodbyes for idleness, flooding or a seat taken elsewhere stop reconnection; a shutdown does not")
    func goodbyes() {
        for (reason, reconnects) in [
            ("idle", false), ("flood", false), ("resumed elsewhere", false), ("shutdown", true),
        ] {
            var h = Harness()
            h.seat()
            h.server("BYE \(reason)")
            #expect(h.session.shouldReconnect == reconnects, "\(reason)")
        }
    }

    @Test("QUIT ends the session when the server confirms it, or at once when disconnected")
    func quit() {
        var h = Harness()
        h.seat()
        h.type(.quit)
        #expect(h.sent == ["QUIT"])
        #expect(!h.session.shouldReconnect)
        h.server("OK QUIT")
        #expect(h.finished)
        var offline = Harness()
        _ = offline.session.connectionLost("gone")
        offline.type(.quit)
        #expect(offline.finished && offline.sent.isEmpty)
    }

    @Test("Events become entries of the event list")
    func events() {
        var h = Harness()
        h.seat()
        h.server(
            "JOINED bob", "PLAYER bob 0 online", "ROOM lobby set 2 playing", "VOTE bob 1 2 mode=junior",
            "NEWGAME bob",
            "LEFT bob", "OVER alice:2 bob:1")
        #expect(
            h.events == [
                .joined("bob"),
                .vote(name: "bob", votes: 1, needed: 2, options: ["mode=junior"], isMine: false),
                .newGame("bob"), .left("bob"),
                .over(["alice 2", "bob 1"]),
            ])
        #expect(h.session.view.status == .over)
    }

    @Test("An ERR with no command outstanding (a full server) is shown, not matched")
    func unsolicitedError() {
        var h = Harness()
        h.server("ERR - FULL the server is full")
        #expect(h.events == [.problem("server: the server is full")])
    }

    @Test("A server that does not know start=ready gets the JOIN again without it, once")
    func startOptionFallback() {
        var h = Harness()
        h.server("SETD 1 hi", "OK HELLO alice tok")
        #expect(h.sent == ["HELLO alice", "JOIN lobby start=ready"])
        h.server("ERR JOIN BADOPTION unknown option start")
        #expect(h.sent.last == "JOIN lobby")
        h.server("ERR JOIN BADOPTION unknown option start")
        #expect(h.sent.count == 3, "a second BADOPTION is the player's to read, not retried")
        h.type(.join(room: "den", words: []))
        #expect(h.sent.last == "JOIN den", "the server is known not to take start= now")
    }

    @Test(
        "A kept token resumes the seat on the first connection; a refused one falls back to HELLO and is forgotten"
    )
    func keptToken() {
        var h = Harness(token: "abc123")
        h.server("SETD 1 hi")
        #expect(h.sent == ["RESUME abc123"])
        h.server("ERR RESUME BADTOKEN no such seat")
        #expect(h.sent == ["RESUME abc123", "HELLO alice"])
        #expect(h.kept == [nil])
        h.server("OK HELLO alice fresh1")
        #expect(h.kept == [nil, "fresh1"])
        #expect(h.sent.last == "JOIN lobby start=ready")
    }

    @Test("When every fallback name is taken the session stops with one clear line")
    func everyNameTaken() {
        var h = Harness()
        h.server("SETD 1 hi")
        for n in 1...9 { h.server("ERR HELLO TAKEN name \(n) is playing") }
        #expect(h.sent.count == 9)
        #expect(h.sent.last == "HELLO alice9")
        #expect(h.fatal != nil)
        let fatal = h.fatal ?? ""
        #expect(fatal.contains("every name tried is taken") && fatal.contains("alice9"))
        #expect(!fatal.contains("\n"))
    }

    @Test("QUIT forgets the kept token, since the seat is freed")
    func quitForgetsToken() {
        var h = Harness()
        h.seat()
        h.type(.quit)
        h.server("OK QUIT")
        #expect(h.kept == [nil])
        #expect(h.finished)
    }

    @Test("/ready and /start send READY and START; the game-night lines fill the session's night")
    func readyAndStart() {
        var h = Harness()
        h.seat()
        h.type(.ready)
        h.server("READY alice 1 2", "OK READY 1 2")
        #expect(h.sent == ["READY"])
        #expect(h.statuses.last?.text == "you are ready (1 of 2 seated players)")
        #expect(h.session.night.ready == ["alice"])
        h.type(.start)
        h.server("ERR START DENIED only the host can start")
        #expect(h.sent.last == "START")
        #expect(h.statuses.last == ClientSession.Status(.failure, "only the host can start"))
        h.server("HOST bob", "COUNTDOWN 3")
        #expect(h.session.night.host == "bob")
        #expect(h.session.night.countdown == 3)
    }
}
