/// A browser's WebSocket to an ``EmbeddedServer``, in memory.
public typealias EmbeddedWebSocketClient = WebSocketClient<EmbeddedClient>

extension EmbeddedClient {
    /// Says "no more from me" (a FIN) while still reading, as `shutdown(SHUT_WR)` does: the shell reads
    /// the end of file and closes the connection, and the client reads what had arrived, then the end.
    public func shutDownWriting() {
        guard state == .open else { return }
        close()
        state = .closed
    }

    /// Sends `bytes` in writes of at most `size` bytes each, as a socket delivers a long stream: one
    /// input to the engine per piece. Stops (without throwing) once the server has closed the
    /// connection, and returns how many bytes went in.
    @discardableResult
    public func send(bytes: [UInt8], inPiecesOf size: Int) throws -> Int {
        precondition(size > 0, "a piece holds at least one byte")
        var sent = 0
        while sent < bytes.count, state == .open {
            let end = min(sent + size, bytes.count)
            try send(bytes: Array(bytes[sent..<end]))
            sent = end
        }
        return sent
    }
}
