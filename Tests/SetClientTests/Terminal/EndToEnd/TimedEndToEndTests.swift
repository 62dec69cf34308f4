import Foundation
import SetGame
import SetProtocol
import SetTerminal
import SetTestSupport
import SetTestTraits
import Testing

/// `set-cli` in tmux against a live `setd` in a timed practice game: `--sets 2 --minutes 3 --practice`
/// makes the room, the screen shows the time left and the target, `/pause` hides the cards with the
/// clock standing where the server's `CLOCK` line says, `/unpause` brings them back, and the second set
/// typed ends the game (first to 2).
@Suite(.ownThread, .serialized) struct TimedEndToEndTests {
    @Test(
        "A timed practice room made from set-cli: its clock and target, /pause and /unpause, over at the second set",
        .stretchedTimeLimit(minutes: 2))
    func pausesAndEndsAtTheTarget() throws {
        guard let tmuxPath = Tmux.find() else { return }
        let cli = try productPath("set-cli")
        let daemon = try Daemon()
        defer { daemon.terminate() }
        let room = "e2e-timed"
        let command =
            "env -u NO_COLOR \(cli) --host 127.0.0.1 --port \(daemon.port) --name alice --room \(room)"
            + " --sets 2 --minutes 3 --practice --no-color"
        let tmux = try Tmux(path: tmuxPath, command: command, columns: 100, rows: 30)
        defer { tmux.stop() }
        try tmux.startTheGame()

        let watcher = Watcher(port: daemon.port, room: room)
        defer { watcher.close() }
        #expect(eventually(timeout: 10) { watcher.current.clock != nil })
        let options = watcher.current.options
        #expect(options["practice"] == "on" && options["sets"] == "2" && options["minutes"] == "3")
        try tmux.waitForScreen("the time left, the target and practice") { screen in
            screen[0].contains("\(room) · normal · practice")
                && screen.contains { $0.range(of: #"Time 2:5\d left"#, options: .regularExpression) != nil }
                && screen.contains { $0.contains("First to 2 sets") }
                && screen.contains { $0.contains("/pause stops the clock") }
        }

        // Paused: the cards go, and the clock stands at the play time the server's CLOCK line says.
        try tmux.type("/pause")
        try tmux.press("Enter")
        #expect(eventually(timeout: 10) { watcher.current.isPaused })
        let played = try #require(watcher.current.clock).milliseconds
        let left = GameNight.clock(milliseconds: 180_000 - played) + " left"
        try tmux.waitForScreen("the paused screen at \(left)") { screen in
            screen.contains { $0.contains("Paused · /unpause") }
                && screen.contains { $0.contains("the cards are hidden.") }
                && screen.contains { $0.contains("Time \(left)") }
                && !screen.contains { $0.contains("╭a") }
                && screen.contains { $0.contains("the game is paused: its clock stands") }
        }

        try tmux.type("/unpause")
        try tmux.press("Enter")
        #expect(eventually(timeout: 10) { !watcher.current.isPaused })
        try tmux.waitForScreen("the board back") { screen in
            screen.contains { $0.contains("╭a") } && screen.contains { $0.contains("the game goes on") }
                && !screen.contains { $0.contains("Paused · /unpause") }
        }

        // First to 2: the second set ends the game.
        for taken in 1...2 {
            var claim: [Int] = []
            #expect(
                eventually(timeout: 10) {
                    let cards = watcher.current.setCards
                    guard cards.allSatisfy({ $0 != nil }) else { return false }
                    claim = SetRules.allSets(in: cards.map { $0! }).first ?? []
                    return !claim.isEmpty
                })
            let revision = watcher.current.revision
            // set-cli reads typed letters against the board on its screen (a claim on an older one is
            // STALE, by design): under load its screen can be a board behind the watcher, so the claim
            // is typed once set-cli shows this board (two full runs failed here, the claim lost).
            try tmux.waitForScreen("board #\(revision)") { screen in
                screen.contains {
                    $0.range(of: "board #\(revision)(\\D|$)", options: .regularExpression) != nil
                }
            }
            try tmux.type(claim.map { SetGame.positionName($0) }.joined(separator: " "))
            try tmux.press("Enter")
            #expect(
                eventually(timeout: 10) {
                    watcher.current.revision > revision && watcher.current.players.first?.score == taken
                })
        }
        #expect(eventually(timeout: 10) { watcher.current.status == .over })
        try tmux.waitForScreen("the game over after two sets") { screen in
            screen.contains { $0.contains("Game over: first to 2 sets — score sheet") }
        }
    }
}
