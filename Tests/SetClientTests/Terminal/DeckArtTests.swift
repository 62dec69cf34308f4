import SetGame
import SetProtocol
import SetTerminal
import Testing

/// set-cli draws every deck (protocol.md, "Cards of MegaSet and 4Set" and "Later modes"): golden text of a
/// board per deck, boxes and one-line cells, with and without colour letters.
@Suite struct DeckArtTests {
    /// A room of `mode` whose board is `codes`, at positions a, b, c… in order.
    static func view(mode: String, _ codes: [String]) -> GameView {
        let board = codes.enumerated().map { "\(SetGame.positionName($0.offset)):\($0.element)" }
        return GameView(lines: [
            "ROOM t set 1 playing", "OPTIONS mode=\(mode)", "BOARD 4 " + board.joined(separator: " "),
            "DECK 9",
        ])
    }

    /// The board of `view` as plain text, `columns` wide, boxes or cells.
    static func drawn(_ view: GameView, columns: Int, isCompact: Bool, marks: [Int: CardMark] = [:])
        -> [String]
    {
        let grid = BoardGrid.make(
            count: view.board.count, isMatchismo: false, isCompact: isCompact, maxWidth: columns,
            mode: view.setMode)!
        return grid.lines(view.board, marks: marks, colourLetters: true).map { line in
            var text = line.plainText
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    static let fourSet = view(
        mode: "4set",
        ["4BDX", "1BFT", "2RFX", "3PDC", "4GES", "1GDS", "2BHX", "3REX", "4PFC", "1RHT", "2GEX", "3BDS"])

    static let megaSet = view(
        mode: "megaset",
        [
            "1RFT", "2GHCW", "3PESO", "1GFSW", "2PHT", "3RECO", "1PFCO", "2RHSW", "3GET", "2RFTW", "1GESO",
            "3PHC", "2GFS", "1PET", "3RHSW", "2PFCO",
        ])

    @Test("4Set's board in boxes: four shapes, the cross, the dotted fill and blue's letter B")
    func fourSetBoxes() {
        #expect(
            Self.drawn(Self.fourSet, columns: 80, isCompact: false)
                == Fixtures.golden(
                    """
                    ╭a──────╮ ╭d──────╮ ╭g──────╮ ╭j──────╮
                    │⊹ ⊹ ⊹ ⊹│ │ ⊙ ⊙ ⊙ │ │  ✜ ✜  │ │   ◭   │
                    ╰───B───╯ ╰───P───╯ ╰───B───╯ ╰───R───╯
                    ╭b──────╮ ╭e──────╮ ╭h──────╮ ╭k──────╮
                    │   ▲   │ │□ □ □ □│ │ ✙ ✙ ✙ │ │  ✙ ✙  │
                    ╰───B───╯ ╰───G───╯ ╰───R───╯ ╰───G───╯
                    ╭c──────╮ ╭f──────╮ ╭i──────╮ ╭l──────╮
                    │  ✚ ✚  │ │   ⊡   │ │● ● ● ●│ │ ⊡ ⊡ ⊡ │
                    ╰───R───╯ ╰───G───╯ ╰───P───╯ ╰───B───╯
                    """))
    }

    @Test("4Set's board in one-line cells: eight columns, room for four shapes and the colour letter")
    func fourSetCells() {
        #expect(
            Self.drawn(Self.fourSet, columns: 80, isCompact: true)
                == Fixtures.golden(
                    """
                     a ⊹⊹⊹⊹B  d ⊙⊙⊙ P  g ✜✜  B  j ◭   R
                     b ▲   B  e □□□□G  h ✙✙✙ R  k ✙✙  G
                     c ✚✚  R  f ⊡   G  i ●●●●P  l ⊡⊡⊡ B
                    """))
    }

