import SetProtocol

/// Turns the client's view of the game and the screen state into the lines of one frame.
///
/// A pure function of its inputs — no terminal, no clock — so every layout has a golden test. The
/// layout, top to bottom: a title line; the board with the scoreboard beside it (or a one-line
/// summary under it when the terminal is narrow); a rule; the latest events; the result of the last
/// command; the input line. A terminal too small for any layout gets a message instead of garbage.
public struct ScreenRenderer: Sendable {
    /// The room as the server described it.
    public var view: GameView
    /// The player's own name, if the server confirmed one.
    public var me: String?
    /// The position of the last hint.
    public var hint: Int?
    /// Input, events, status, panel and connection.
    public var ui: TerminalUI
    /// Whether to use colour; without it every colour is also written as a letter.
    public var isColour: Bool
    /// The game night's state: waiting, countdown, host, score sheet.
    public var night: GameNight

    /// Columns of the scoreboard beside the board.
    public static let sidebarWidth = 24
    /// Columns between the board and the scoreboard.
    static let sidebarGap = 2
    /// Event lines that must fit for a layout to be used.
    static let minimumEventLines = 2
    /// The smallest terminal drawn at all.
    public static let minimumSize = TerminalSize(columns: 30, rows: 10)

    /// Creates a renderer for one frame.
    public init(
        view: GameView, me: String?, hint: Int?, ui: TerminalUI, isColour: Bool,
        night: GameNight = GameNight()
    ) {
        self.view = view
        self.me = me
        self.hint = hint
        self.ui = ui
        self.isColour = isColour
        self.night = night
    }

    /// Lines a panel shows at once on a terminal of `size`.
    public static func panelHeight(_ size: TerminalSize) -> Int { max(1, size.rows - 4) }

    /// The frame for a terminal of `size`.
    public func frame(_ size: TerminalSize) -> Frame {
        let width = size.columns
        guard width >= Self.minimumSize.columns, size.rows >= Self.minimumSize.rows else {
            return tooSmall(size)
        }
        if let panel = ui.panel { return panelFrame(panel, size) }
        guard let layout = layout(size) else { return tooSmall(size) }

        var lines = [header(width)]
        let board = layout.message ?? boardLines(layout.grid)
        let boardWidth = layout.message == nil ? layout.grid.width : Self.messageWidth
        let side = layout.isBeside ? sidebar(height: layout.mainHeight) : []
        for row in 0..<layout.mainHeight {
            var line = row < board.count ? board[row] : StyledText()
            if layout.isBeside {
                line = line.truncated(to: boardWidth).padded(to: boardWidth + Self.sidebarGap)
                if row < side.count { line.append(side[row]) }
            }
            lines.append(line)
        }
        lines += layout.summary
        lines.append(StyledText(String(repeating: "─", count: width), .dim))
        let eventRows = size.rows - lines.count - 2
        lines += eventLines(width: width, count: eventRows)
        lines.append(statusLine(width))
        let (input, cursor) = inputLine(width)
        lines.append(input)
        return Frame(
            lines: lines.map { $0.truncated(to: width) },
            cursor: Frame.Position(row: size.rows - 1, column: cursor))
    }

    // MARK: Layout

    private struct Layout {
        var grid: BoardGrid
        var isBeside: Bool
        var summary: [StyledText]
        var mainHeight: Int
        /// Lines shown instead of the board: the waiting room, the countdown, the end screen.
        var message: [StyledText]?
    }

    /// Columns the waiting and countdown screens need beside the scoreboard.
    static let messageWidth = 40

