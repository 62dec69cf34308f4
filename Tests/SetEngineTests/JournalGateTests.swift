import SetEngine
import SetServerCore
import Testing

/// A reply waits for its record, and one input commits once: the engine driven as the shell drives it,
/// its actions read one by one.
@Suite struct JournalGateTests {
    private let now = Instant(uptime: 100, wall: 1_798_761_600)

    private func engine() -> Engine {
        var configuration = ServerConfiguration()
        configuration.seed = 7
        configuration.isHTTPEnabled = false
        configuration.commandsPerSecond = 0
        return Engine(configuration: configuration)
    }

    /// The text written to connection 1 by `actions`, in order.
    private func written(_ actions: [Action]) -> String {
        actions.map { action -> String in
            if case .write(1, let bytes) = action { return String(decoding: bytes, as: UTF8.self) }
            return ""
        }.joined()
    }

    /// Carries out `actions` as the shell does, every commit written; returns the text written.
    private func settle(_ engine: Engine, _ actions: [Action]) -> String {
        var text = written(actions)
        if actions.contains(where: { if case .commitJournal = $0 { true } else { false } }) {
            text += settle(engine, engine.journalCommitted(.written, at: now))
        }
        return text
    }

    @Test func aReadOfManyCommandsIsOneCommitAndNoLineLeavesBeforeIt() throws {
        let engine = engine()
        _ = settle(engine, engine.opened(1, peer: PeerAddress("127.0.0.1:40000"), at: now))
        let joined = settle(engine, engine.received(Array("HELLO ann\nJOIN fun\n".utf8), on: 1, at: now))
        #expect(joined.contains("OK JOIN fun"))

        let actions = engine.received(Array("CHAT one\nCHAT two\nCHAT three\n".utf8), on: 1, at: now)
        let commits = actions.indices.filter { if case .commitJournal = actions[$0] { true } else { false } }
        let records = actions.filter {
            if case .journal(let box) = $0, case .chat = box.record { true } else { false }
        }
        #expect(commits == [actions.count - 1], "\(actions)")
        #expect(records.count == 3)
        #expect(written(actions).isEmpty, "a line left before its record was written")

        let after = engine.journalCommitted(.written, at: now)
        let text = written(after)
        #expect(!after.contains { if case .commitJournal = $0 { true } else { false } })
        // Every line of the three, in their order.
        let oks = text.split(separator: "\n").filter { $0 == "OK CHAT" }
        #expect(oks.count == 3, "\(text)")
        let one = try #require(text.range(of: "one"))
        let two = try #require(text.range(of: "two"))
        let three = try #require(text.range(of: "three"))
        #expect(one.lowerBound < two.lowerBound && two.lowerBound < three.lowerBound)
    }

    @Test func aFailedCommitLetsNoLineOfItsInputOut() {
        let engine = engine()
        _ = settle(engine, engine.opened(1, peer: PeerAddress("127.0.0.1:40000"), at: now))
        _ = settle(engine, engine.received(Array("HELLO ann\nJOIN fun\n".utf8), on: 1, at: now))
        let actions = engine.received(Array("PING\nCHAT one\nCHAT two\n".utf8), on: 1, at: now)
        // The PING before any record is answered at once; the rest waits.
        #expect(written(actions) == "OK PING\n")
        let after = engine.journalCommitted(.failed("disk full"), at: now)
        #expect(written(after).isEmpty)
        #expect(after.contains { if case .exit = $0 { true } else { false } })
    }
}