    @Test(
        "MegaSet's board in boxes: each box's border is the card's (single, double, dotted), its letter W or O beside the colour"
    )
    func megaSetBoxes() {
        #expect(
            Self.drawn(Self.megaSet, columns: 80, isCompact: false, marks: [0: .selected, 1: .selected])
                == Fixtures.golden(
                    """
                    ╭a──────╮ ╔d══════╗ ┌g┄┄┄┄┄┄┐ ╔j══════╗ ╭m──────╮ ┌p┄┄┄┄┄┄┐
                    │   ▲   │ ║   ■   ║ ┆   ●   ┆ ║  ▲ ▲  ║ │  ■ ■  │ ┆  ● ●  ┆
                    ╰───R───╯ ╚══GW═══╝ └┄┄PO┄┄┄┘ ╚══RW═══╝ ╰───G───╯ └┄┄PO┄┄┄┘
                    ╔b══════╗ ╭e──────╮ ╔h══════╗ ┌k┄┄┄┄┄┄┐ ╭n──────╮
                    ║  ◐ ◐  ║ │  ◭ ◭  │ ║  ◧ ◧  ║ ┆   □   ┆ │   △   │
                    ╚══GW═══╝ ╰───P───╯ ╚══RW═══╝ └┄┄GO┄┄┄┘ ╰───P───╯
                    ┌c┄┄┄┄┄┄┐ ┌f┄┄┄┄┄┄┐ ╭i──────╮ ╭l──────╮ ╔o══════╗
                    ┆ □ □ □ ┆ ┆ ○ ○ ○ ┆ │ △ △ △ │ │ ◐ ◐ ◐ │ ║ ◧ ◧ ◧ ║
                    └┄┄PO┄┄┄┘ └┄┄RO┄┄┄┘ ╰───G───╯ ╰───P───╯ ╚══RW═══╝
                    """))
    }

    @Test("MegaSet's board in one-line cells: the border a mark after the shapes, ‖ double and ┆ dotted")
    func megaSetCells() {
        #expect(
            Self.drawn(Self.megaSet, columns: 80, isCompact: true)
                == Fixtures.golden(
                    """
                     a ▲   R  d ■  ‖G  g ●  ┆P  j ▲▲ ‖R  m ■■  G  p ●● ┆P
                     b ◐◐ ‖G  e ◭◭  P  h ◧◧ ‖R  k □  ┆G  n △   P
                     c □□□┆P  f ○○○┆R  i △△△ G  l ◐◐◐ P  o ◧◧◧‖R
                    """))
    }

    @Test("Memory's board: 21 cards face down, hatched, none readable as a protocol error")
    func memoryBoard() {
        let view = Self.view(mode: "memory", Array(repeating: "??", count: 21))
        #expect(view.board.allSatisfy { $0 == .playing(nil, isMatched: false) })
        #expect(view.protocolErrorCount == 0)
        #expect(
            Self.drawn(view, columns: 80, isCompact: false)
                == Fixtures.golden(
                    """
                    ╭a──────╮ ╭d──────╮ ╭g──────╮ ╭j──────╮ ╭m──────╮ ╭p──────╮ ╭s──────╮
                    │░░░░░░░│ │░░░░░░░│ │░░░░░░░│ │░░░░░░░│ │░░░░░░░│ │░░░░░░░│ │░░░░░░░│
                    ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯
                    ╭b──────╮ ╭e──────╮ ╭h──────╮ ╭k──────╮ ╭n──────╮ ╭q──────╮ ╭t──────╮
                    │░░░░░░░│ │░░░░░░░│ │░░░░░░░│ │░░░░░░░│ │░░░░░░░│ │░░░░░░░│ │░░░░░░░│
                    ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯
                    ╭c──────╮ ╭f──────╮ ╭i──────╮ ╭l──────╮ ╭o──────╮ ╭r──────╮ ╭u──────╮
                    │░░░░░░░│ │░░░░░░░│ │░░░░░░░│ │░░░░░░░│ │░░░░░░░│ │░░░░░░░│ │░░░░░░░│
                    ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯ ╰───────╯
                    """))
    }

    @Test("MegaSet's 48 cards: positions za…zv, in bands that fit the screen")
    func megaSetFortyEight() {
        let codes = Card.bordered.filter { $0.index % 5 == 0 }.prefix(48).map(\.code)
        let view = Self.view(mode: "megaset", Array(codes))
        #expect(view.board.count == 48)
        #expect(view.protocolErrorCount == 0)
        let lines = Self.drawn(view, columns: 80, isCompact: true)
        #expect(lines.allSatisfy { TextWidth.columns($0) <= 80 })
        #expect(
            lines
                == Fixtures.golden(
                    """
                     a ▲   R  d ◭   P  g ●   G  j ○   R  m ■   P  p □   G  s ◭  ‖R  v △  ‖P  y ◐  ‖G
                     b ▲▲▲ G  e △△△ R  h ●●● P  k ○○○ G  n ◧◧◧ R  q □□□ P  t ◭◭◭‖G  w ●●●‖R  z ◐◐◐‖P
                     c ◭◭  R  f △△  P  i ◐◐  G  l ■■  R  o ◧◧  P  r ▲▲ ‖G  u △△ ‖R  x ●● ‖P za ○○ ‖G
                    zb ■  ‖R ze ◧  ‖P zh ▲  ┆G zk △  ┆R zn ●  ┆P zq ○  ┆G zt ◧  ┆R
                    zc ■■■‖G zf □□□‖R zi ▲▲▲┆P zl △△△┆G zo ◐◐◐┆R zr ○○○┆P zu ◧◧◧┆G
                    zd ◧◧ ‖R zg □□ ‖P zj ◭◭ ┆G zm ●● ┆R zp ◐◐ ┆P zs ■■ ┆G zv □□ ┆R
                    """))
    }

    @Test("Codes no deck has stay unreadable and are reported: a border with a fourth value")
    func impossibleCodes() {
        let view = Self.view(mode: "megaset", ["4BDXW", "1RFT", "5RFT"])
        #expect(view.board[0] == .unreadable("4BDXW"))
        #expect(view.board[2] == .unreadable("5RFT"))
        #expect(view.protocolErrorCount == 2)
    }
}