    /// The first layout that fits, preferring big cards to the scoreboard beside them: the cards are
    /// the game.
    private func layout(_ size: TerminalSize) -> Layout? {
        let fixed = 1 + 1 + Self.minimumEventLines + 2  // title, rule, events, status, input
        let available = size.rows - fixed
        if view.room == nil,
            let grid = BoardGrid.make(count: 0, isMatchismo: false, isCompact: true, maxWidth: size.columns)
        {
            return available >= 2 ? Layout(grid: grid, isBeside: false, summary: [], mainHeight: 2) : nil
        }
        if let message = messageLines(),
            let grid = BoardGrid.make(count: 0, isMatchismo: false, isCompact: true, maxWidth: size.columns)
        {
            // The end screen is as wide as its table, so the scoreboard is the table; the waiting
            // and countdown screens keep the players beside them when there is room.
            let isBeside =
                !isEndScreen && size.columns >= Self.messageWidth + Self.sidebarWidth + Self.sidebarGap
            let wanted = isBeside ? max(message.count, sidebar(height: .max).count) : message.count
            let summary =
                isBeside || isEndScreen ? [] : Array(summaryText().wrapped(to: size.columns).prefix(2))
            let height = min(wanted, available - summary.count)
            guard height >= 1 else { return nil }
            var layout = Layout(grid: grid, isBeside: isBeside, summary: summary, mainHeight: height)
            layout.message = message
            return layout
        }
        let count = max(view.board.count, 1)
        for (isCompact, isBeside) in [(false, true), (false, false), (true, true), (true, false)] {
            let boardWidth = isBeside ? size.columns - Self.sidebarWidth - Self.sidebarGap : size.columns
            guard
                let grid = BoardGrid.make(
                    count: count, isMatchismo: view.game == .matchismo, isCompact: isCompact,
                    maxWidth: boardWidth, mode: view.setMode)
            else { continue }
            let boardHeight = grid.height
            if isBeside {
                guard boardHeight <= available else { continue }
                let wanted = sidebar(height: .max).count
                let mainHeight = max(boardHeight, min(wanted, available))
                return Layout(grid: grid, isBeside: true, summary: [], mainHeight: mainHeight)
            }
            let summary = Array(summaryText().wrapped(to: size.columns).prefix(2))
            guard boardHeight + summary.count <= available else { continue }
            return Layout(grid: grid, isBeside: false, summary: summary, mainHeight: boardHeight)
        }
        return nil
    }

    private func tooSmall(_ size: TerminalSize) -> Frame {
        let message: [StyledText] = [
            StyledText(
                "Terminal too small (\(size.columns)×\(size.rows))", TextStyle(colour: .yellow, isBold: true)),
            "for this board.",
            "Make the window bigger",
            "(at least \(Self.minimumSize.columns)×\(Self.minimumSize.rows); 80×24 is best).",
            "Ctrl-C quits.",
        ]
        var lines: [StyledText] = []
        for line in message { lines += line.wrapped(to: max(1, size.columns)) }
        lines = Array(lines.prefix(size.rows))
        while lines.count < size.rows { lines.append(StyledText()) }
        return Frame(lines: lines.map { $0.truncated(to: size.columns) }, cursor: nil)
    }

    // MARK: Waiting, countdown and the end screen

    /// Whether the game is over and its score sheet came: the end screen replaces the board.
    private var isEndScreen: Bool { view.room != nil && view.status == .over && !night.sheet.isEmpty }

    /// The lines shown instead of the board, or `nil` to show the board.
    private func messageLines() -> [StyledText]? {
        guard view.room != nil else { return nil }
        if isEndScreen { return endScreen() }
        if let n = night.countdown, night.isWaiting || view.board.isEmpty {
            return [
                StyledText(),
                StyledText("   Starting in \(n)…", TextStyle(colour: .yellow, isBold: true)),
                StyledText(),
                StyledText("   Look at the board when it comes!", .dim),
            ]
        }
        if view.isPaused, view.status == .playing, !view.board.isEmpty {
            // A paused practice game hides its cards: a pause is no free look at the board.
            return [
                StyledText(),
                StyledText("   Paused", TextStyle(colour: .yellow, isBold: true)),
                StyledText(),
                StyledText("   The clock stands and"),
                StyledText("   the cards are hidden."),
                StyledText(),
                StyledText(
                    ui.isWatching ? "   A player can /unpause." : "   /unpause goes on.", .bold),
            ]
        }
        guard night.isWaiting else { return nil }
        let seated = night.seated ?? view.players.count
        var lines = [
            StyledText("Waiting for the game to start", TextStyle(colour: .yellow, isBold: true)),
            StyledText(),
            StyledText("Ready: ") + StyledText("\(night.ready.count) of \(seated)", .bold),
        ]
        if !night.ready.isEmpty {
            lines.append(
                StyledText("  " + night.ready.map { TextRules.sanitized($0) }.joined(separator: ", ")))
        }
        lines.append(StyledText())
        if ui.isWatching {
            lines.append(
                StyledText("You are watching: /join \(TextRules.sanitized(view.room ?? "")) to play.", .dim))
        } else if let me, night.ready.contains(me) {
            lines.append(StyledText("You are ready (/unready if not); it starts when all are.", .dim))
        } else {
            lines.append(StyledText("/ready when you are.", .bold))
        }
        if let host = night.host {
            lines.append(
                host == me
                    ? StyledText("You are the host: /start starts now.", .dim)
                    : StyledText("\(TextRules.sanitized(host)) (the host) can /start it now.", .dim))
        }
        return lines
    }

