import SetProtocol
import SetTestSupport
import Testing

@testable import SetServerCore

/// Wrong keys and passwords cost the guesser: a few free tries, then waits that double.
@Suite struct GuessLimitTests {
    // MARK: The limiter alone

    @Test func freeTriesThenWaitsThatDoubleUpToTheLongest() {
        var limiter = GuessLimiter(.init(freeTries: 5, firstWait: 1, longestWait: 900, forgetAfter: 3_600))
        var now = 100.0
        for _ in 1...4 {
            #expect(limiter.wait(for: "a", at: now) == nil)
            #expect(limiter.noteFailure("a", at: now) == .free)
        }
        #expect(limiter.noteFailure("a", at: now) == .backoffBegins(wait: 1))
        #expect(limiter.wait(for: "a", at: now) == 1)
        #expect(limiter.wait(for: "b", at: now) == nil, "another key is not held back")
        var waits: [Double] = []
        for _ in 0..<12 {
            now += limiter.wait(for: "a", at: now) ?? 0
            #expect(limiter.wait(for: "a", at: now) == nil, "the wait is over")
            guard case .backoffGrows(let wait) = limiter.noteFailure("a", at: now) else {
                Issue.record("a failure after the free tries makes the wait grow")
                return
            }
            waits.append(wait)
        }
        #expect(waits == [2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900])
    }

    @Test func quietKeysAreForgottenAndBurstsReported() {
        var limiter = GuessLimiter(.init(freeTries: 2, firstWait: 1, longestWait: 10, forgetAfter: 60))
        _ = limiter.noteFailure("burst", at: 0)
        _ = limiter.noteFailure("burst", at: 0)
        limiter.noteRefused("burst")
        limiter.noteRefused("burst")
        _ = limiter.noteFailure("one", at: 0)
        #expect(limiter.sweep(at: 30).isEmpty, "not quiet yet")
        let ended = limiter.sweep(at: 61)
        #expect(ended.map(\.key) == ["burst"], "only a burst that earned a wait is reported")
        #expect(ended.first?.entry.failures == 2 && ended.first?.entry.refused == 2)
        #expect(limiter.entries.isEmpty)
        #expect(limiter.noteFailure("burst", at: 62) == .free, "a new burst has its free tries again")
    }

    @Test func theTableStaysBoundedWhateverTheNumberOfKeys() {
        var limiter = GuessLimiter(
            .init(freeTries: 5, firstWait: 1, longestWait: 10, forgetAfter: 60), capacity: 100)
        for index in 0..<1_000 { _ = limiter.noteFailure("key\(index)", at: Double(index)) }
        #expect(limiter.entries.count == 100)
        #expect(limiter.entries["key999"] != nil && limiter.entries["key0"] == nil, "the quietest go first")
    }

    // MARK: Through the server

    /// Claims `name` with `key` from 127.0.0.1 and quits, leaving the name free for anyone with the key.
    private func claim(_ name: String, key: String, on server: EmbeddedServer) throws {
        let owner = try server.connect(name)
        #expect(try owner.request("HELLO \(name) key=\(key)").isOK("HELLO \(name)"))
        _ = try owner.request("QUIT")
    }

