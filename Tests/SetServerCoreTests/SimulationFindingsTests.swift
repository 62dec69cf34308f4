import SetProtocol
import SetTestSupport
import Testing

@testable import SetServerCore

/// What the deterministic simulation found, each kept from coming back.
@Suite struct SimulationFindingsTests {
    /// A token names one player even when the randomness behind it repeats (a seeded generator in the
    /// simulation did, after a restart): the second player gets another token, not the first's seat.
    @Test func aTokenThatWouldRepeatIsDrawnAgain() throws {
        var configuration = ServerConfiguration()
        configuration.isHTTPEnabled = false
        let core = ServerCore(configuration: configuration, random: .repeating([7, 7, 7, 7, 8, 9]))
        let now = Instant(uptime: 1, wall: 1_800_000_000)
        var tokens: [String] = []
        for (id, name) in [(1, "ann"), (2, "bob")] {
            _ = core.connect(id, peer: "127.0.0.1:\(id)", addressKey: "127.0.0.1", at: now)
            let effects = core.handle(.success(.hello(name: name)), from: id, at: now)
            for case .send(_, let bytes) in effects {
                if case .hello(_, let token)? = ServerLine(parsing: String(decoding: bytes.dropLast(), as: UTF8.self)).okDetail {
                    tokens.append(token)
                }
            }
        }
        #expect(tokens.count == 2 && tokens[0] != tokens[1], "\(tokens)")
    }

    /// A core thrown away takes its rooms and players with it (seats and rooms once held each other).
    @Test func aCoreThrownAwayFreesItsRoomsAndPlayers() throws {
        weak var room: Room?
        weak var session: Session?
        do {
            let server = EmbeddedServer()
            _ = try server.player("ann", room: "r")
            _ = try server.player("bob", room: "r")
            room = server.core.rooms["r"]
            session = server.core.sessionsByName["ann"]
            #expect(room != nil && session != nil)
            server.stop()
        }
        #expect(room == nil, "the room outlived its core")
        #expect(session == nil, "the player outlived their core")
    }

    /// A game's rating changes sum to zero, whatever the players' experience (one K per game).
    @Test func aGamesRatingChangesSumToZero() {
        let before = [1500.0, 1732.5, 1210.25]
        let after = RatingBook.rated(before, games: [0, 40, 3], shares: [0.5, 0.3, 0.2])
        #expect(abs(zip(after, before).map { $0 - $1 }.reduce(0, +)) < 1e-9, "\(after)")
        #expect(after != before)
    }
}