    /// The score sheet: one row per player in `OVER`'s order, with score, sets, wrong and stale
    /// claims and the fastest and mean time of a set, then the game's length.
    private func endScreen() -> [StyledText] {
        func cell(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        var lines = [
            StyledText("Game over\(timedEnd) — score sheet", TextStyle(colour: .yellow, isBold: true)),
            StyledText(),
        ]
        let heading =
            "   Player           " + cell("Score", 6) + cell("Sets", 6) + cell("Wrong", 7) + cell("Late", 7)
            + cell("Fastest", 9) + cell("Mean", 9)
        lines.append(StyledText(heading, .bold))
        let scores = view.finalScores ?? []
        for (i, row) in night.sheet.enumerated() {
            let score = scores.first { $0.name == row.name }.map { String($0.score) } ?? "-"
            var line = StyledText(i == 0 ? " ★ " : "   ", TextStyle(colour: .yellow, isBold: true))
            line.append(
                StyledText(TextRules.sanitized(row.name), row.name == me ? .bold : .plain).padded(to: 17))
            line.append(
                cell(score, 6) + cell(String(row.sets), 6) + cell(String(row.wrong), 7)
                    + cell(String(row.stale), 7)
                    + cell(GameNight.seconds(row.fastest), 9) + cell(GameNight.seconds(row.mean), 9))
            lines.append(line)
        }
        lines.append(StyledText())
        var footer = StyledText()
        if let duration = night.duration {
            footer.append("Game length \(GameNight.clock(milliseconds: duration)) · ")
        }
        if let rematch = night.rematch {
            footer.append("/rematch plays again (\(rematch.offers) of \(rematch.needed) agree)", .bold)
        } else {
            footer.append("/rematch plays again with everyone", .dim)
        }
        lines.append(footer)
        if !night.standings.isEmpty {
            lines.append(StyledText())
            lines.append(
                StyledText(
                    "Tonight — \(night.standingsGames) game\(night.standingsGames == 1 ? "" : "s") (3/2/1 points by place)",
                    TextStyle(colour: .yellow, isBold: true)))
            lines.append(
                StyledText(
                    "   Player           " + cell("Points", 7) + cell("Wins", 6) + cell("Games", 7)
                        + cell("Sets", 6)
                        + cell("Best", 9), .bold))
            for row in night.standings {
                var line = StyledText(cell("\(row.place)", 2) + " ")
                line.append(
                    StyledText(TextRules.sanitized(row.name), row.name == me ? .bold : .plain).padded(to: 17))
                line.append(
                    cell(String(row.points), 7) + cell(String(row.wins), 6) + cell(String(row.games), 7)
                        + cell(String(row.sets), 6) + cell(GameNight.seconds(row.bestMs), 9))
                lines.append(line)
            }
        }
        return lines
    }

    // MARK: Parts

    private var isMatchismo: Bool { view.game == .matchismo }

    private func header(_ width: Int) -> StyledText {
        var left = StyledText(isMatchismo ? "Matchismo" : "SET", .bold)
        if let room = view.room {
            left.append(" · ")
            left.append(TextRules.sanitized(room), TextStyle(colour: .cyan, isBold: true))
            if isMatchismo {
                let n = view.options["n"] ?? "2"
                left.append(" · \(TextRules.sanitized(n)) cards a match")
            } else {
                left.append(" · " + TextRules.sanitized(view.options["mode"] ?? "normal"))
                if view.isPractice { left.append(" · practice") }
            }
            if view.status == .over { left.append(" · game over", TextStyle(colour: .yellow, isBold: true)) }
            if night.isWaiting { left.append(" · waiting", TextStyle(colour: .yellow, isBold: true)) }
            if ui.isWatching { left.append(" · watching", TextStyle(colour: .cyan)) }
        }
        var right: StyledText
        switch ui.connection {
        case .connecting: right = StyledText("connecting…", TextStyle(colour: .yellow))
        case .online: right = StyledText(me.map { TextRules.sanitized($0) } ?? "online", .bold)
        case .reconnecting(let attempt, let seconds):
            let when = seconds > 0 ? " in \(seconds)s" : "…"
            right = StyledText(
                "connection lost · retry \(attempt)\(when)", TextStyle(colour: .yellow, isBold: true))
        case .offline(let reason):
            right = StyledText(
                "offline: \(TextRules.sanitized(reason)) · /reconnect",
                TextStyle(colour: .yellow, isBold: true))
        }
        right = right.truncated(to: max(0, width - 12))
        let room = width - right.width - 1
        return left.truncated(to: room).padded(to: room) + " " + right
    }

    private var marks: [Int: CardMark] {
        var marks: [Int: CardMark] = [:]
        for p in ui.fresh where p < view.board.count { marks[p] = .fresh }
        if let hint { marks[hint] = .hinted }
        for p in UserCommand.typedPositions(ui.editor.text, context: UserCommand.Context(view)) {
            marks[p] = .selected
        }
        return marks
    }

    private func boardLines(_ grid: BoardGrid) -> [StyledText] {
        guard view.room != nil else {
            return [
                StyledText("Not in a room.", .bold),
                StyledText("/join <room> to play, /rooms to list them.", .dim),
            ]
        }
        guard !view.board.isEmpty else {
            return [StyledText(view.status == .over ? "" : "(no cards)", .dim)]
        }
        return grid.lines(view.board, marks: marks, colourLetters: !isColour)
    }

    private func playerLine(_ player: GameView.Player, width: Int) -> StyledText {
        let isTurn = isMatchismo && view.turn == player.name
        var line = StyledText(isTurn ? "▶" : " ", TextStyle(colour: .yellow, isBold: true))
        line.append(player.isOnline ? "●" : "○", player.isOnline ? TextStyle(colour: .green) : .dim)
        line.append(" ")
        var name = StyledText(TextRules.sanitized(player.name), player.name == me ? .bold : .plain)
        if !player.isOnline { name.append(" away", .dim) }
        if night.host == player.name { name.append(" host", .dim) }
        if night.isWaiting && night.ready.contains(player.name) {
            name.append(" ✓", TextStyle(colour: .green, isBold: true))
        }
        let score = String(player.score)
        line.append(name.padded(to: max(1, width - 3 - score.count - 1)))
        line.append(" " + score, .bold)
        return line
    }

    /// The scoreboard and the room's facts, at most `height` lines of ``sidebarWidth`` columns.
    private func sidebar(height: Int) -> [StyledText] {
        guard view.room != nil else { return [] }
        let width = Self.sidebarWidth
        var facts: [StyledText] = [StyledText()]
        var deck = StyledText("Deck \(view.deckCount)")
        deck.append("  board #\(view.revision)", .dim)
        facts.append(deck)
        if let clock = ui.clock { facts.append(StyledText("Time \(clock)")) }
        facts += timingFacts
        if isMatchismo {
            if let turn = view.turn {
                facts.append(
                    turn == me
                        ? StyledText("Your turn!", TextStyle(colour: .yellow, isBold: true))
                        : StyledText("Turn: ") + StyledText(TextRules.sanitized(turn), .bold))
            } else {
                facts.append(StyledText("Turn: nobody", .dim))
            }
        }
        if !view.chain.isEmpty {
            // Chain mode reuses one card of the last set, ultrachain two of the last UltraSet's four.
            let reuse = view.setMode.chainReuse ?? 1
            facts.append(
                StyledText("Chain: reuse \(reuse == 1 ? "one" : "\(reuse)") (1–\(view.chain.count))", .bold))
            for (i, card) in view.chain.enumerated() {
                var line = StyledText(" \(i + 1) ")
                line.append(
                    StyledText(
                        String(repeating: CardArt.glyph(card), count: card.count), CardArt.style(card)
                    ).padded(to: 4))
                line.append(CardArt.inline(card.code))
                facts.append(line)
            }
        }
        if view.setMode.isPuzzle, view.status != .waiting {
            // Puzzle: the board stays until all its sets are found; the ones found so far, as codes.
            facts.append(StyledText("Found \(view.found.count) of \(view.foundTotal)", .bold))
            for claim in view.found { facts.append(StyledText(" ") + CardArt.inline(claim.map(\.code))) }
        }
        if let proposal = view.proposal {
            // What a new game would be, who is for it, and that a bare /new agrees.
            let shown: Set<String> = ["mode", "n", "private", "sets", "minutes", "practice"]
            let what = proposal.options.filter { shown.contains($0.0) }
                .map { "\($0)=\($1)" }.joined(separator: " ")
            facts.append(
                StyledText("Vote: new game", TextStyle(colour: .yellow, isBold: true))
                    + StyledText(" \(proposal.votes)/\(proposal.needed)"))
            if !what.isEmpty { facts.append(StyledText(" " + TextRules.sanitized(what))) }
            facts.append(
                StyledText(
                    " for: " + proposal.voters.map { TextRules.sanitized($0) }.joined(separator: ", "), .dim))
            if let me, !proposal.voters.contains(me), !ui.isWatching {
                facts.append(StyledText(" /new agrees", .bold))
            }
        }
        if let scores = view.finalScores {
            facts.append(StyledText("Game over", TextStyle(colour: .yellow, isBold: true)))
            if let best = scores.first {
                facts.append(StyledText(TextRules.sanitized(best.name), .bold) + " wins")
            }
            facts.append(StyledText("/new plays again", .dim))
        }
        var lines = [StyledText("Players", .bold)]
        let room = height == .max ? view.players.count : max(0, height - 1 - facts.count)
        let shown = view.players.count > room ? max(0, room - 1) : view.players.count
        lines += view.players.prefix(shown).map { playerLine($0, width: width) }
        if shown < view.players.count {
            lines.append(StyledText("  … \(view.players.count - shown) more", .dim))
        }
        lines += facts
        return Array(lines.prefix(height)).map { $0.truncated(to: width) }
    }

    /// How a timed game ended before its deck did (protocol.md, timed games): a player reached the target
    /// (the score sheet's sets say so), else time was called; "" for a game played out.
    private var timedEnd: String {
        guard view.deckCount > 0 else { return "" }
        if let n = view.setsToWin, night.sheet.contains(where: { $0.sets >= n }) {
            return ": first to \(n) set\(n == 1 ? "" : "s")"
        }
        return view.minutesOfPlay != nil ? ": time is up" : ""
    }

    /// A timed or practice game's facts (protocol.md's room options): the target, practice, a pause.
    private var timingFacts: [StyledText] {
        guard !isMatchismo else { return [] }
        var facts: [StyledText] = []
        if let n = view.setsToWin { facts.append(StyledText("First to \(n) set\(n == 1 ? "" : "s")", .bold)) }
        if view.isPractice { facts.append(StyledText("Practice: unrated", .dim)) }
        if view.isPaused, view.status == .playing {
            facts.append(StyledText("Paused · /unpause", TextStyle(colour: .yellow, isBold: true)))
        } else if view.isPractice, view.status == .playing, !ui.isWatching {
            facts.append(StyledText("/pause stops the clock", .dim))
        }
        return facts
    }

    /// The scoreboard in one run of text, for terminals too narrow for the sidebar.
    private func summaryText() -> StyledText {
        var text = StyledText()
        for player in view.players {
            if isMatchismo && view.turn == player.name {
                text.append("▶", TextStyle(colour: .yellow, isBold: true))
            }
            text.append(
                player.isOnline ? "●\u{A0}" : "○\u{A0}", player.isOnline ? TextStyle(colour: .green) : .dim)
            // No-break spaces inside an entry, so a player's name, score and presence wrap together.
            text.append(TextRules.sanitized(player.name), player.name == me ? .bold : .plain)
            text.append("\u{A0}\(player.score)\(player.isOnline ? "" : "\u{A0}away")  ")
        }
        text.append("deck \(view.deckCount) · #\(view.revision)", .dim)
        if let clock = ui.clock { text.append(" · \(clock)", .dim) }
        if let n = view.setsToWin { text.append(" · first to \(n)") }
        if view.isPaused, view.status == .playing {
            text.append(" · paused", TextStyle(colour: .yellow, isBold: true))
        }
        if !view.chain.isEmpty {
            text.append(" · chain ")
            for (i, card) in view.chain.enumerated() { text.append(" \(i + 1):" + card.code) }
        }
        if view.setMode.isPuzzle { text.append(" · found \(view.found.count)/\(view.foundTotal)") }
        if view.status == .over { text.append(" · game over", TextStyle(colour: .yellow, isBold: true)) }
        if let proposal = view.proposal {
            text.append(
                " · vote \(proposal.votes)/\(proposal.needed)", TextStyle(colour: .yellow, isBold: true))
            if let me, !proposal.voters.contains(me) { text.append(" /new agrees") }
        }
        return text
    }

    private func eventLines(width: Int, count: Int) -> [StyledText] {
        guard count > 0 else { return [] }
        var lines: [StyledText] = []
        for entry in ui.events.reversed() {
            // Continuation lines are indented, so where one event ends and the next starts shows.
            let wrapped = entry.styled.wrapped(to: width - 2).enumerated().map { i, line in
                i == 0 ? line : "  " + line
            }
            lines.insert(contentsOf: wrapped, at: 0)
            if lines.count >= count { break }
        }
        lines = Array(lines.suffix(count))
        while lines.count < count { lines.append(StyledText()) }
        return lines
    }

    private func statusLine(_ width: Int) -> StyledText {
        if let status = ui.status {
            let text = TextRules.sanitized(status.text)  // It may quote the server.
            switch status.kind {
            case .success: return StyledText("✓ " + text, TextStyle(colour: .green, isBold: true))
            case .failure: return StyledText("✗ " + text, TextStyle(colour: .yellow, isBold: true))
            case .info: return StyledText(text)
            }
        }
        if view.room == nil { return StyledText("/join <room> · /rooms · ? for help", .dim) }
        if ui.isWatching { return StyledText("watching · /join to play · /chat · ? help", .dim) }
        if isMatchismo { return StyledText("a letter + Enter turns a card · /chat · ? help", .dim) }
        let n = view.setMode.cardsPerClaim
        return StyledText("\(n) letters + Enter claims · /chat · ? help", .dim)
    }

    /// The input line and the cursor's column, scrolled sideways so the cursor always shows.
    private func inputLine(_ width: Int) -> (StyledText, Int) {
        let characters = ui.editor.characters
        let cursor = ui.editor.cursor
        let room = max(1, width - 3)  // "> " and a free last column for the cursor
        var start = 0
        while start < cursor, TextWidth.columns(String(characters[start..<cursor])) > room { start += 1 }
        var shown = ""
        var used = 0
        for c in characters[start...] {
            let w = TextWidth.columns(c)
            if used + w > room { break }
            shown.append(c)
            used += w
        }
        let line = StyledText("> ", .bold) + StyledText(shown)
        return (line, 2 + TextWidth.columns(String(characters[start..<cursor])))
    }

    private func panelFrame(_ panel: Panel, _ size: TerminalSize) -> Frame {
        let width = size.columns
        let height = Self.panelHeight(size)
        var lines = [
            header(width),
            StyledText(panel.title, TextStyle(isBold: true, isReversed: true)).padded(to: width),
        ]
        let first = max(0, min(panel.scroll, max(0, panel.lines.count - height)))
        let page = panel.lines.dropFirst(first).prefix(height)
        lines += page
        while lines.count < 2 + height { lines.append(StyledText()) }
        let last = first + page.count
        let range = panel.lines.isEmpty ? "" : " · \(first + 1)–\(last) of \(panel.lines.count)"
        lines.append(StyledText("↑ ↓ PgUp PgDn scroll · Esc, q or Enter closes\(range)", .dim))
        lines.append(StyledText("> ", .bold))
        return Frame(lines: lines.map { $0.truncated(to: width) }, cursor: nil)
    }
}
