import SetProtocol
import SetTerminal
import Testing

/// The game-night screens: waiting for players, the countdown, the score sheet at the end, the cards
/// just dealt and the cards just taken.
@Suite struct GameNightScreenTests {
    private func night(_ lines: [String]) -> GameNight {
        var night = GameNight()
        for line in lines { _ = night.apply(ServerLine(parsing: line)) }
        return night
    }

    private func frame(
        _ view: GameView, _ night: GameNight, _ ui: TerminalUI, columns: Int = 80, rows: Int = 24
    )
        -> [String]
    {
        Fixtures.plain(
            ScreenRenderer(view: view, me: "alice", hint: nil, ui: ui, isColour: false, night: night).frame(
                TerminalSize(columns: columns, rows: rows)))
    }

    /// A game that just ended: the OVER line, one STATS line per player and the DURATION.
    private static let overLines = [
        "ROOM lobby set 3 playing", "OPTIONS mode=normal penalty=1 hints=on", "BOARD 31", "DECK 0",
        "PLAYER alice 12 online", "PLAYER bob 9 online", "PLAYER carol 0 away", "OVER alice:12 bob:9 carol:0",
    ]

    @Test(
        "At OVER the score sheet replaces the board: sets, wrong, stale, fastest, mean, and the game's length"
    )
    func endScreen() {
        let view = GameView(lines: Self.overLines)
        let night = night([
            "STATS alice sets=12 wrong=1 stale=3 fastest=2350 mean=7912",
            "STATS bob sets=9 wrong=0 stale=0 fastest=4100 mean=10005",
            "STATS carol sets=0 wrong=2 stale=1 fastest=- mean=-", "DURATION 754321",
        ])
        var ui = TerminalUI()
        ui.connection = .online
        ui.log(.over(["alice 12", "bob 9", "carol 0"]))
        #expect(
            frame(view, night, ui)
                == Fixtures.golden(
                    """
                    SET · lobby · normal · game over                                           alice
                    Game over — score sheet

                       Player            Score  Sets  Wrong   Late  Fastest     Mean
                     ★ alice                12    12      1      3    2.4 s    7.9 s
                       bob                   9     9      0      0    4.1 s   10.0 s
                       carol                 0     0      2      1        -        -

                    Game length 12:34 · /rematch plays again with everyone
                    ────────────────────────────────────────────────────────────────────────────────
                    Game over: alice 12, bob 9, carol 0











                    3 letters + Enter claims · /chat · ? help
                    >
                    """))
    }

    @Test("The end screen shows the night's standings and who offered a rematch; /rematch sends REMATCH")
    func standingsAndRematch() {
        let view = GameView(lines: Self.overLines)
        var night = night([
            "STATS alice sets=12 wrong=1 stale=3 fastest=2350 mean=7912",
            "STATS bob sets=9 wrong=0 stale=0 fastest=4100 mean=10005",
            "STATS carol sets=0 wrong=2 stale=1 fastest=- mean=-", "DURATION 754321", "STANDINGS 2",
            "STANDING 1 alice points=5 wins=1 games=2 sets=20 best=2350",
            "STANDING 1 bob points=5 wins=1 games=2 sets=18 best=3999",
            "STANDING 3 carol points=2 wins=0 games=2 sets=1 best=-",
        ])
        let news = night.apply(ServerLine(parsing: "REMATCH bob 1 3"))
        #expect(news == .info("bob wants a rematch (1 of 3): /rematch to play again"))
        let shown = frame(view, night, TerminalUI(), rows: 30)
        #expect(shown.contains("Game length 12:34 · /rematch plays again (1 of 3 agree)"), "\(shown)")
        #expect(shown.contains("Tonight — 2 games (3/2/1 points by place)"), "\(shown)")
        let heading = "   Player            Points  Wins  Games  Sets     Best"
        #expect(shown.contains(heading), "\(shown)")
        #expect(shown.contains(" 1 alice                  5     1      2    20    2.4 s"), "\(shown)")
        #expect(shown.contains(" 3 carol                  2     0      2     1        -"), "\(shown)")
        guard case .success(.rematch)? = UserCommand.parse("/rematch", context: .init(boardCount: 12)),
            case .success(.standings(.csv))? = UserCommand.parse(
                "/standings csv", context: .init(boardCount: 12))
        else {
            Issue.record("/rematch or /standings csv does not parse")
            return
        }
        // A new game clears the offers; a reset clears the standings.
        _ = night.apply(ServerLine(parsing: "NEWGAME bob"))
        #expect(night.rematch == nil)
        #expect(
            night.apply(ServerLine(parsing: "STANDINGS 0")) == .info("the host reset the night's standings"))
        #expect(night.standings.isEmpty)
    }

    @Test("A waiting room shows who is ready, what to type, and the host; the players are marked")
    func waitingScreen() {
        let view = GameView(lines: [
            "ROOM lobby set 2 playing", "OPTIONS mode=normal", "BOARD 0", "DECK 81", "PLAYER bob 0 online",
            "PLAYER alice 0 online",
        ])
        let night = night(["ROOM lobby set 2 waiting", "HOST bob", "READY bob 1 2"])
        #expect(night.isWaiting && night.ready == ["bob"] && night.host == "bob")
        var ui = TerminalUI()
        ui.connection = .online
        let lines = frame(view, night, ui)
        #expect(
            Array(lines.prefix(8))
                == Fixtures.golden(
                    """
                    SET · lobby · normal · waiting                                             alice
                    Waiting for the game to start             Players
                                                               ● bob host ✓          0
                    Ready: 1 of 2                              ● alice               0
                      bob
                                                              Deck 81  board #0
                    /ready when you are.
                    bob (the host) can /start it now.
                    """))
    }

    @Test("The countdown replaces the waiting screen")
    func countdown() {
        let view = GameView(lines: ["ROOM lobby set 1 playing", "BOARD 0", "PLAYER alice 0 online"])
        let night = night(["ROOM lobby set 1 waiting", "COUNTDOWN 3", "COUNTDOWN 2"])
        var ui = TerminalUI()
        ui.connection = .online
        #expect(night.countdown == 2)
        #expect(frame(view, night, ui).contains { $0.contains("Starting in 2…") })
        // The deal ends the countdown: the ROOM line says playing.
        let dealt = self.night(["ROOM lobby set 1 waiting", "COUNTDOWN 1", "ROOM lobby set 1 playing"])
        #expect(dealt.countdown == nil && !dealt.isWaiting)
    }

    @Test("Cards just dealt are marked with +, the set just taken shows its pictures, and the clock shows")
    func freshCardsAndPictures() {
        var ui = TerminalUI()
        ui.connection = .online
        ui.fresh = [0, 4]
        ui.clock = "3:07"
        ui.log(.took(name: "bob", cards: ["1RFS", "2GHT", "3PEC"]))
        let lines = frame(Fixtures.twelve, GameNight(), ui)
        #expect(lines[1].hasPrefix("╭a─────+╮ ╭d──────╮"))
        #expect(lines[4].hasPrefix("╭b──────╮ ╭e─────+╮"))
        #expect(lines.contains { $0.contains("Time 3:07") })
        #expect(lines.contains { $0 == "bob took ■ 1RFS · ◭◭ 2GHT · ○○○ 3PEC" })
    }

    @Test("Score-sheet lines that are not in the agreed shape are ignored, not half-read")
    func malformedStats() {
        let night = night([
            "STATS alice sets=x wrong=1 stale=3 fastest=1 mean=1",
            "STATS bob sets=1 wrong=0 stale=0 fastest=5",
            "DURATION soon",
        ])
        #expect(night.sheet.isEmpty)
        #expect(night.duration == nil)
    }
}
