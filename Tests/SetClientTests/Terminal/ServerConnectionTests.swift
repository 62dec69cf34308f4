import Dispatch
import Foundation
import SetProtocol
import SetSocket
import SetTerminal
import SetTestTraits
import Testing

/// `ServerConnection` over loopback against a bare listening socket: the connect lifecycle that
/// `SocketChannel.startConnecting()` owns.
@Suite(.ownThread) struct ServerConnectionTests {
    /// The events of one connection, kept on its queue.
    final class Recorder: @unchecked Sendable {
        let queue = DispatchQueue(label: "server-connection-test")
        private var events: [String] = []

        func record(_ event: ServerConnection.Event) {
            switch event {
            case .connected: events.append("connected")
            case .line(let line): events.append("line \(line.text)")
            case .closed(let reason): events.append("closed \(reason)")
            }
        }

        var recorded: [String] { queue.sync { events } }

        func waitFor(_ predicate: ([String]) -> Bool) -> Bool {
            for _ in 0..<100 {
                if predicate(recorded) { return true }
                usleep(50_000)
            }
            return predicate(recorded)
        }
    }

    @Test("Connecting to a port nobody listens on ends with the connect error, once")
    func refused() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let port = listener.localPort
        listener.close()
        let recorder = Recorder()
        let connection = ServerConnection(queue: recorder.queue) { recorder.record($0) }
        recorder.queue.sync {
            connection.open(host: "127.0.0.1", port: port)
            connection.send("HELLO nobody")
        }
        #expect(recorder.waitFor { !$0.isEmpty })
        usleep(100_000)
        #expect(recorder.recorded == ["closed connect: Connection refused"])
    }

    @Test("Lines sent while connecting leave once connected; the server closing is reported as such")
    func queuedWhileConnecting() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let recorder = Recorder()
        let connection = ServerConnection(queue: recorder.queue) { recorder.record($0) }
        recorder.queue.sync {
            connection.open(host: "127.0.0.1", port: listener.localPort)
            connection.send("HELLO ann")
        }
        var accepted: Socket?
        for _ in 0..<100 where accepted == nil {
            accepted = try listener.accept()?.0
            if accepted == nil { usleep(20_000) }
        }
        let server = try #require(accepted)
        defer { server.close() }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        for _ in 0..<100 where !received.contains(0x0A) {
            let transfer = try buffer.withUnsafeMutableBytes { try server.read(into: $0) }
            if case .bytes(let n) = transfer { received += buffer[..<n] } else { usleep(20_000) }
        }
        #expect(String(decoding: received, as: UTF8.self) == "HELLO ann\n")
        let welcome = Array("WELCOME ann\n".utf8)
        _ = try welcome.withUnsafeBytes { try server.write($0) }
        server.shutdownWrite()
        #expect(recorder.waitFor { $0.count == 3 })
        #expect(
            recorder.recorded == ["connected", "line WELCOME ann", "closed the server closed the connection"])
        #expect(recorder.queue.sync { connection.isDrained })
    }
}
