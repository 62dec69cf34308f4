import SetTestSupport
import SetTestTraits
import Testing

/// Issue 23's first attack, replayed against the real daemon over loopback: 3,126 `HELLO alice key=…`
/// guesses a second over 40 connections from eight loopback addresses found a 4-digit key in a second.
/// Now only the first few guesses, and one whenever a wait ends, are checked at all.
@Suite(.ownThread) struct KeyGuessingLoopbackTests {
    @Test func guessingAFourDigitKeyFromManyAddressesFails() throws {
        let daemon = try Daemon(["--no-http"])
        defer { _ = daemon.terminate() }
        let owner = try daemon.connect("alice")
        #expect(try owner.request("HELLO alice key=0300").isOK("HELLO alice"))
        #expect(try owner.request("QUIT").final == "OK QUIT")
        // 40 connections, five from each of 127.0.0.2 … 127.0.0.9, each sending one guess every 12.8 ms:
        // 3,126 a second in all, the whole key space in 3.2 s, in order (connection c tries c, c + 40, …).
        // The key is the 301st guess: without the limits it falls within a tenth of a second.
        let connections = 40
        var guessers: [TestClient] = []
        for index in 0..<connections {
            let guesser = try TestClient(
                port: daemon.port, label: "guesser\(index)", source: "127.0.0.\(2 + index % 8)")
            #expect(try guesser.readLine().hasPrefix("SETD 1 "))
            guessers.append(guesser)
        }
        let rounds = 10_000 / connections
        for round in 0..<rounds {
            for (index, guesser) in guessers.enumerated() {
                let guess = round * connections + index
                let key = String(repeating: "0", count: 4 - String(guess).count) + String(guess)
                try guesser.send("HELLO alice key=\(key)")
            }
            pause(Double(connections) / 3_126)
        }
        var answers: [String: Int] = [:]
        for guesser in guessers {
            for _ in 0..<rounds {
                let reply = try guesser.readReply()
                let words = reply.final.split(separator: " ")
                answers[words.count > 2 ? "\(words[0]) \(words[2])" : reply.final, default: 0] += 1
            }
        }
        #expect(answers["OK alice"] == nil, "the key was found: \(answers)")
        let checked = answers["ERR DENIED", default: 0]
        #expect(checked <= 30, "only the free tries and one a wait are checked: \(answers)")
        // The rest wait (BACKOFF), or, when a loaded machine delivers a connection's guesses in a burst,
        // are refused by the rate limit (SLOWDOWN): unchecked either way.
        let unchecked = answers["ERR BACKOFF", default: 0] + answers["ERR SLOWDOWN", default: 0]
        #expect(unchecked >= 10_000 - 30, "\(answers)")
        // The owner, from their own address, still gets in once the name's wait is over.
        let back = try daemon.connect("alice-back")
        var reply = try back.request("HELLO alice key=0300")
        for _ in 0..<20 where reply.error == .backoff {
            pause(1)
            reply = try back.request("HELLO alice key=0300")
        }
        #expect(reply.isOK("HELLO alice"), "\(reply)")
        // Each address's burst, and the name's, is logged once, with a count — not once a guess.
        _ = daemon.terminate()
        let lines = daemon.log.split(separator: "\n")
        let bursts = lines.filter { $0.contains(" guessing ") }
        #expect(bursts.filter { $0.contains("scope=name name=alice failures=10") }.count == 1, "\(bursts)")
        // (The name's ten free tries run out before most addresses have used their five.)
        for host in 2...9 {
            #expect(
                bursts.filter { $0.contains("scope=address peer=127.0.0.\(host) ") }.count <= 1, "\(bursts)")
        }
        print("key guessing over loopback: \(answers); logged: \(bursts)")
    }
}
