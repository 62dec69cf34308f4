import Dispatch
import SetProtocol
import SetTerminal

/// A spectator connection (`WATCH`) that keeps a ``GameView`` of a room, so an end-to-end test knows
/// the board the player sees without parsing the screen.
final class Watcher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "e2e-watcher")
    private var connection: ServerConnection?
    private var view = GameView()
    private var lines: [String] = []

    /// Connects to 127.0.0.1:`port` and watches `room`.
    init(port: UInt16, room: String) {
        queue.sync {
            let connection = ServerConnection(queue: queue) { [weak self] event in
                guard let self else { return }
                switch event {
                case .connected: self.connection?.send("WATCH \(room)")
                case .line(let line):
                    self.lines.append(line.text)
                    self.view.apply(line)
                case .closed: break
                }
            }
            self.connection = connection
            connection.open(host: "127.0.0.1", port: port)
        }
    }

    /// The view as of now.
    var current: GameView { queue.sync { view } }

    /// Every line received so far.
    var received: [String] { queue.sync { lines } }

    /// Closes the connection.
    func close() { queue.sync { connection?.close() } }

    deinit { close() }
}
