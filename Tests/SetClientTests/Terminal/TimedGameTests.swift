import SetProtocol
import SetTerminal
import Testing

/// set-cli in timed and practice games (protocol.md: the room options `sets=`, `minutes=`,
/// `practice=`, `PAUSE`/`UNPAUSE` and the `CLOCK` line): making such a room, pausing it, the clock
/// that leaves pauses out and counts down to the limit, and the paused screen that hides the cards.
@Suite struct TimedGameTests {
    private static let started = 1_798_761_600_000
    private static let practiceRoom = [
        "ROOM drill set 1 playing", "OPTIONS mode=normal penalty=1 hints=on practice=on sets=5 minutes=3",
        "BOARD 3 a:1RFS b:2GHT c:3PEC d:1GFT e:2PHC f:3REC g:1PES h:2RFT i:3GHS j:1RHC k:2GET l:3PFS",
        "DECK 69", "CLOCK 0 running", "PLAYER alice 0 online", "HOST alice", "STARTED \(started)",
    ]

    @Test("--sets, --minutes and --practice are the new room's options; a number is checked")
    func commandLine() throws {
        let options = try CLIOptions.parse(["--sets", "5", "--minutes=3", "--practice", "--room", "drill"])
        #expect(options.options == ["sets=5", "minutes=3", "practice=on"])
        #expect(throws: CLIError("--sets: 'five' is not a whole number above 0")) {
            try CLIOptions.parse(["--sets", "five"])
        }
        #expect(throws: CLIError("--minutes: '0' is not a whole number above 0")) {
            try CLIOptions.parse(["--minutes", "0"])
        }
    }

    @Test(
        "/pause and /unpause; /new and /join take `practice` for practice=on, and sets= and minutes= as typed"
    )
    func typing() {
        let context = UserCommand.Context(boardCount: 12)
        #expect(UserCommand.parse("/pause", context: context) == .success(.pause))
        #expect(UserCommand.parse("/unpause", context: context) == .success(.unpause))
        #expect(UserCommand.parse("/continue", context: context) == .success(.unpause))
        #expect(
            UserCommand.parse("/pause now", context: context)
                == .failure(InputError("/pause takes no arguments")))
        #expect(
            UserCommand.parse("/new sets=5 practice", context: context)
                == .success(.new(["sets=5", "practice=on"])))
        #expect(
            UserCommand.parse("/join drill 4set minutes=3 practice", context: context)
                == .success(.join(room: "drill", words: ["mode=4set", "minutes=3", "practice=on"])))
        #expect(UserCommand.helpLines.contains { $0.hasPrefix("/pause, /unpause") })
    }

    @Test("The play clock: pauses left out, it stands while paused, and counts down to minutes=")
    func clock() {
        var view = GameView(lines: Self.practiceRoom)
        #expect(view.setsToWin == 5 && view.minutesOfPlay == 3 && view.isPractice && !view.isPaused)
        #expect(view.playMilliseconds(atUnixMilliseconds: Self.started + 65_000) == 65_000)
        #expect(view.clockText(atUnixMilliseconds: Self.started + 65_000) == "1:55 left")
        view.apply(ServerLine(parsing: "CLOCK 70000 paused"))
        #expect(view.isPaused)
        #expect(view.clockText(atUnixMilliseconds: Self.started + 999_000) == "1:50 left")
        // On again after 30 s paused: play time is now − STARTED − 30 s.
        view.apply(ServerLine(parsing: "CLOCK 30000 running"))
        #expect(view.playMilliseconds(atUnixMilliseconds: Self.started + 110_000) == 80_000)
        #expect(view.clockText(atUnixMilliseconds: Self.started + 999_000) == "0:00 left")
        // Practice without a limit counts play time up; a game without CLOCK has no such clock.
        var untimed = GameView(lines: Self.practiceRoom)
        untimed.apply(ServerLine(parsing: "OPTIONS mode=normal penalty=1 hints=on practice=on"))
        #expect(untimed.clockText(atUnixMilliseconds: Self.started + 187_000) == "3:07")
        #expect(GameView(lines: Array(Self.practiceRoom.prefix(4))).clockText(atUnixMilliseconds: 0) == nil)
    }

    @Test("/pause sends PAUSE; the CLOCK lines say paused and goes on once each, a snapshot says nothing")
    func pauseAndGoOn() {
        var session = ClientSession(name: "alice", room: "drill", options: ["practice=on"])
        session.connectionOpened()
        var sent: [String] = []
        var said: [String] = []
        func take(_ outputs: [ClientSession.Output]) {
            for output in outputs {
                switch output {
                case .send(let line): sent.append(line)
                case .event(let entry): said.append(entry.styled.plainText)
                case .status(let status): said.append(status.text)
                default: break
                }
            }
        }
        func server(_ lines: [String]) {
            for line in lines { take(session.receive(ServerLine(parsing: line))) }
        }
        server(["SETD 1 welcome", "OK HELLO alice t0k3n"])
        #expect(sent.last == "JOIN drill practice=on start=ready")
        server(Self.practiceRoom + ["OK JOIN drill \(Self.practiceRoom.count)"])
        said.removeAll()
        take(session.perform(.pause, revision: 3))
        #expect(sent.last == "PAUSE")
        server(["CLOCK 70000 paused", "OK PAUSE drill"])
        #expect(
            said == [
                "the game is paused: its clock stands (/unpause goes on)",
                "you paused the game: its clock stands (/unpause goes on)",
            ])
        #expect(session.view.isPaused)
        said.removeAll()
        take(session.perform(.unpause, revision: 3))
        #expect(sent.last == "UNPAUSE")
        server(["CLOCK 30000 running", "OK UNPAUSE drill"])
        #expect(said == ["the game goes on", "the game goes on"])
        #expect(!session.view.isPaused)
    }

    @Test("Paused, the board gives way to a note and the sidebar says so; running, the target and the clock")
    func screen() {
        var ui = TerminalUI()
        ui.connection = .online
        ui.clock = "1:55 left"
        var view = GameView(lines: Self.practiceRoom)
        let size = TerminalSize(columns: 100, rows: 24)
        let running = ScreenRenderer(view: view, me: "alice", hint: nil, ui: ui, isColour: false).frame(size)
            .plainLines
        #expect(running[0].contains("drill · normal · practice"))
        for fact in ["Time 1:55 left", "First to 5 sets", "Practice: unrated", "/pause stops the clock"] {
            #expect(running.contains { $0.contains(fact) }, "\(fact) in \(running)")
        }
        #expect(!running.contains { $0.contains("Paused") })
        view.apply(ServerLine(parsing: "CLOCK 70000 paused"))
        let paused = ScreenRenderer(view: view, me: "alice", hint: nil, ui: ui, isColour: false).frame(size)
            .plainLines
        #expect(paused.contains { $0.contains("the cards are hidden.") }, "\(paused)")
        #expect(paused.contains { $0.contains("Paused · /unpause") })
        // No card of the board is drawn: its position letters are gone with it.
        #expect(!paused.contains { $0.contains("1RFS") || $0.hasPrefix(" a ") })
        let narrow = ScreenRenderer(view: view, me: "alice", hint: nil, ui: ui, isColour: false)
            .frame(TerminalSize(columns: 40, rows: 24)).plainLines
        #expect(narrow.contains { $0.contains("first to 5") && $0.contains("paused") }, "\(narrow)")
    }

    @Test("A vote for a timed or practice game says so beside the board")
    func voteShowsTiming() {
        var ui = TerminalUI()
        ui.connection = .online
        var view = GameView(lines: Self.practiceRoom)
        view.apply(ServerLine(parsing: "PROPOSAL 1 2 bob mode=normal penalty=1 hints=on minutes=5"))
        let lines = ScreenRenderer(view: view, me: "alice", hint: nil, ui: ui, isColour: false)
            .frame(TerminalSize(columns: 100, rows: 30)).plainLines
        #expect(lines.contains { $0.contains("mode=normal minutes=5") }, "\(lines)")
    }

    @Test(
        "--plain prints the clock's changes: running with the limit and the target, paused with the play time"
    )
    func plainLines() {
        let view = GameView(lines: Self.practiceRoom)
        #expect(
            PlainFormatter.line(for: ServerLine(parsing: "CLOCK 0 running"), in: view)
                == "clock: running, 3 minutes of play in all, first to 5 sets")
        #expect(
            PlainFormatter.line(for: ServerLine(parsing: "CLOCK 70000 paused"), in: view)
                == "clock: paused at 1:10 of play")
    }

    @Test("The score sheet of a timed game says how it ended: the target reached, or time called")
    func endScreen() {
        func title(_ lines: [String]) -> String? {
            var view = GameView(lines: Self.practiceRoom)
            var night = GameNight()
            for line in lines {
                view.apply(ServerLine(parsing: line))
                _ = night.apply(ServerLine(parsing: line))
            }
            var ui = TerminalUI()
            ui.connection = .online
            return ScreenRenderer(view: view, me: "alice", hint: nil, ui: ui, isColour: false, night: night)
                .frame(TerminalSize(columns: 100, rows: 30)).plainLines.first { $0.contains("score sheet") }
        }
        let sheet = "STATS alice sets=5 wrong=0 stale=0 fastest=900 mean=2000"
        #expect(
            title(["OVER alice:5", sheet, "DURATION 60000"])?.contains("Game over: first to 5 sets —") == true
        )
        let short = "STATS alice sets=3 wrong=0 stale=0 fastest=900 mean=2000"
        #expect(
            title(["OVER alice:3", short, "DURATION 60000"])?.contains("Game over: time is up —") == true)
        #expect(
            title(["DECK 0", "OVER alice:3", short, "DURATION 60000"])?.contains("Game over — score sheet")
                == true)
    }
}
