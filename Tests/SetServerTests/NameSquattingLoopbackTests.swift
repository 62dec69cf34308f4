import Foundation
import SetTestSupport
import SetTestTraits
import Testing

/// Issue 23's second attack, replayed against the daemon over loopback: 3,000 names claimed from one
/// address in under a second grew the journal from 2.7 KB to 309 KB. Now three claims an hour pass.
@Suite(.ownThread) struct NameSquattingLoopbackTests {
    @Test func threeThousandClaimsFromOneAddressMakeThreeAndTheJournalStaysSmall() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let state = directory.path + "/state"
        let daemon = try Daemon(["--no-http", "--state-dir", state])
        defer { _ = daemon.terminate() }
        let before = try journalBytes(state)
        // 30 connections from 127.0.0.5, each pipelining 100 claims of names nobody has.
        var squatters: [TestClient] = []
        for index in 0..<30 {
            let squatter = try TestClient(port: daemon.port, label: "squatter\(index)", source: "127.0.0.5")
            #expect(try squatter.readLine().hasPrefix("SETD 1 "))
            try squatter.send(lines: (0..<100).map { "HELLO n\(index * 100 + $0) key=k" })
            squatters.append(squatter)
        }
        var answers: [String: Int] = [:]
        for squatter in squatters {
            for _ in 0..<100 {
                let final = try squatter.readReply().final.split(separator: " ")
                answers[final.count > 2 ? "\(final[0]) \(final[2])" : "\(final[0])", default: 0] += 1
            }
        }
        // A connection whose claim passed has a name: its later lines are ALREADY, not claims.
        let claimed = answers.filter { $0.key.hasPrefix("OK ") }.values.reduce(0, +)
        #expect(claimed == 3, "\(answers)")
        #expect(
            answers["ERR BACKOFF", default: 0] + answers["ERR ALREADY", default: 0] == 2_997, "\(answers)")
        // Another address still claims.
        let friend = try TestClient(port: daemon.port, label: "friend", source: "127.0.0.6")
        #expect(try friend.readLine().hasPrefix("SETD 1 "))
        #expect(try friend.request("HELLO friend key=k").isOK("HELLO friend"))
        #expect(daemon.terminate() == 0)
        let after = try journalBytes(state)
        #expect(after - before < 1_500, "the journal grew by \(after - before) bytes")
        print("name squatting over loopback: \(answers); journal \(before) → \(after) bytes")
    }

    /// The journal's bytes (without the disk reserved past its end).
    private func journalBytes(_ state: String) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: state + "/journal"))
        return data.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    }
}
