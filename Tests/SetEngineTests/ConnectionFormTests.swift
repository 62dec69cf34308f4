import SetServerCore
import SetTestSupport
import Testing

@testable import SetEngine

/// The engine's side of a connection, which every idle player holds, fits one 176-byte block of
/// malloc's, and its times and counts read back as set.
@Suite struct ConnectionFormTests {
    func makeConnection() -> Connection {
        Connection(
            id: 1, peer: PeerAddress("192.168.1.20:50123"), mode: .lineProtocol,
            limiter: RateLimiter(RateLimit(rate: 10, burst: 20)), at: 0)
    }

    @Test func aConnectionIsOneSmallBlock() {
        #expect(heapBlockSize(ofInstancesOf: Connection.self) <= 168)
    }

    @Test func itsClosingTimeReadsBackAsSet() {
        let connection = makeConnection()
        #expect(connection.closingSince == nil)
        connection.mode = .closing
        for time in [0.0, 12.5, -3, .infinity] {
            connection.closingSince = time
            #expect(connection.closingSince == time)
        }
        connection.closingSince = nil
        #expect(connection.closingSince == nil)
    }

    /// The sniff deadline and the closing time share a field: a sniffing connection has no closing time,
    /// and one that closes reads the time it began closing, not its old deadline.
    @Test func aSniffDeadlineIsNeverAClosingTime() {
        let connection = makeConnection()
        connection.mode = .sniffing(held: [])
        connection.sniffDeadline = 30.5
        #expect(connection.sniffDeadline == 30.5)
        #expect(connection.closingSince == nil)
        connection.mode = .closing
        connection.closingSince = 31
        #expect(connection.closingSince == 31)
        connection.closingSince = nil
        #expect(connection.closingSince == nil)
    }

    @Test(arguments: [0, 1, 1 << 20, 3 << 30])
    func itsOutputCountsReadBackAsSet(bytes: Int) {
        let connection = makeConnection()
        connection.queued = bytes
        connection.backlog = bytes + 1
        #expect(connection.queued == bytes)
        #expect(connection.backlog == bytes + 1)
    }

    /// A count past 32 bits (which the output cap never lets happen) reads back as more than any cap,
    /// not wrapped to a small one.
    @Test func anOutputCountPast32BitsStaysLarge() {
        let connection = makeConnection()
        connection.queued = 1 << 40
        #expect(connection.queued >= Int(UInt32.max))
    }
}
