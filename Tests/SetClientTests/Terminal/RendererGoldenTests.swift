import SetProtocol
import SetTerminal
import Testing

/// Golden frames: the renderer is a pure function, so each layout is checked line by line.
@Suite struct RendererGoldenTests {
    private func frame(
        _ view: GameView, _ ui: TerminalUI, columns: Int, rows: Int, hint: Int? = nil, me: String = "alice"
    ) -> Frame {
        ScreenRenderer(view: view, me: me, hint: hint, ui: ui, isColour: false).frame(
            TerminalSize(columns: columns, rows: rows))
    }

    @Test(
        "A 12-card board on 80×24: boxes in four columns of three, the scoreboard beside, typed letters and the hint marked"
    )
    func twelve() {
        let frame = frame(
            Fixtures.twelve, Fixtures.ui(typed: "a f"), columns: 80, rows: 24, hint: 3, me: "alice")
        #expect(
            Fixtures.plain(frame)
                == Fixtures.golden(
                    """
                    SET · lobby · normal                                                       alice
                    ╔a══════╗ ╭d─────*╮ ╭g──────╮ ╭j──────╮  Players
                    ║   ■   ║ │   ▲   │ │   □   │ │   ◐   │   ● alice               3
                    ╚═══R═══╝ ╰───G───╯ ╰───P───╯ ╰───R───╯   ○ bob away            1
                    ╭b──────╮ ╭e──────╮ ╭h──────╮ ╭k──────╮
                    │  ◭ ◭  │ │  ◐ ◐  │ │  ▲ ▲  │ │  △ △  │  Deck 66  board #7
                    ╰───G───╯ ╰───P───╯ ╰───R───╯ ╰───G───╯
                    ╭c──────╮ ╔f══════╗ ╭i──────╮ ╭l──────╮
                    │ ○ ○ ○ │ ║ ○ ○ ○ ║ │ ◧ ◧ ◧ │ │ ■ ■ ■ │
                    ╰───P───╯ ╚═══R═══╝ ╰───G───╯ ╰───P───╯
                    ────────────────────────────────────────────────────────────────────────────────
                    joined lobby (SET); ? shows the keys
                    bob took ■ 1RFS · ◭◭ 2GHT · ○○○ 3PEC
                    ✗ alice claimed 1RFS 2GHT 3PGC: colour: two red, one green (−1)
                    <bob> gg







                    3 letters + Enter claims · /chat · ? help
                    > a f
                    """))
    }

    @Test("A 21-card board on a wide terminal: seven columns side by side")
    func twentyOneWide() {
        let frame = frame(Fixtures.twentyOne, Fixtures.ui(), columns: 100, rows: 20, hint: nil, me: "alice")
        #expect(
            Fixtures.plain(frame)
                == Fixtures.golden(
                    """
                    SET · big · normal                                                                             alice
                    ╭a──────╮ ╭d──────╮ ╭g──────╮ ╭j──────╮ ╭m──────╮ ╭p──────╮ ╭s──────╮  Players
                    │   ■   │ │   ▲   │ │   □   │ │   ◐   │ │   ◐   │ │   ▲   │ │   ○   │   ● alice               3
                    ╰───R───╯ ╰───G───╯ ╰───P───╯ ╰───R───╯ ╰───G───╯ ╰───P───╯ ╰───R───╯   ● bob                11
                    ╭b──────╮ ╭e──────╮ ╭h──────╮ ╭k──────╮ ╭n──────╮ ╭q──────╮ ╭t──────╮   ○ carol away          0
                    │  ◭ ◭  │ │  ◐ ◐  │ │  ▲ ▲  │ │  △ △  │ │  △ △  │ │  □ □  │ │  ■ ■  │
                    ╰───G───╯ ╰───P───╯ ╰───R───╯ ╰───G───╯ ╰───P───╯ ╰───R───╯ ╰───G───╯  Deck 3  board #12
                    ╭c──────╮ ╭f──────╮ ╭i──────╮ ╭l──────╮ ╭o──────╮ ╭r──────╮ ╭u──────╮
                    │ ○ ○ ○ │ │ ○ ○ ○ │ │ ◧ ◧ ◧ │ │ ■ ■ ■ │ │ ● ● ● │ │ ◭ ◭ ◭ │ │ ◧ ◧ ◧ │
                    ╰───P───╯ ╰───R───╯ ╰───G───╯ ╰───P───╯ ╰───R───╯ ╰───G───╯ ╰───P───╯
                    ────────────────────────────────────────────────────────────────────────────────────────────────────
                    joined lobby (SET); ? shows the keys
                    bob took ■ 1RFS · ◭◭ 2GHT · ○○○ 3PEC
                    ✗ alice claimed 1RFS 2GHT 3PGC: colour: two red, one green (−1)
                    <bob> gg



                    3 letters + Enter claims · /chat · ? help
                    >
                    """))
    }

    @Test("A 21-card board on 80×24: the columns that do not fit continue in a band below")
    func twentyOne80() {
        let frame = frame(Fixtures.twentyOne, Fixtures.ui(), columns: 80, rows: 24, hint: nil, me: "alice")
        #expect(
            Fixtures.plain(frame)
                == Fixtures.golden(
                    """
                    SET · big · normal                                                         alice
                    ╭a──────╮ ╭d──────╮ ╭g──────╮ ╭j──────╮ ╭m──────╮  Players
                    │   ■   │ │   ▲   │ │   □   │ │   ◐   │ │   ◐   │   ● alice               3
                    ╰───R───╯ ╰───G───╯ ╰───P───╯ ╰───R───╯ ╰───G───╯   ● bob                11
                    ╭b──────╮ ╭e──────╮ ╭h──────╮ ╭k──────╮ ╭n──────╮   ○ carol away          0
                    │  ◭ ◭  │ │  ◐ ◐  │ │  ▲ ▲  │ │  △ △  │ │  △ △  │
                    ╰───G───╯ ╰───P───╯ ╰───R───╯ ╰───G───╯ ╰───P───╯  Deck 3  board #12
                    ╭c──────╮ ╭f──────╮ ╭i──────╮ ╭l──────╮ ╭o──────╮
                    │ ○ ○ ○ │ │ ○ ○ ○ │ │ ◧ ◧ ◧ │ │ ■ ■ ■ │ │ ● ● ● │
                    ╰───P───╯ ╰───R───╯ ╰───G───╯ ╰───P───╯ ╰───R───╯
                    ╭p──────╮ ╭s──────╮
                    │   ▲   │ │   ○   │
                    ╰───P───╯ ╰───R───╯
                    ╭q──────╮ ╭t──────╮
                    │  □ □  │ │  ■ ■  │
                    ╰───R───╯ ╰───G───╯
                    ╭r──────╮ ╭u──────╮
                    │ ◭ ◭ ◭ │ │ ◧ ◧ ◧ │
                    ╰───G───╯ ╰───P───╯
                    ────────────────────────────────────────────────────────────────────────────────
                    ✗ alice claimed 1RFS 2GHT 3PGC: colour: two red, one green (−1)
                    <bob> gg
                    3 letters + Enter claims · /chat · ? help
                    >
                    """))
    }

    @Test("A Matchismo board: face-down, face-up and matched cards, and whose turn it is")
    func matchismo() {
        let frame = frame(
            Fixtures.matchismo, Fixtures.ui(typed: "f"), columns: 80, rows: 24, hint: nil, me: "alice")
        #expect(
            Fixtures.plain(frame)
                == Fixtures.golden(
                    """
                    Matchismo · mm · 2 cards a match                                           alice
                    ╭a──────╮ ╭b──────╮ ┌c┄┄┄┄┄┄┐ ┌d┄┄┄┄┄┄┐ ╭e──────╮  Players
                    │░░░░░░░│ │  Q♣   │ ┆  J♥   ┆ ┆  J♠   ┆ │░░░░░░░│   ● alice              28
                    ╰───────╯ ╰───────╯ └┄┄┄┄┄┄┄┘ └┄┄┄┄┄┄┄┘ ╰───────╯  ▶● bob                -6
                    ╔f══════╗ ╭g──────╮ ╭h──────╮ ╭i──────╮ ╭j──────╮
                    ║  10♦  ║ │░░░░░░░│ │░░░░░░░│ │  A♠   │ │░░░░░░░│  Deck 22  board #9
                    ╚═══════╝ ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯  Turn: bob
                    ╭k──────╮ ╭l──────╮ ┌m┄┄┄┄┄┄┐ ┌n┄┄┄┄┄┄┐ ╭o──────╮
                    │░░░░░░░│ │  Q♣   │ ┆  J♥   ┆ ┆  J♠   ┆ │░░░░░░░│
                    ╰───────╯ ╰───────╯ └┄┄┄┄┄┄┄┘ └┄┄┄┄┄┄┄┘ ╰───────╯
                    ╭p──────╮ ╭q──────╮ ╭r──────╮ ╭s──────╮ ╭t──────╮
                    │  10♦  │ │░░░░░░░│ │░░░░░░░│ │  A♠   │ │░░░░░░░│
                    ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯
                    ╭u──────╮ ╭v──────╮ ┌w┄┄┄┄┄┄┐ ┌x┄┄┄┄┄┄┐ ╭y──────╮
                    │░░░░░░░│ │  Q♣   │ ┆  J♥   ┆ ┆  J♠   ┆ │░░░░░░░│
                    ╰───────╯ ╰───────╯ └┄┄┄┄┄┄┄┘ └┄┄┄┄┄┄┄┘ ╰───────╯
                    ╭z──────╮ ╭za─────╮ ╭zb─────╮ ╭zc─────╮ ╭zd─────╮
                    │  10♦  │ │░░░░░░░│ │░░░░░░░│ │  A♠   │ │░░░░░░░│
                    ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯
                    ────────────────────────────────────────────────────────────────────────────────
                    ✗ alice claimed 1RFS 2GHT 3PGC: colour: two red, one green (−1)
                    <bob> gg
                    a letter + Enter turns a card · /chat · ? help
                    > f
                    """))
    }

    @Test("Matchismo on a small terminal, on your turn: one-line cells")
    func matchismoNarrow() {
        let frame = frame(Fixtures.matchismo, Fixtures.ui(), columns: 60, rows: 16, hint: nil, me: "bob")
        #expect(
            Fixtures.plain(frame)
                == Fixtures.golden(
                    """
                    Matchismo · mm · 2 cards a match                         bob
                     a ░░░   b Q♣    c =J♥   d =J♠   Players
                     e ░░░   f 10♦   g ░░░   h ░░░    ● alice              28
                     i A♠    j ░░░   k ░░░   l Q♣    ▶● bob                -6
                     m =J♥   n =J♠   o ░░░   p 10♦
                     q ░░░   r ░░░   s A♠    t ░░░   Deck 22  board #9
                     u ░░░   v Q♣    w =J♥   x =J♠   Your turn!
                     y ░░░   z 10♦  za ░░░  zb ░░░
                    zc A♠   zd ░░░
                    ────────────────────────────────────────────────────────────
                    bob took ■ 1RFS · ◭◭ 2GHT · ○○○ 3PEC
                    ✗ alice claimed 1RFS 2GHT 3PGC: colour: two red, one green
                      (−1)
                    <bob> gg
                    a letter + Enter turns a card · /chat · ? help
                    >
                    """))
    }

    @Test("A narrow terminal: one-line cells and the scoreboard as a summary under the board")
    func narrow() {
        let frame = frame(
            Fixtures.twelve, Fixtures.ui(typed: "afk"), columns: 40, rows: 14, hint: nil, me: "alice")
        #expect(
            Fixtures.plain(frame)
                == Fixtures.golden(
                    """
                    SET · lobby · normal               alice
                    [a]■  R  d ▲  G  g □  P  j ◐  R
                     b ◭◭ G  e ◐◐ P  h ▲▲ R [k]△△ G
                     c ○○○P [f]○○○R  i ◧◧◧G  l ■■■P
                    ● alice 3  ○ bob 1 away  deck 66 · #7
                    ────────────────────────────────────────
                    joined lobby (SET); ? shows the keys
                    bob took ■ 1RFS · ◭◭ 2GHT · ○○○ 3PEC
                    ✗ alice claimed 1RFS 2GHT 3PGC:
                      colour: two red, one green (−1)
                    <bob> gg

                    3 letters + Enter claims · /chat · ? he…
                    > afk
                    """))
    }

    @Test("21 cards on 34 columns: two bands of one-line cells and a wrapped summary")
    func narrowTwentyOne() {
        let frame = frame(Fixtures.twentyOne, Fixtures.ui(), columns: 34, rows: 16, hint: nil, me: "alice")
        #expect(
            Fixtures.plain(frame)
                == Fixtures.golden(
                    """
                    SET · big · normal           alice
                     a ■  R  d ▲  G  g □  P  j ◐  R
                     b ◭◭ G  e ◐◐ P  h ▲▲ R  k △△ G
                     c ○○○P  f ○○○R  i ◧◧◧G  l ■■■P
                     m ◐  G  p ▲  P  s ○  R
                     n △△ P  q □□ R  t ■■ G
                     o ●●●R  r ◭◭◭G  u ◧◧◧P
                    ● alice 3  ● bob 11
                    ○ carol 0 away  deck 3 · #12
                    ──────────────────────────────────
                      3PEC
                    ✗ alice claimed 1RFS 2GHT 3PGC:
                      colour: two red, one green (−1)
                    <bob> gg
                    3 letters + Enter claims · /chat …
                    >
                    """))
    }

    @Test("Chain mode lists the chain cards with the numbers a claim names them by")
    func chain() {
        let frame = frame(Fixtures.chain, Fixtures.ui(), columns: 80, rows: 16, hint: nil, me: "alice")
        #expect(
            Fixtures.plain(frame)
                == Fixtures.golden(
                    """
                    SET · links · chain                                                        alice
                    ╭a──────╮ ╭d──────╮ ╭g──────╮ ╭j──────╮  Players
                    │   ■   │ │   ▲   │ │   □   │ │   ◐   │   ● alice               5
                    ╰───R───╯ ╰───G───╯ ╰───P───╯ ╰───R───╯
                    ╭b──────╮ ╭e──────╮ ╭h──────╮ ╭k──────╮  Deck 60  board #4
                    │  ◭ ◭  │ │  ◐ ◐  │ │  ▲ ▲  │ │  △ △  │  Chain: reuse one (1–3)
                    ╰───G───╯ ╰───P───╯ ╰───R───╯ ╰───G───╯   1 ■   1GFS
                    ╭c──────╮ ╭f──────╮ ╭i──────╮ ╭l──────╮   2 ●●  2GFC
                    │ ○ ○ ○ │ │ ○ ○ ○ │ │ ◧ ◧ ◧ │ │ ■ ■ ■ │   3 ▲▲▲ 3GFT
                    ╰───P───╯ ╰───R───╯ ╰───G───╯ ╰───P───╯
                    ────────────────────────────────────────────────────────────────────────────────
                    bob took ■ 1RFS · ◭◭ 2GHT · ○○○ 3PEC
                    ✗ alice claimed 1RFS 2GHT 3PGC: colour: two red, one green (−1)
                    <bob> gg
                    3 letters + Enter claims · /chat · ? help
                    >
                    """))
    }

    @Test("A terminal too small for any layout says so instead of drawing garbage")
    func tooSmall() {
        let frame = frame(Fixtures.twelve, Fixtures.ui(), columns: 28, rows: 8, hint: nil, me: "alice")
        #expect(
            Fixtures.plain(frame)
                == Fixtures.golden(
                    """
                    Terminal too small (28×8)
                    for this board.
                    Make the window bigger
                    (at least 30×10; 80×24 is
                    best).
                    Ctrl-C quits.


                    """))
    }
}
