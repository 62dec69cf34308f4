import Foundation
import SetTestSupport
import Testing

/// A tmux server of our own (its own socket, no config file) with one detached session, so a test
/// can type into a terminal program and read its screen.
final class Tmux: Sendable {
    let path: String
    let socket = "setd-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
    let session = "e2e"

    /// Starts `command` in a detached session of `columns`×`rows`; the pane stays after the command
    /// ends so its exit status can be read.
    init(path: String, command: String, columns: Int, rows: Int) throws {
        self.path = path
        let result = try run(
            [
                "-u", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", session, "-x",
                String(columns), "-y",
                String(rows), command, ";", "set-option", "-t", session, "remain-on-exit", "on",
            ])
        guard result.status == 0 else {
            throw ClientError(description: "tmux new-session failed with status \(result.status)")
        }
    }

    /// The tmux program, or a recorded failure saying how to get it: the test never skips silently.
    static func find(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        guard let path = programOnPath("tmux") else {
            Issue.record(
                "tmux is not installed; the end-to-end test needs it (`apt-get install tmux`; .ci/run installs it)",
                sourceLocation: sourceLocation)
            return nil
        }
        return path
    }

    /// Types text literally, as keystrokes.
    func type(_ text: String) throws {
        try run(["-L", socket, "send-keys", "-t", session, "-l", text])
    }

    /// Presses named keys (`Enter`, `Escape`, `C-c`).
    func press(_ keys: String...) throws {
        try run(["-L", socket, "send-keys", "-t", session] + keys)
    }

    /// The screen as text, one string per row.
    func screen() throws -> [String] {
        try run(["-u", "-L", socket, "capture-pane", "-p", "-t", session]).output
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A tmux format evaluated for the pane, e.g. `#{pane_dead}`.
    func show(_ format: String) throws -> String {
        try run(["-L", socket, "display-message", "-p", "-t", session, format]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the screen satisfies `condition`; on timeout records the screen in the failure.
    @discardableResult
    func waitForScreen(
        _ what: String, timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: ([String]) -> Bool
    ) throws -> [String] {
        var last: [String] = []
        let held = try eventually(timeout: timeout, every: 0.05) {
            last = try screen()
            return condition(last)
        }
        if !held {
            Issue.record(
                "timed out waiting for \(what); the screen was:\n\(last.joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        }
        return last
    }

    /// Runs tmux with `arguments` in a UTF-8 locale, which the server and the programs in it inherit.
    @discardableResult
    private func run(_ arguments: [String], timeout: Double = 10) throws -> (status: Int32, output: String) {
        try Child.run(path, arguments, environment: ["LANG": "C.UTF-8"], timeout: timeout)
    }

    /// Starts `command` again in the pane, killing what runs there.
    func respawn(_ command: String) throws {
        try run(["-L", socket, "respawn-pane", "-k", "-t", session, command])
    }

    /// Ends the tmux server and everything in it.
    func stop() {
        _ = try? run(["-L", socket, "kill-server"], timeout: 5)
    }

    deinit { stop() }
}

extension Tmux {
    /// set-cli makes its rooms `start=ready`: alone in the room it is the host, so it starts the game
    /// with `/start` and waits out the countdown until the board is dealt.
    func startTheGame(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try waitForScreen("the waiting room", sourceLocation: sourceLocation) { screen in
            screen.contains { $0.contains("You are the host: /start starts now.") }
        }
        try type("/start")
        try press("Enter")
        try waitForScreen("the deal after the countdown", sourceLocation: sourceLocation) { screen in
            !screen.contains { $0.contains("/start starts now") || $0.contains(" · waiting") }
        }
    }
}
