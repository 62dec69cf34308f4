import Foundation
import SetTestSupport
import SetTestTraits
import Testing

/// Issue 23's attacks on names and seats, replayed against the daemon over loopback from other loopback
/// addresses: an old token, a rated name claimed by a stranger across restarts, and secrets in the
/// journal.
@Suite(.ownThread) struct IdentityLoopbackTests {
    /// Connects from `source` and checks the greeting.
    private func connect(_ daemon: Daemon, _ label: String, from source: String = "127.0.0.1") throws
        -> TestClient
    {
        let client = try TestClient(port: daemon.port, label: label, source: source)
        _ = try client.expect(prefix: "SETD 1 ")
        return client
    }

    @Test func aTokenSeenOnceTakesNothingAfterItsOwnersResumeAndTheOwnerIsTold() throws {
        let directory = try TemporaryDirectory("setd-tokens")
        defer { directory.remove() }
        let arguments = ["--no-http", "--state-dir", directory.path + "/state"]
        var daemon = try Daemon(arguments)
        defer { _ = daemon.terminate() }
        let ann = try connect(daemon, "ann")
        let seen = try ann.hello("ann")  // on a shared screen: someone wrote it down
        #expect(try ann.request("JOIN den").isOK("JOIN den"))
        ann.close()
        let back = try connect(daemon, "ann-back")
        let resumed = try back.request("RESUME \(seen)")
        #expect(resumed.isOK("RESUME ann den"), "\(resumed)")
        let fresh = try #require(resumed.newToken)
        let thief = try connect(daemon, "thief", from: "127.0.0.66")
        let refused = try thief.request("RESUME \(seen)")
        #expect(refused.error == .badToken && refused.final.contains("replaced"), "\(refused)")
        #expect(try back.expect(prefix: "NOTICE ").line.contains("127.0.0.66"))
        #expect(try back.request("STATE").isOK("STATE"), "ann still holds the seat")
        // A restart keeps the rotation: the old token is still retired, the new one works.
        #expect(daemon.terminate() == 0)
        daemon = try Daemon(arguments)
        #expect(
            try connect(daemon, "thief2", from: "127.0.0.66").request("RESUME \(seen)").error == .badToken)
        #expect(try connect(daemon, "ann3").request("RESUME \(fresh)").isOK("RESUME ann den"))
    }

    @Test func aRatedNameIsNotAStrangersToClaimEvenAfterARestart() throws {
        let directory = try TemporaryDirectory("setd-rated")
        defer { directory.remove() }
        let arguments = ["--no-http", "--state-dir", directory.path + "/state", "--seed", "3"]
        var daemon = try Daemon(arguments)
        defer { _ = daemon.terminate() }
        let alice = try connect(daemon, "alice")
        _ = try alice.hello("alice")
        let join = try alice.request("JOIN rated")
        let bob = try connect(daemon, "bob")
        _ = try bob.hello("bob")
        #expect(try bob.request("JOIN rated").isOK("JOIN rated"))
        _ = try alice.expect(prefix: "ROOM rated set 2")
        _ = try alice.playToTheEnd(from: join.lines)
        #expect(try alice.request("QUIT").final == "OK QUIT")
        #expect(daemon.terminate() == 0)
        daemon = try Daemon(arguments)
        let stranger = try connect(daemon, "stranger", from: "127.0.0.7")
        #expect(try stranger.request("STATS alice").lines.count == 1, "alice's rating came back")
        let refused = try stranger.request("HELLO alice key=mine")
        #expect(refused.error == .denied && refused.final.contains("has a rating"), "\(refused)")
        // alice, back without a key, plays as herself and claims her name while she does.
        let back = try connect(daemon, "alice-back")
        _ = try back.hello("alice")
        #expect(try back.request("HELLO alice key=s3cret").isOK("HELLO alice"))
    }

    @Test func keysAndPasswordsAreNotInTheJournal() throws {
        let directory = try TemporaryDirectory("setd-secrets")
        defer { directory.remove() }
        let state = directory.path + "/state"
        let daemon = try Daemon(["--no-http", "--state-dir", state])
        defer { _ = daemon.terminate() }
        let ann = try connect(daemon, "ann")
        #expect(try ann.request("HELLO ann key=key-quokka").isOK("HELLO ann"))
        #expect(try ann.request("JOIN club password=pass-wombat").isOK("JOIN club"))
        #expect(try ann.request("NEW password=pass-wombat").isOK("NEW"))
        #expect(daemon.terminate() == 0)
        let journal = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: state + "/journal")), as: UTF8.self)
        #expect(journal.contains("name-key ann pbkdf2-sha1$10000$"))
        #expect(journal.contains("password-hash pbkdf2-sha1$10000$"))
        // Words no salt, hash, number or hex digest holds by chance (digits did: "4711" once turned up).
        #expect(!journal.contains("quokka") && !journal.contains("wombat"), "\(journal)")
    }
}
