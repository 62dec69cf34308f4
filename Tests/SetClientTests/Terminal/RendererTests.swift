import SetProtocol
import SetTerminal
import Testing

@Suite struct RendererTests {
    private func render(
        _ view: GameView, _ ui: TerminalUI = Fixtures.ui(), columns: Int, rows: Int, isColour: Bool = false
    ) -> Frame {
        ScreenRenderer(view: view, me: "alice", hint: nil, ui: ui, isColour: isColour)
            .frame(TerminalSize(columns: columns, rows: rows))
    }

    @Test("Every frame has exactly one line per row and no line wider than the terminal, at every size")
    func framesFitEverySize() {
        for view in [Fixtures.twelve, Fixtures.twentyOne, Fixtures.matchismo, Fixtures.chain, GameView()] {
            for columns in stride(from: 1, through: 130, by: 5) {
                for rows in [1, 9, 10, 13, 16, 20, 24, 40] {
                    let frame = render(
                        view, Fixtures.ui(typed: String(repeating: "x", count: 200)), columns: columns,
                        rows: rows)
                    #expect(frame.lines.count == rows, "\(columns)×\(rows)")
                    #expect(frame.lines.allSatisfy { $0.width <= columns }, "\(columns)×\(rows)")
                    if let cursor = frame.cursor { #expect(cursor.row < rows && cursor.column < columns) }
                }
            }
        }
    }

    @Test("Colour: shapes are drawn in their colour (red 31, green 32, purple as magenta 35)")
    func colours() {
        let frame = render(Fixtures.twelve, columns: 80, rows: 24, isColour: true)
        let middle = frame.lines[2].rendered(colour: true)
        #expect(middle.contains("\u{1B}[1;31m■\u{1B}[0m"))  // a: one red solid square
        #expect(middle.contains("\u{1B}[1;32m▲\u{1B}[0m"))  // d: one green solid triangle
        #expect(middle.contains("\u{1B}[1;35m□\u{1B}[0m"))  // g: one purple open square
        // With colour there is no colour letter under the card; without, there is.
        #expect(!frame.lines[3].plainText.contains("R"))
        #expect(
            render(Fixtures.twelve, columns: 80, rows: 24).lines[3].plainText.contains("╚═══R═══╝") == false)
        #expect(render(Fixtures.twelve, columns: 80, rows: 24).lines[3].plainText.hasPrefix("╰───R───╯"))
    }

    @Test("Without colour the frame has no escape sequences at all")
    func noColourHasNoEscapes() {
        for view in [Fixtures.twelve, Fixtures.matchismo] {
            let frame = render(view, columns: 80, rows: 24)
            #expect(frame.lines.allSatisfy { !$0.rendered(colour: false).contains("\u{1B}") })
        }
    }

    @Test("Names and chat from the server are shown with control characters and escapes removed")
    func untrustedTextIsCleaned() {
        var ui = Fixtures.ui()
        ui.log(
            .chat(name: "mallory\u{1B}[2J", text: "hi\u{1B}]0;owned\u{07} \u{1B}[31mthere\r\nfriend\u{9B}1m"))
        let view = GameView(lines: [
            "ROOM evil set 1 playing", "BOARD 1 a:1RFS b:2GHT c:3PEC", "PLAYER eve\u{1B}[1m 0 online",
        ])
        for isColour in [false, true] {
            let frame = render(view, ui, columns: 80, rows: 24, isColour: isColour)
            let bytes = frame.lines.map { $0.rendered(colour: false) }.joined()
            #expect(!bytes.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
            #expect(frame.plainLines.contains { $0.contains("<mallory> hi therefriend") })
        }
    }

    @Test("A panel shows a page of its lines and where in the list it is")
    func panel() {
        var ui = Fixtures.ui()
        ui.panel = Panel(
            title: "History of lobby — 40 sets", lines: (1...40).map { StyledText("line \($0)") })
        ui.panel?.scroll(by: 5, height: ScreenRenderer.panelHeight(TerminalSize(columns: 50, rows: 12)))
        let lines = Fixtures.plain(render(Fixtures.twelve, ui, columns: 50, rows: 12))
        #expect(lines[1] == "History of lobby — 40 sets")
        #expect(Array(lines[2..<10]) == (6...13).map { "line \($0)" })
        #expect(lines[10] == "↑ ↓ PgUp PgDn scroll · Esc, q or Enter closes · 6…")
        #expect(lines.count == 12)
    }

    @Test("A long input line scrolls sideways so the cursor stays on screen")
    func longInput() {
        let typed = "/chat " + String(repeating: "abcdefghij", count: 10)
        let frame = render(Fixtures.twelve, Fixtures.ui(typed: typed), columns: 40, rows: 14)
        #expect(frame.cursor == Frame.Position(row: 13, column: 39))
        #expect(frame.plainLines[13] == "> " + String(typed.suffix(37)))
    }

    @Test("Out of a room the board area says how to join one")
    func noRoom() {
        let lines = Fixtures.plain(render(GameView(), columns: 60, rows: 12))
        #expect(lines[1] == "Not in a room.")
        #expect(lines[2] == "/join <room> to play, /rooms to list them.")
    }

    @Test("The top line shows a lost connection and the next attempt")
    func connectionState() {
        var ui = Fixtures.ui()
        ui.connection = .reconnecting(attempt: 2, seconds: 1)
        #expect(
            render(Fixtures.twelve, ui, columns: 80, rows: 24).plainLines[0].hasSuffix(
                "connection lost · retry 2 in 1s"))
        ui.connection = .offline("idle")
        #expect(
            render(Fixtures.twelve, ui, columns: 80, rows: 24).plainLines[0].hasSuffix(
                "offline: idle · /reconnect"))
    }

    @Test("A game that is over says who won")
    func gameOver() {
        var view = Fixtures.twelve
        view.apply(text: "OVER alice:3 bob:1")
        let lines = Fixtures.plain(render(view, columns: 80, rows: 24))
        #expect(lines[0].hasPrefix("SET · lobby · normal · game over"))
        #expect(lines.contains { $0.hasSuffix("Game over") })
        #expect(lines.contains { $0.hasSuffix("alice wins") })
    }
}
