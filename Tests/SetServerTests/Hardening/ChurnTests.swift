import SetTestSupport
import SetTestTraits
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Thousands of connections that come and go abruptly: nothing may stay behind.
/// Needs the kernel: connections reset (`SO_LINGER` 0) before and after their greeting, and the
/// descriptors and memory the daemon keeps for them, are the kernel's and the shell's, not the engine's.
@Suite(.ownThread) struct ChurnTests {
    /// Opens `count` connections in batches and resets each (`SO_LINGER` 0), half of them before the
    /// greeting arrives and half after; returns how many were greeted.
    private func churn(_ server: TestServer, count: Int, deadline: Double) throws -> Int {
        var done = 0
        var greeted = 0
        while done < count {
            try #require(monotonicNow() < deadline, "churn too slow: \(done) of \(count) connections")
            let batch = min(100, count - done)
            var sockets: [RawClient] = []
            for _ in 0..<batch { sockets.append(try RawClient(port: server.port)) }
            for (index, socket) in sockets.enumerated() {
                if index % 2 == 1, socket.awaitBytes(timeout: 5) { greeted += 1 }
                socket.reset()
            }
            done += batch
        }
        return greeted
    }

    @Test(.stretchedTimeLimit(minutes: 3))
    func twoThousandResetConnectionsLeaveNoConnectionsDescriptorsOrMemory()
        throws
    {
        let server = try TestServer()
        defer { server.stop() }
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)
        let deadline = monotonicNow() + 30

        // A first round warms up whatever the process caches (allocator arenas, dispatch's threads).
        _ = try churn(server, count: 500, deadline: deadline)
        baseline.expectRestored("after the warm-up churn")
        let memoryBefore = residentMemoryBytes()
        let start = monotonicNow()
        let greeted = try churn(server, count: 2_000, deadline: deadline)
        let elapsed = monotonicNow() - start
        #expect(greeted == 1_000, "every connection that waited for the greeting got it")
        baseline.expectRestored("after 2,000 resets in \(elapsed) s")
        let growth = residentMemoryBytes() - memoryBefore
        #expect(growth < 50 << 20, "resident memory grew \(growth >> 20) MiB over 2,000 connections")
        try bystander.expectUndisturbed("after 2,000 resets")
        // The listener still takes new connections.
        let (fresh, _) = try server.named("fresh")
        #expect(try fresh.request("PING").final == "OK PING")
    }
}
