import Foundation
import SetTestSupport
import SetTestTraits
import Testing

/// The real `telnet` typed into in tmux, with an `nc` player beside it who never gets a telnet byte.
/// Needs the kernel and real processes: the programs people use, over a real socket. (PuTTY's bytes
/// replayed, and split byte by byte, are SetEngineTests' TelnetTests, in memory.)
@Suite(.ownThread) struct TelnetTests {
    /// `telnet` negotiates on port 23, or on another one written `-PORT` (as PuTTY and Windows' telnet
    /// always do); `telnet HOST PORT` sends no option and is a line client like nc.
    @Test(.stretchedTimeLimit(minutes: 1), arguments: [true, false])
    func theRealTelnetClientJoinsAndNcSeesNoTelnet(negotiating: Bool) throws {
        guard let tmux = Self.program("tmux"), let telnet = Self.program("telnet"),
            let nc = Self.program("nc")
        else { return }
        let daemon = try Daemon(["--log-level", "debug"])
        defer { daemon.terminate() }
        let port = negotiating ? "-\(daemon.port)" : "\(daemon.port)"
        let terminal = try Terminal(tmux: tmux, command: "\(telnet) -- 127.0.0.1 \(port)")
        defer { terminal.stop() }
        try terminal.waitFor("the greeting") { $0.contains { $0.hasPrefix("SETD 1 ") } }
        try terminal.typeLine("HELLO ann")
        try terminal.waitFor("OK HELLO") { $0.contains { $0.hasPrefix("OK HELLO ann ") } }
        try terminal.typeLine("JOIN fun")
        let screen = try terminal.waitFor("the snapshot") { $0.contains { $0.hasPrefix("OK JOIN fun ") } }
        #expect(screen.contains("ROOM fun set 1 playing"), "\(screen)")
        #expect(screen.contains { $0.hasPrefix("BOARD 1 ") } && screen.contains("PLAYER ann 0 online"))
        #expect(
            !screen.contains { $0.hasPrefix("ERR") }, "telnet's negotiation was taken for a line: \(screen)")

        // nc, in the same room, gets exactly the lines it always got: no IAC, nothing but lines.
        let files = try TemporaryDirectory("setd-telnet")
        let script =
            "printf 'HELLO bob\\nJOIN fun\\nQUIT\\n' | \(nc) -N 127.0.0.1 \(daemon.port) > \(files.path)/out"
        try Child.run("/bin/sh", ["-c", script], timeout: 20)
        let output = [UInt8](FileManager.default.contents(atPath: files.path + "/out") ?? Data())
        #expect(!output.contains(255), "nc got a telnet byte")
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(output.last == 10)
        let shape: [(String) -> Bool] = [
            { $0.hasPrefix("SETD 1 ") }, { $0.hasPrefix("OK HELLO bob ") },
            { $0 == "ROOM fun set 2 playing" },
            { $0.hasPrefix("OPTIONS ") }, { $0.hasPrefix("BOARD 1 ") }, { $0.hasPrefix("DECK ") },
            { $0 == "PLAYER ann 0 online" }, { $0 == "PLAYER bob 0 online" }, { $0 == "HOST ann" },
            { $0.hasPrefix("STARTED ") }, { $0.hasPrefix("OK JOIN fun ") },
            { $0 == "OK QUIT" },
        ]
        #expect(lines.count == shape.count && zip(lines, shape).allSatisfy { $1($0) }, "nc got \(lines)")
        // And the telnet user saw bob come and go.
        try terminal.waitFor("bob in the room") { $0.contains("PLAYER bob 0 online") }
        // telnet negotiated (a dozen options) when asked to, and was refused; nc never was.
        if negotiating {
            #expect(eventually(timeout: 5) { daemon.log.contains(" telnet id=1 refused=") }, "\(daemon.log)")
        }
        #expect(daemon.log.contains(" telnet id=1 ") == negotiating, "\(daemon.log)")
        #expect(!daemon.log.contains(" telnet id=2 "), "\(daemon.log)")
    }

    /// The program, or a recorded failure saying how to get it: the test never skips silently.
    private static func program(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String?
    {
        guard let path = programOnPath(name) else {
            let why =
                "\(name) is not installed; the telnet test needs tmux, telnet and nc"
                + " (`apt-get install tmux telnet netcat-openbsd`; .ci/run installs them)"
            Issue.record(Comment(rawValue: why), sourceLocation: sourceLocation)
            return nil
        }
        return path
    }
}

/// A program in a detached tmux session of our own (its own socket, no config file): keys in, screen out.
private final class Terminal {
    let tmux: String
    let socket = "setd-telnet-\(getpid())-\(UUID().uuidString.prefix(8))"

    init(tmux: String, command: String) throws {
        self.tmux = tmux
        let result = try run(["new-session", "-d", "-s", "t", "-x", "120", "-y", "40", command])
        guard result.status == 0 else {
            throw ClientError(description: "tmux new-session failed with status \(result.status)")
        }
    }

    /// Types `text` and presses Enter.
    func typeLine(_ text: String) throws {
        try run(["send-keys", "-t", "t", "-l", text])
        try run(["send-keys", "-t", "t", "Enter"])
    }

    /// Waits until the screen's rows, without trailing spaces, satisfy `condition`; throws with the screen.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 10, _ condition: ([String]) -> Bool) throws -> [String] {
        var screen: [String] = []
        let held = try eventually(timeout: timeout * testTimeScale, every: 0.05) {
            screen = try run(["capture-pane", "-p", "-t", "t"]).output.split(separator: "\n").map {
                String($0.reversed().drop { $0 == " " }.reversed())
            }
            return condition(screen)
        }
        guard held else {
            throw ClientError(
                description: "timed out waiting for \(what); the screen:\n" + screen.joined(separator: "\n"))
        }
        return screen
    }

    func stop() { _ = try? run(["kill-server"]) }

    deinit { stop() }

    @discardableResult
    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try Child.run(
            tmux, ["-u", "-L", socket, "-f", "/dev/null"] + arguments, environment: ["LANG": "C.UTF-8"])
    }
}
