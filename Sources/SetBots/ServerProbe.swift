import Dispatch
import SetSocket

/// One connection made before a fleet starts, so that a server that is not there is one clear line
/// and a quick exit instead of thousands of failed connects counted for the whole run.
enum ServerProbe {
    /// How long the probe waits for the connection, in seconds: a LAN server answers in milliseconds,
    /// and a dropped SYN should not hold the command line for the kernel's minutes of retries.
    static let timeout = 3.0

    /// The state of the one probe connection; touched only on its queue.
    private final class Attempt {
        var channel: SocketChannel?
        var failure: String?
        var isDone = false
        let done = DispatchSemaphore(value: 0)
        /// The channel reads into this; it is never freed, as the channel may hold it until its
        /// source is cancelled, and a process probes once.
        let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)

        func finish(_ failure: String?) {
            guard !isDone else { return }
            isDone = true
            self.failure = failure
            channel?.close()
            channel = nil
            done.signal()
        }
    }

    /// Why `host:port` cannot be reached (`connection refused`, no answer in time), or `nil` when a
    /// connection opened; the connection is closed again at once.
    static func failure(host: String, port: UInt16, timeout: Double = timeout) -> String? {
        let queue = DispatchQueue(label: "set-bench-probe")
        let attempt = QueueConfined(Attempt(), to: queue)
        let done = attempt.sync { $0.done }
        attempt.async { state in
            let socket: Socket
            do {
                socket = try Socket.connect(host: host, port: port)
            } catch {
                state.finish(String(describing: error))
                return
            }
            let channel = SocketChannel(socket: socket, queue: queue, readBuffer: state.readBuffer)
            channel.onConnect = { state.finish(nil) }
            channel.onEnd = { end in state.finish(end.description) }
            state.channel = channel
            channel.startConnecting()
            queue.asyncAfter(deadline: .now() + timeout) {
                attempt.access { $0.finish("no answer after \(Int(timeout)) s") }
            }
        }
        done.wait()
        return attempt.sync { $0.failure }
    }
}