    @Test func anAddressThatGuessesWaitsAndTheRightKeyIsNotCheckedMeanwhile() throws {
        let server = EmbeddedServer()
        try claim("ann", key: "4711", on: server)
        let guesser = try server.connect("guesser", host: "127.0.0.9")
        for guess in 1...5 {
            #expect(try guesser.request("HELLO ann key=000\(guess)").error == .denied)
        }
        let held = try guesser.request("HELLO ann key=4711")
        #expect(held.error == .backoff, "the right key is not even checked: \(held)")
        #expect(held.final.hasSuffix("try again in 1 s"), "\(held)")
        #expect(
            server.logs.filter { $0.name == "guessing" }.map(\.description) == [
                "warn guessing scope=address peer=127.0.0.9 failures=5 wait=1"
            ])
        // Another address is not held back, and the owner gets in.
        let owner = try server.connect("owner", host: "127.0.0.1")
        #expect(try owner.request("HELLO ann key=4711").isOK("HELLO ann"))
        _ = try owner.request("QUIT")
        server.advance(by: 1)
        #expect(try guesser.request("HELLO ann key=0006").error == .denied, "the wait is over: checked again")
        #expect(try guesser.request("HELLO ann key=0007").final.hasSuffix("try again in 2 s"))
        // An hour of quiet forgets the burst, and the log says how it went.
        server.advance(by: 3_700)
        let ended = server.logs.filter { $0.name == "guessing-ended" }.map(\.description)
        #expect(ended == ["warn guessing-ended scope=address peer=127.0.0.9 failures=6 refused=2"])
        // (The guesser's connection said no HELLO in time and was closed; a new one gets free tries again.)
        let again = try server.connect("again", host: "127.0.0.9")
        #expect(try again.request("HELLO ann key=0008").error == .denied, "a new burst's free tries")
    }

    @Test func manyAddressesGuessingOneNameShareItsWait() throws {
        let server = EmbeddedServer()
        try claim("bob", key: "2024", on: server)
        // Two wrong keys from each of five addresses: the name's ten free tries.
        for host in 2...6 {
            let guesser = try server.connect("g\(host)", host: "127.0.0.\(host)")
            #expect(try guesser.request("HELLO bob key=1").error == .denied)
            #expect(try guesser.request("HELLO bob key=2").error == .denied)
        }
        let fresh = try server.connect("fresh", host: "127.0.0.7")
        let held = try fresh.request("HELLO bob key=3")
        #expect(held.error == .backoff && held.final.contains("for bob"), "\(held)")
        #expect(
            server.logs.contains { $0.description == "warn guessing scope=name name=bob failures=10 wait=1" })
        // While the name waits, so does its owner's right key; the wait is a second.
        #expect(try server.connect("owner").request("HELLO bob key=2024").error == .backoff)
        server.advance(by: 1)
        let owner = try server.connect("owner-later")
        #expect(try owner.request("HELLO bob key=2024").isOK("HELLO bob"))
        _ = try owner.request("QUIT")
        // Saying the right key forgets the name's failures: the next wrong key is a free one again.
        #expect(try server.connect("g8", host: "127.0.0.8").request("HELLO bob key=9").error == .denied)
        #expect(try server.connect("g10", host: "127.0.0.10").request("HELLO bob key=8").error == .denied)
    }

    @Test func roomPasswordsAreGuessedAtTheSameCost() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.named("ann")
        #expect(try ann.request("JOIN club password=7391").isOK("JOIN club"))
        let (mallory, _) = try server.named("mallory", host: "127.0.0.5")
        #expect(try mallory.request("JOIN club").error == .noSuchRoom, "no password is no guess")
        for guess in 0..<5 {
            #expect(try mallory.request("JOIN club password=000\(guess)").error == .noSuchRoom)
        }
        #expect(try mallory.request("JOIN club password=7391").error == .backoff)
        #expect(try mallory.request("WATCH club password=7391").error == .backoff)
        let (bob, _) = try server.named("bob")
        #expect(try bob.request("JOIN club password=7391").isOK("JOIN club"), "others are not held back")
    }

    /// Waits after wrong passwords must not tell a private room from no room: a password said to a name
    /// nobody uses counts as a wrong one too.
    @Test func passwordsSaidToNoRoomCostTheSameAsWrongOnes() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.named("ann")
        #expect(try ann.request("JOIN club password=7391").isOK("JOIN club"))
        let (mallory, _) = try server.named("mallory", host: "127.0.0.5")
        let (eve, _) = try server.named("eve", host: "127.0.0.6")
        for guess in 0..<5 {
            let atClub = try mallory.request("WATCH club password=000\(guess)")
            let atNothing = try eve.request("WATCH nothing password=000\(guess)")
            #expect(atClub.error == .noSuchRoom && atNothing.error == .noSuchRoom)
            #expect(
                atClub.final.replacingOccurrences(of: "club", with: "nothing") == atNothing.final,
                "the same words: \(atClub.final) / \(atNothing.final)")
        }
        #expect(try mallory.request("WATCH club password=7391").error == .backoff)
        #expect(try eve.request("WATCH nothing password=7391").error == .backoff)
    }
}
