import Foundation
import SetGame
import SetProtocol
import SetTerminal
import SetTestSupport
import SetTestTraits
import Testing

/// `set-cli` in tmux against a live `setd` with a raw-socket player beside it: the race of a selection
/// against a set taken under it, and a client killed with `kill -9` taking its seat back.
@Suite(.ownThread, .serialized) struct SeatAndRaceTests {
    private static let columns = 100
    private static let rows = 30

    private func letter(_ position: Int) -> String { SetGame.positionName(position) }

    private func cli(_ path: String, port: UInt16, state: String, name: String = "alice") -> String {
        "env -u NO_COLOR XDG_STATE_HOME=\(state) \(path) --host 127.0.0.1 --port \(port) --name \(name) --room e2e --no-color"
    }

    @Test(
        "A set taken under a selection drops its card, the highlight follows, and Enter costs nothing",
        .stretchedTimeLimit(minutes: 2))
    func selectionRace() throws {
        guard let tmuxPath = Tmux.find() else { return }
        let path = try productPath("set-cli")
        let daemon = try Daemon()
        defer { daemon.terminate() }
        let files = try TemporaryDirectory("set-cli-race")
        let tmux = try Tmux(
            path: tmuxPath, command: cli(path, port: daemon.port, state: files.path), columns: Self.columns,
            rows: Self.rows)
        defer { tmux.stop() }
        try tmux.waitForScreen("the joined room") { screen in
            screen.contains { $0.contains("joined e2e") } && screen.contains { $0.contains("Players") }
        }
        try tmux.startTheGame()
        let watcher = Watcher(port: daemon.port, room: "e2e")
        defer { watcher.close() }
        #expect(eventually(timeout: 10) { watcher.current.board.count >= 12 })
        let before = watcher.current
        let set = try #require(before.setsOnBoard.first, "the server dealt a board without a set")
        // Alice picks one card of the set Bob is about to take, and two others.
        let others = before.board.indices.filter { !set.contains($0) }.prefix(2)
        let picked = [set[0]] + others
        let pickedCode = before.setCards[set[0]]!.code
        try tmux.waitForScreen("board #\(before.revision) on screen") {
            $0.contains { $0.contains("board #\(before.revision)") }
        }
        try tmux.type(picked.map(letter).joined(separator: " "))
        try tmux.waitForScreen("three cards highlighted") { $0.joined().filter { $0 == "╔" }.count == 3 }

        // Bob, on a raw socket as nc would be, takes the set: its first card is replaced.
        let bob = try daemon.connect("bob")
        defer { bob.close() }
        #expect(try bob.request("HELLO bob").isOK("HELLO"))
        #expect(try bob.request("JOIN e2e").isOK("JOIN"))
        let taken = try bob.request("CHOOSE " + set.map(letter).joined(separator: " "))
        #expect(taken.isOK("CHOOSE"), "bob's claim: \(taken)")

        let kept = others.map(letter).joined(separator: " ")
        let screen = try tmux.waitForScreen("the dropped card explained") { screen in
            screen.contains {
                $0.contains(
                    "board changed under your selection: \(letter(set[0])) (\(pickedCode)) is gone; kept \(kept)"
                )
            } && screen.last { $0.hasPrefix("> ") }.map { $0.hasPrefix("> \(kept)") } == true
        }
        #expect(screen.joined().filter { $0 == "╔" }.count == 2, "the highlight stays on the kept cards only")
        try tmux.press("Enter")
        try tmux.waitForScreen("the claim refused before it was sent") { screen in
            screen.contains { $0.contains("a claim names 3 cards, not 2") }
        }
        // Nothing reached the server: Bob sees no WRONG, and Alice's score is still 0.
        let heard = try bob.lines(arrivingWithin: 1)
        #expect(!heard.contains { $0.hasPrefix("WRONG alice") }, "bob heard: \(heard)")
        #expect(!watcher.received.contains { $0.hasPrefix("WRONG") })
        #expect(watcher.current.players.first { $0.name == "alice" }?.score == 0)
    }

    @Test(
        "set-cli killed with kill -9 and started again with the same name gets its seat and score back",
        .stretchedTimeLimit(minutes: 2))
    func seatAfterKill() throws {
        guard let tmuxPath = Tmux.find() else { return }
        let path = try productPath("set-cli")
        let daemon = try Daemon()
        defer { daemon.terminate() }
        let files = try TemporaryDirectory("set-cli-seat")
        let command = cli(path, port: daemon.port, state: files.path)
        let tmux = try Tmux(path: tmuxPath, command: command, columns: Self.columns, rows: Self.rows)
        defer { tmux.stop() }
        try tmux.waitForScreen("the joined room") { screen in
            screen.contains { $0.contains("joined e2e") } && screen.contains { $0.contains("Players") }
        }
        try tmux.startTheGame()
        let watcher = Watcher(port: daemon.port, room: "e2e")
        defer { watcher.close() }
        #expect(eventually(timeout: 10) { watcher.current.board.count >= 12 })
        let set = try #require(watcher.current.setsOnBoard.first)
        try tmux.type(set.map(letter).joined())
        try tmux.press("Enter")
        #expect(eventually(timeout: 10) { watcher.current.players.first?.score == 1 })
        let stateDirectory = files.path + "/set-cli"
        #expect(eventually(timeout: 5) { !directoryEntries(stateDirectory).isEmpty })
        #expect(directoryEntries(stateDirectory) == ["alice@127.0.0.1-\(daemon.port)"])

        let pid = try #require(pid_t(try tmux.show("#{pane_pid}")), "set-cli's pid")
        #expect(kill(pid, SIGKILL) == 0)
        #expect(eventually(timeout: 10) { watcher.current.players.first?.isOnline == false })

        // Started again with the same name: RESUME with the kept token, the same seat and score.
        try tmux.respawn(command)
        try tmux.waitForScreen("the seat taken back") { screen in
            screen.contains { $0.contains("back in e2e as alice") }
                && screen.contains { $0.contains("● alice") && $0.hasSuffix(" 1") }
        }
        #expect(watcher.current.players.map(\.name) == ["alice"], "no alice2 beside an away alice")
        #expect(watcher.current.players.first?.isOnline == true)
    }

    @Test(
        "When every fallback name is taken, set-cli says so on one line and exits non-zero",
        .stretchedTimeLimit(minutes: 1))
    func everyNameTaken() throws {
        let path = try productPath("set-cli")
        let daemon = try Daemon()
        defer { daemon.terminate() }
        var holders: [TestClient] = []
        defer { for holder in holders { holder.close() } }
        for name in ["zed"] + (2...9).map({ "zed\($0)" }) {
            let holder = try daemon.connect(name)
            #expect(try holder.request("HELLO \(name)").isOK("HELLO"))
            holders.append(holder)
        }
        let files = try TemporaryDirectory("set-cli-names")
        let child = try Child(
            path, ["--host", "127.0.0.1", "--port", String(daemon.port), "--name", "zed", "--plain"],
            environment: ["XDG_STATE_HOME": files.path])
        let status = child.wait(timeout: 20)
        #expect(status == 1)
        let errors = child.errors(within: 1).split(separator: "\n")
        #expect(
            errors == [
                "set-cli: every name tried is taken on this server (zed … zed9); choose another with --name"
            ])
    }
}
