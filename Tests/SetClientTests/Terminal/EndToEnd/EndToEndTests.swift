import Foundation
import SetProtocol
import SetTerminal
import SetTestSupport
import SetTestTraits
import Testing

/// `set-cli` in a real terminal (tmux) against a live `setd`: keys go in with `send-keys`, the screen
/// comes out with `capture-pane`. Each test starts its own daemon on a free port of 127.0.0.1 and its
/// own tmux server, and stops both; every wait has a deadline.
@Suite(.ownThread, .serialized) struct EndToEndTests {
    private static let columns = 100
    private static let rows = 30

    private func letter(_ position: Int) -> String { String(UnicodeScalar(UInt8(97 + position))) }

    private func code(_ slot: GameView.Slot) -> String {
        if case .set(let card) = slot { return card.code }
        return "?"
    }

    private func trimmed(_ line: some StringProtocol) -> String {
        var line = String(line)
        while line.last == " " { line.removeLast() }
        return line
    }

    /// The command line for tmux; `env -u NO_COLOR` because the test runner may set it, and the
    /// first test checks the colour screen (tmux's capture shows it without the colours).
    private func cliCommand(_ cli: String, port: UInt16, colour: Bool = true) -> String {
        "env -u NO_COLOR \(cli) --host 127.0.0.1 --port \(port) --name alice --room e2e"
            + (colour ? "" : " --no-color")
    }

    private func waitForBoard(_ tmux: Tmux) throws {
        try tmux.waitForScreen("the joined room") { screen in
            screen.first?.hasSuffix("alice") == true && screen.contains { $0.contains("joined e2e") }
                && screen.contains { $0.contains("Players") }
        }
        try tmux.startTheGame()
    }

    @Test(
        "Typing a set's letters claims it: the screen shows the new board and the new score",
        .stretchedTimeLimit(minutes: 2))
    func claimBySetTyping() throws {
        guard let tmuxPath = Tmux.find() else { return }
        let cli = try productPath("set-cli")
        let daemon = try Daemon()
        defer { daemon.terminate() }
        let files = try TemporaryDirectory("set-cli-e2e")
        // The shell writes set-cli's exit status to a file: tmux's own #{pane_dead_status} is not
        // always known in time on a loaded machine.
        let script =
            "\(cliCommand(cli, port: daemon.port)) 2>\(files.path)/stderr; echo $? > \(files.path)/status"
        let tmux = try Tmux(
            path: tmuxPath, command: "sh -c '\(script)'", columns: Self.columns, rows: Self.rows)
        defer { tmux.stop() }
        try waitForBoard(tmux)

        let watcher = Watcher(port: daemon.port, room: "e2e")
        defer { watcher.close() }
        #expect(
            eventually(timeout: 10) {
                watcher.current.board.count >= 12 && watcher.current.players.count == 1
            })
        let before = watcher.current
        try tmux.waitForScreen("board #\(before.revision) on screen") {
            $0.contains { $0.contains("board #\(before.revision)") }
        }
        let set = try #require(before.setsOnBoard.first, "the server dealt a board without a set")

        try tmux.type(set.map(letter).joined(separator: " "))
        try tmux.waitForScreen("the typed cards highlighted") { screen in
            screen.joined().filter { $0 == "╔" }.count == 3 && screen.contains { $0.hasPrefix("> ") }
        }
        try tmux.press("Enter")

