import SetTestSupport
import SetTestTraits
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Running out of descriptors, with the real kernel (the engine cannot see descriptors): the reserve
/// descriptor answers the waiting client, accepting pauses instead of spinning, the log says so once per
/// interval, and a friend from another address gets an answer at once and a game once the flood is gone.
@Suite(.ownThread, .serialized) struct DescriptorTests {
    @Test(.stretchedTimeLimit(minutes: 1))
    func aFloodOfHalfHeadsAtTheDescriptorLimitNeitherSpinsNorSilencesAFriend()
        throws
    {
        let limit = 64
        let daemon = try Daemon(["--log-level", "info", "--max-clients", "1000"], descriptorLimit: limit)
        let cpuBefore = try #require(cpuSeconds(pid: daemon.child.pid))
        // Far more half-finished heads than descriptors, from one address, all held open.
        var holders: [TestClient] = []
        for n in 0..<(3 * limit) {
            guard let holder = try? TestClient(port: daemon.port, label: "holder\(n)") else { break }
            try? holder.send(bytes: Array("GET / HTTP/1.1\r\n".utf8))
            holders.append(holder)
        }
        pause(2)
        let spent = (cpuSeconds(pid: daemon.child.pid) ?? cpuBefore) - cpuBefore
        print("descriptor flood: \(holders.count) connections, setd used \(spent) s of CPU in about 2 s")
        #expect(spent < 0.5, "accepting pauses rather than spinning: \(spent) s of CPU")
        // A friend from another address is answered at once: a refusal, never silence.
        let friend = try TestClient(port: daemon.port, label: "friend", source: "127.0.0.2")
        let answer = try friend.readLine(timeout: 3)
        #expect(answer.hasPrefix("ERR - FULL"), "\(answer)")
        // Once the flood is gone, the friend plays.
        for holder in holders { holder.close() }
        holders = []
        pause(0.5)
        let back = try TestClient(port: daemon.port, label: "back", source: "127.0.0.2")
        #expect(try back.readLine().hasPrefix("SETD 1 "))
        _ = try back.hello("friend")
        #expect(try back.request("JOIN fun").isOK("JOIN fun"))
        #expect(daemon.terminate() == 0)
        let log = daemon.log
        let lines = log.split(separator: "\n")
        let about = lines.filter { $0.contains("accept-paused") || $0.contains(" refuse ") }
        print("descriptor flood: \(lines.count) log lines, \(about.count) about refusals")
        #expect(about.count < 30, "refusals are logged once per interval with a count:\n\(about.prefix(5))")
        #expect(
            log.contains("needs more descriptors than the \(limit) this process may open"),
            "the start-up says max-clients was lowered")
    }
}
