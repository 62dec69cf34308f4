import SetProtocol
import SetTerminal
import Testing

@Suite struct StyledTextTests {
    @Test("Widths count columns: wide characters two, combining marks none, card glyphs one")
    func widths() {
        #expect(TextWidth.columns("abc") == 3)
        #expect(TextWidth.columns("日本") == 4)
        #expect(TextWidth.columns("e\u{301}") == 1)
        #expect(TextWidth.columns("▲◭△●◐○■◧□♥") == 10)
        #expect(TextWidth.columns("🙂") == 2)
    }

    @Test("Truncating, padding and wrapping keep styles and never exceed the width")
    func shaping() {
        let text = StyledText("hello ", .bold) + StyledText("wide 日本 world", TextStyle(colour: .red))
        #expect(text.truncated(to: 8).plainText == "hello w…")
        #expect(text.truncated(to: 8).spans.count == 2)
        #expect(text.padded(to: 25).width == 25)
        #expect(text.wrapped(to: 10).map(\.plainText) == ["hello wide", "日本 world"])
        #expect(StyledText("abcdefghij").wrapped(to: 4).map(\.plainText) == ["abcd", "efgh", "ij"])
        #expect(StyledText("日本語").truncated(to: 4).plainText == "日…")
    }

    @Test("Rendering with colour wraps each styled run in SGR and resets; without colour it is plain")
    func rendering() {
        let text =
            StyledText("a") + StyledText("b", TextStyle(colour: .green, isBold: true)) + StyledText("c", .dim)
        #expect(text.rendered(colour: true) == "a\u{1B}[1;32mb\u{1B}[0m\u{1B}[2mc\u{1B}[0m")
        #expect(text.rendered(colour: false) == "abc")
    }
}

@Suite struct CardArtTests {
    @Test("The nine shape-and-fill glyphs are all different, so fills stay apart without colour")
    func glyphsDiffer() {
        let cards = GameView(lines: [
            "BOARD 1 "
                + ["1RFT", "1RHT", "1RET", "1RFC", "1RHC", "1REC", "1RFS", "1RHS", "1RES"].enumerated()
                .map { "\(Character(UnicodeScalar(UInt8(97 + $0.offset)))):\($0.element)" }.joined(
                    separator: " ")
        ])
        let glyphs = cards.board.map { slot -> String in
            CardArt.cell(slot, label: "a", mark: .none, colourLetters: false).plainText
        }
        #expect(
            glyphs == [
                " a ▲   ", " a ◭   ", " a △   ", " a ●   ", " a ◐   ", " a ○   ", " a ■   ", " a ◧   ",
                " a □   ",
            ])
    }

    @Test("A box shows the real count of shapes, the label, and the colour letter without colour")
    func box() {
        let view = GameView(lines: ["BOARD 1 a:3GHT"])
        let box = CardArt.box(view.board[0], label: "k", mark: .none, colourLetters: true).map(\.plainText)
        #expect(box == ["╭k──────╮", "│ ◭ ◭ ◭ │", "╰───G───╯"])
        let selected = CardArt.box(view.board[0], label: "k", mark: .selected, colourLetters: false).map(
            \.plainText)
        #expect(selected == ["╔k══════╗", "║ ◭ ◭ ◭ ║", "╚═══════╝"])
        #expect(
            CardArt.box(view.board[0], label: "k", mark: .hinted, colourLetters: false)[0].plainText
                == "╭k─────*╮")
    }

    @Test("Codes in sentences are coloured like their cards")
    func inline() {
        #expect(CardArt.inline("1RFS").rendered(colour: true) == "\u{1B}[1;31m1RFS\u{1B}[0m")
        #expect(CardArt.inline("=JH").rendered(colour: true) == "\u{1B}[1;31m=J♥\u{1B}[0m")
        #expect(CardArt.inline("\u{1B}[2Jx").plainText == "x")
    }
}

@Suite struct ScreenWriterTests {
    private let size = TerminalSize(columns: 10, rows: 3)

    private func frame(_ lines: [String]) -> Frame {
        Frame(lines: lines.map { StyledText($0) }, cursor: Frame.Position(row: 2, column: 2))
    }

    @Test("The first frame clears and draws every line at its row; later frames only what changed")
    func diffs() {
        var writer = ScreenWriter()
        let first = writer.update(to: frame(["top", "middle", "> "]), size: size, isColour: false)
        #expect(first.contains("\u{1B}[2J"))
        #expect(first.contains("\u{1B}[1;1Htop\u{1B}[K") && first.contains("\u{1B}[2;1Hmiddle\u{1B}[K"))
        #expect(
            first.hasPrefix("\u{1B}[?2026h\u{1B}[?25l")
                && first.hasSuffix("\u{1B}[3;3H\u{1B}[?25h\u{1B}[?2026l"))
        let second = writer.update(to: frame(["top", "changed", "> "]), size: size, isColour: false)
        #expect(
            !second.contains("\u{1B}[2J") && !second.contains("top")
                && second.contains("\u{1B}[2;1Hchanged\u{1B}[K"))
        writer.invalidate()
        #expect(
            writer.update(to: frame(["top", "changed", "> "]), size: size, isColour: false).contains("top"))
    }

    @Test("A line as wide as the terminal is not followed by erase-to-end, which would eat its last column")
    func fullWidth() {
        var writer = ScreenWriter()
        let out = writer.update(to: frame(["0123456789", "", ""]), size: size, isColour: false)
        #expect(out.contains("\u{1B}[1;1H0123456789\u{1B}[2;1H"))
    }
}

@Suite struct PlainFormatterTests {
    @Test("View lines become one readable line each; events are left to the event list")
    func lines() {
        let view = Fixtures.twelve
        func line(_ text: String) -> String? { PlainFormatter.line(for: .init(parsing: text), in: view) }
        #expect(line("BOARD 7 a:1RFS b:2GHT") == "board #7: a 1RFS  b 2GHT")
        #expect(line("DECK 1") == "deck: 1 card left")
        #expect(line("PLAYER bob 4 away") == "score: bob 4 (away)")
        #expect(line("PLAYER b\u{1B}[2Job 4 online") == "score: bob 4")  // The escape is removed.
        #expect(line("TURN -") == "turn: nobody")
        #expect(line("CHAIN -") == "chain: any set goes")
        #expect(line("ROOM lobby set 2 playing") == "room lobby: set, 2 players, playing")
        #expect(line("ROOM other set 2 playing") == nil)
        #expect(line("SET bob 1RFS 2GHT 3PEC") == nil)
        #expect(
            LogEntry.took(name: "bob", cards: ["1RFS", "2GHT", "3PEC"]).styled.plainText
                == "bob took ■ 1RFS · ◭◭ 2GHT · ○○○ 3PEC")
    }
}
