import Dispatch
import Foundation
import SetProtocol
import SetSocket

/// `set-cli --replay <id>`: fetches the record with `RECORD <id>` and shows it, step by step with the
/// keyboard on a terminal (space or → next, ← back, Home, End, q quit), or every step as plain lines
/// with `--plain` (or when standard output is not a terminal).
public enum ReplayViewer {
    /// How long the server may take to answer, connection included.
    static let fetchTimeout = 10.0

    /// Why a record could not be had.
    public struct Failure: Error, CustomStringConvertible {
        /// The reason, for the one line set-cli prints.
        public var description: String
    }

    /// The record's JSON from `RECORD <id>` on `host`:`port`.
    public static func fetch(id: String, host: String, port: UInt16) -> Result<String, Failure> {
        let queue = DispatchQueue(label: "set-cli.replay")
        let done = DispatchSemaphore(value: 0)
        // Written on `queue` only, read after `done` is signalled.
        nonisolated(unsafe) var answer: Result<String, Failure>?
        nonisolated(unsafe) var connection: ServerConnection?
        queue.async {
            connection = ServerConnection(queue: queue) { event in
                guard answer == nil else { return }
                switch event {
                case .connected:
                    connection?.send("RECORD \(id)")
                case .line(.ok(verb: "RECORD", let json)):
                    answer = .success(json)
                case .line(.err(verb: "RECORD", let code, let text)):
                    answer = .failure(
                        Failure(description: "the server has no game \(id) (\(code.rawValue): \(text))"))
                case .line:
                    return
                case .closed(let reason):
                    answer = .failure(
                        Failure(description: "cannot read game \(id) from \(host):\(port): \(reason)"))
                }
                if answer != nil {
                    connection?.close()
                    done.signal()
                }
            }
            connection?.open(host: host, port: port)
        }
        if done.wait(timeout: .now() + fetchTimeout) == .timedOut {
            return queue.sync {
                answer =
                    answer ?? .failure(Failure(description: "no answer from \(host):\(port) for game \(id)"))
                connection?.close()
                return answer!
            }
        }
        return queue.sync { answer! }
    }

    /// Runs the viewer for `options` (`replayID` set); returns the exit status.
    public static func run(_ options: CLIOptions, isTerminal: Bool) -> Int32 {
        guard let id = options.replayID else { return 2 }
        let json: String
        switch fetch(id: id, host: options.host, port: options.port) {
        case .success(let text): json = text
        case .failure(let failure):
            TerminalDevice.write("set-cli: \(failure)\n", to: STDERR_FILENO)
            return 1
        }
        guard let replay = GameRecordReplay(json: json) else {
            TerminalDevice.write(
                "set-cli: game \(id)'s record is not one this set-cli can replay\n", to: STDERR_FILENO)
            return 1
        }
        if options.isPlain || !isTerminal || !TerminalDevice.enterFullScreen() {
            for index in replay.steps.indices {
                TerminalDevice.write(replay.plainLines(at: index).joined(separator: "\n") + "\n")
            }
            return 0
        }
        defer { TerminalDevice.restore() }
        var index = 0
        var decoder = KeyDecoder()
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let width = TerminalDevice.size()?.columns ?? 80
            let screen = replay.screen(at: index, width: width)
                .map { $0.rendered(colour: options.isColour) + "\u{1B}[K" }
            TerminalDevice.write("\u{1B}[H\u{1B}[2J" + screen.joined(separator: "\r\n"))
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            guard count > 0 else { return 0 }
            for key in decoder.decode(Array(buffer[..<count])) {
                switch key {
                case .character(" "), .right, .enter, .character("n"):
                    index = min(index + 1, replay.steps.count - 1)
                case .left, .backspace, .character("p"): index = max(index - 1, 0)
                case .home: index = 0
                case .end: index = replay.steps.count - 1
                case .character("q"), .escape, .control("c"), .control("d"): return 0
                default: continue
                }
            }
        }
    }
}
