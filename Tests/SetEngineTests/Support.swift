import SetTestSupport
import Testing

/// A well-behaved player alone in a room of its own while something else goes on in other rooms: its
/// game must not change, and it must be answered.
struct Bystander {
    let client: EmbeddedClient
    let board: String
    let deck: String

    init(on server: EmbeddedServer, room: String = "calm") throws {
        let (client, join) = try server.player("calm", room: room)
        self.client = client
        board = try #require(join.lines.first { $0.hasPrefix("BOARD ") })
        deck = try #require(join.lines.first { $0.hasPrefix("DECK ") })
    }

    /// Checks that a `PING` is answered at once (in memory: before any time passes) and that the board
    /// and deck are as they were.
    func expectUndisturbed(_ context: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        client.discardAvailable()
        let ping = try client.request("PING")
        #expect(ping.final == "OK PING", "\(context): \(ping)", sourceLocation: sourceLocation)
        let state = try client.request("STATE")
        #expect(
            state.lines.contains(board), "\(context): board changed: \(state)", sourceLocation: sourceLocation
        )
        #expect(
            state.lines.contains(deck), "\(context): deck changed: \(state)", sourceLocation: sourceLocation)
        #expect(
            state.lines.contains("PLAYER calm 0 online"), "\(context): \(state)",
            sourceLocation: sourceLocation)
    }
}

/// The connections a server holds before a test abuses it, to check it returns to exactly that
/// afterwards. (That the daemon's descriptors come back too is the shell's part: `ChurnTests`.)
struct Baseline {
    let server: EmbeddedServer
    let connections: Int

    init(_ server: EmbeddedServer) {
        self.server = server
        connections = server.connectionCount
    }

    /// Checks the engine holds exactly the connections it held at the baseline.
    func expectRestored(_ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            server.connectionCount == connections,
            "\(context): \(server.connectionCount) connections, \(connections) before",
            sourceLocation: sourceLocation)
    }
}
