import SetServerCore
import SetTestSupport
import Testing

@testable import SetEngine

/// The engine's side of a connection, which every idle player holds, fits one 192-byte block of
/// malloc's, and its closing time reads back as set.
@Suite struct ConnectionFormTests {
    func makeConnection() -> Connection {
        Connection(
            id: 1, peer: PeerAddress("192.168.1.20:50123"), mode: .lineProtocol,
            limiter: RateLimiter(RateLimit(rate: 10, burst: 20)), at: 0)
    }

    @Test func aConnectionIsOneSmallBlock() {
        #expect(heapBlockSize(of: makeConnection()) <= 184)
    }

    @Test func itsClosingTimeReadsBackAsSet() {
        let connection = makeConnection()
        #expect(connection.closingSince == nil)
        for time in [0.0, 12.5, -3, .infinity] {
            connection.closingSince = time
            #expect(connection.closingSince == time)
        }
        connection.closingSince = nil
        #expect(connection.closingSince == nil)
    }
}