        #expect(eventually(timeout: 10) { watcher.current.revision > before.revision })
        let after = watcher.current
        #expect(after.players.first?.score == 1)
        let taken = set.map { code(before.board[$0]) }
        let grid = try #require(
            BoardGrid.make(
                count: after.board.count, isMatchismo: false, isCompact: false,
                maxWidth: Self.columns - ScreenRenderer.sidebarWidth - 2))
        let expectedBoard = grid.lines(after.board, marks: [:], colourLetters: false).map {
            trimmed($0.plainText)
        }
        try tmux.waitForScreen("the new board, the set taken and the score") { screen in
            guard screen.count > expectedBoard.count else { return false }
            let shownBoard = screen[1...expectedBoard.count].map { trimmed($0.prefix(grid.width)) }
            return shownBoard == expectedBoard
                && screen.contains { line in
                    line.contains("alice took ") && taken.allSatisfy { line.contains(" \($0)") }
                }
                && screen.contains { $0.contains("● alice") && $0.hasSuffix(" 1") }
                && screen.contains { $0.contains("board #\(after.revision)") }
                && screen.contains { $0.contains("Deck \(after.deckCount)") }
        }

        try tmux.type("/quit")
        try tmux.press("Enter")
        #expect(eventually(timeout: 10) { files.read("status") != nil })
        #expect(files.read("status") == "0\n", "set-cli's standard error: \(files.read("stderr") ?? "")")
        // The alternate screen is gone: the board is no longer on the terminal.
        #expect(try !tmux.screen().contains { $0.contains("Players") })
    }

    @Test(
        "A dropped connection is shown and made again (RESUME keeps the seat), and SIGTERM restores the terminal",
        .stretchedTimeLimit(minutes: 2))
    func dropsReconnectsAndRestores() throws {
        guard let tmuxPath = Tmux.find() else { return }
        let cli = try productPath("set-cli")
        let files = try TemporaryDirectory("set-cli-e2e")
        var daemon = try Daemon()
        defer { daemon.terminate() }
        let d = files.path
        let script =
            "stty -g > \(d)/before; \(cliCommand(cli, port: daemon.port, colour: false)); "
            + "echo $? > \(d)/status; stty -g > \(d)/after"
        let tmux = try Tmux(
            path: tmuxPath, command: "sh -c '\(script)'", columns: Self.columns, rows: Self.rows)
        defer { tmux.stop() }
        try waitForBoard(tmux)

        // Take a set so there is a score to keep.
        let watcher = Watcher(port: daemon.port, room: "e2e")
        #expect(eventually(timeout: 10) { watcher.current.board.count >= 12 })
        let set = try #require(watcher.current.setsOnBoard.first)
        try tmux.type(set.map(letter).joined())
        try tmux.press("Enter")
        #expect(eventually(timeout: 10) { watcher.current.players.first?.score == 1 })
        watcher.close()

        // /reconnect drops the connection; RESUME brings back the same seat and score.
        try tmux.type("/reconnect")
        try tmux.press("Enter")
        try tmux.waitForScreen("the seat resumed") { screen in
            screen.contains { $0.contains("back in e2e as alice") }
                && screen.contains { $0.contains("● alice") && $0.hasSuffix(" 1") }
        }

        // The server goes away: the client says so and keeps trying.
        daemon.kill9()
        try tmux.waitForScreen("the lost connection") { screen in
            screen.first?.contains("connection lost") == true
                && screen.contains { $0.contains("connection lost:") }
        }
        // It comes back on the same port (with no memory of the seat): the client joins again.
        daemon = try Daemon(port: daemon.port)
        try tmux.waitForScreen("the new connection", timeout: 15) { screen in
            screen.first?.hasSuffix("alice") == true
                && screen.contains { $0.contains("your old seat is gone") }
                && screen.contains { $0.contains("● alice") && $0.hasSuffix(" 0") }
        }

        // SIGTERM: the client leaves cleanly and the terminal settings are as before.
        let shell = try tmux.show("#{pane_pid}")
        let pid = try #require(
            descendant(of: pid_t(shell) ?? 0, named: "set-cli"), "set-cli's pid under \(shell)")
        #expect(kill(pid, SIGTERM) == 0)
        #expect(eventually(timeout: 10) { files.read("after") != nil })
        let before = files.read("before") ?? ""
        #expect(!before.isEmpty && before == files.read("after"), "stty -g before and after set-cli")
        #expect(files.read("status") == "0\n")
        #expect(try !tmux.screen().contains { $0.contains("Players") })
    }
}
