import SetGame
import SetTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Faulty and hostile clients. After each, a well-behaved player in another room sees no change in
/// their game and is answered promptly, and the server is back to the connections and descriptors it
/// had before.
@Suite struct AbuseTests {
    @Test(.timeLimit(.minutes(3))) func aMultiMegabyteLineIsRefusedOnceAndTheConnectionGoesOn() throws {
        let server = try TestServer()
        defer { server.stop() }
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)

        let client = try server.connect("long")
        try client.send(bytes: [UInt8](repeating: UInt8(ascii: "x"), count: 4 << 20) + Array("\nPING\n".utf8))
        // While the server reads its way through the line, 256 KiB per turn, others are still served.
        let before = monotonicNow()
        #expect(try bystander.client.request("PING").final == "OK PING")
        #expect(monotonicNow() - before < 1, "PING took \(monotonicNow() - before) s during the long line")
        let refused = try client.readReply(timeout: 20)
        #expect(refused.lines.isEmpty && refused.final.hasPrefix("ERR - TOOLONG "), "\(refused)")
        #expect(try client.readReply(timeout: 20).final == "OK PING", "the rest of the line was discarded")
        #expect(try client.request("HELLO long").isOK("HELLO long"))

        // A line that never ends, then a close.
        let endless = try server.connect("endless")
        try endless.send(bytes: [UInt8](repeating: UInt8(ascii: "y"), count: 3 << 20))
        #expect(try endless.lines(arrivingWithin: 0.3).count <= 1, "at most one TOOLONG for it")
        endless.close()
        client.close()
        try bystander.expectUndisturbed("after a 4 MiB line")
        baseline.expectRestored("after a 4 MiB line")
    }

    @Test(.timeLimit(.minutes(3))) func binaryJunkGetsOneErrorPerLineAndNothingUnsafeBack() throws {
        let server = try TestServer()
        defer { server.stop() }
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)

        var random = SeededGenerator(seed: 404)
        var junk: [UInt8] = []
        let lineCount = 120
        for _ in 0..<lineCount {
            var line = (0..<(1 + random.next(below: 300))).map { _ in UInt8(random.next(below: 256)) }
            line.removeAll { $0 == 0x0A }
            // A NUL and a byte that is never UTF-8 in the middle: never blank, never a command.
            line.insert(contentsOf: [0x00, 0xFF], at: line.count / 2)
            // Sent as a telnet client sends data: 0xFF doubled (a lone one starts a telnet command), and
            // no CR NUL, which ends a line.
            for index in line.indices.dropFirst() where line[index] == 0 && line[index - 1] == 0x0D {
                line[index] = 0x01
            }
            junk += line.flatMap { $0 == 0xFF ? [0xFF, 0xFF] : [$0] } + [0x0A]
        }
        let client = try server.connect("junk")
        try client.send(bytes: junk + Array("PING\n".utf8))
        var finals: [String] = []
        var everything: [String] = []
        while finals.count < lineCount + 1 {
            let reply = try client.readReply(timeout: 10)
            finals.append(reply.final)
            everything += reply.lines + [reply.final]
        }
        #expect(finals.dropLast().allSatisfy { $0.hasPrefix("ERR - ") }, "\(finals)")
        #expect(finals.last == "OK PING")
        #expect(finals.contains { $0.hasPrefix("ERR - BADUTF8 ") })
        let unsafe = everything.filter { line in
            line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" }
        }
        #expect(unsafe.isEmpty, "no control characters or invalid UTF-8 echoed: \(unsafe)")
        #expect(try client.request("HELLO junk").isOK("HELLO"))
        client.close()
        try bystander.expectUndisturbed("after binary junk")
        baseline.expectRestored("after binary junk")
    }

    @Test(.timeLimit(.minutes(3))) func anHTTPRequestGetsErrorsNotACrash() throws {
        let server = try TestServer()
        defer { server.stop() }
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)

        let browser = try server.connect("browser")
        try browser.send(bytes: Array("GET / HTTP/1.1\r\nHost: x\r\nUser-Agent: curl/8\r\n\r\n".utf8))
        for _ in 0..<3 {
            let reply = try browser.readReply()
            #expect(reply.lines.isEmpty && reply.final.hasPrefix("ERR - UNKNOWN "), "\(reply)")
        }
        #expect(try browser.request("PING").final == "OK PING", "the blank line got no reply")
        browser.close()
        // One that sends a body and hangs up at once.
        let poster = try RawClient(port: server.port)
        _ = poster.sendWithoutBlocking(
            Array("POST /x HTTP/1.0\r\nContent-Length: 5\r\n\r\nhello".utf8))
        poster.close()
        try bystander.expectUndisturbed("after HTTP")
        baseline.expectRestored("after HTTP")
    }

    @Test(.timeLimit(.minutes(3))) func halfALineThenSilenceThenACloseLeavesNoTrace() throws {
        let server = try TestServer()
        defer { server.stop() }
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)

        let half = try server.connect("half")
        try half.send(bytes: Array("HELLO hal".utf8))
        #expect(try half.lines(arrivingWithin: 0.5).isEmpty, "half a line is not a command")
        half.close()
        // Half a line, then end of file while still reading: the server closes too.
        let shy = try RawClient(port: server.port)
        #expect(shy.awaitBytes(timeout: 5))
        _ = shy.sendWithoutBlocking(Array("HELLO shy".utf8))
        shy.shutdownWriting()
        baseline.expectRestored("after half lines")
        shy.close()
        // Neither half line was run: both names are free.
        for name in ["hal", "shy"] { #expect(try server.named(name).0.request("QUIT").isOK("QUIT")) }
        try bystander.expectUndisturbed("after half lines")
        baseline.expectRestored("after half lines")
    }

    @Test(.timeLimit(.minutes(3))) func aFloodThatNeverReadsIsDisconnected() throws {
        let server = try TestServer()
        defer { server.stop() }
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)

        let flooder = try RawClient(port: server.port, receiveBufferSize: 4096)
        let chunk = Array(String(repeating: "HELP\nPING\nROOMS\nSTATE\n", count: 100).utf8)
        let start = monotonicNow()
        var sent = 0
        // Writes never block; stop once the server has hung up (or the count shows it is gone).
        while monotonicNow() - start < 15 {
            guard let n = flooder.sendWithoutBlocking(chunk) else { break }
            sent += n
            if n == 0 {
                if server.server.connectionCount == baseline.connections { break }
                pause(0.01)
            }
        }
        let elapsed = monotonicNow() - start
        #expect(
            eventually(timeout: 10) { server.server.connectionCount == baseline.connections },
            "the flooder is still connected after \(elapsed) s and \(sent) bytes")
        flooder.close()
        try bystander.expectUndisturbed("after a flood")
        baseline.expectRestored("after a flood")
    }

    @Test(.timeLimit(.minutes(3))) func aSpectatorThatNeverReadsIsDroppedAndThePlayersGoOn() throws {
        let server = try TestServer()
        defer { server.stop() }
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)

        let (quick, join) = try server.player("quick", room: "busy")
        var board = try #require(BoardView.last(in: join.lines))
        let spectator = try server.connect("spectator", receiveBufferSize: 4096)
        #expect(try spectator.request("WATCH busy").isOK("WATCH busy"))
        // Chat makes the most output per command: it fills the spectator's queue (1 MiB, plus the few MB
        // the kernel's loopback buffers take first) in a few seconds.
        var chatters: [TestClient] = []
        for i in 0..<6 { chatters.append(try server.player("chat\(i)", room: "busy").0) }
        let withSpectator = server.server.connectionCount
        let bigChat = "CHAT " + String(repeating: "z", count: 995)

        let start = monotonicNow()
        var sent = [Int](repeating: 0, count: chatters.count)
        var slowest = 0.0
        var claims = 0
        var games = 1
        while server.server.connectionCount == withSpectator && monotonicNow() - start < 25 {
            pause(0.02)
            let allowed = 190 + Int((monotonicNow() - start) * 90)
            for (i, chatter) in chatters.enumerated() {
                let batch = min(allowed - sent[i], 40)
                if batch > 0 {
                    try chatter.send(lines: Array(repeating: bigChat, count: batch))
                    sent[i] += batch
                }
                try chatter.discardAvailable()
            }
            let before = monotonicNow()
            if board.sets.isEmpty {
                let new = try quick.request("NEW", timeout: 5)
                try #require(new.final == "OK NEW started", "\(new)")
                board = try #require(BoardView.last(in: new.lines))
                games += 1
            } else {
                let reply = try quick.request(board.claim(board.sets[0]), timeout: 5)
                try #require(reply.isOK("CHOOSE"), "claim \(claims + 1): \(reply.final)")
                board = try #require(BoardView.last(in: reply.lines))
                if reply.lines.contains(where: { $0.hasPrefix("OVER ") }) { board.cards = [] }
                claims += 1
            }
            slowest = max(slowest, monotonicNow() - before)
        }
        #expect(
            server.server.connectionCount == withSpectator - 1,
            "the spectator was dropped (\(claims) claims, \(games) games, \(sent.reduce(0, +)) chats)")
        // The player's round trip includes reading the room's own chat storm, so it gets more slack than
        // the bystander's PING; a player held up by the stuck spectator would wait for good.
        #expect(slowest < 2, "the player's claims stayed prompt: slowest \(slowest) s")
        let deadline = monotonicNow() + 10
        while !spectator.isAtEOF && monotonicNow() < deadline {
            if try spectator.discardAvailable() == 0 { pause(0.01) }
        }
        #expect(spectator.isAtEOF, "the spectator's socket was closed")
        for chatter in chatters { try chatter.discardAvailable() }
        let state = try quick.request("STATE", timeout: 10)
        let players = state.lines.filter { $0.hasPrefix("PLAYER ") }
        #expect(players.count == 7 && players.allSatisfy { $0.hasSuffix(" online") }, "\(players)")
        for chatter in chatters { chatter.close() }
        quick.close()
        try bystander.expectUndisturbed("after a stuck spectator")
        baseline.expectRestored("after a stuck spectator")
    }

    @Test(.timeLimit(.minutes(3))) func twoClaimsOfTheSameSetAtOnceHaveExactlyOneWinner() throws {
        let server = try TestServer()
        defer { server.stop() }
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)

        let (ann, join) = try server.player("ann", room: "duel")
        let (bob, _) = try server.player("bob", room: "duel")
        _ = try ann.expect(prefix: "ROOM duel set 2")
        var board = try #require(BoardView.last(in: join.lines))
        var wins = ["ann": 0, "bob": 0]
        var totalWins = 0
        var finishedGames = 0
        /// Both players' scores equal their wins in this game.
        func expectScoresAddUp(_ context: String) throws {
            let state = try ann.request("STATE")
            let players = state.lines.filter { $0.hasPrefix("PLAYER ") }
            #expect(
                players == ["PLAYER ann \(wins["ann"]!) online", "PLAYER bob \(wins["bob"]!) online"],
                "\(context): \(players)")
        }
        for round in 0..<50 {
            if board.sets.isEmpty {
                try expectScoresAddUp("game \(finishedGames + 1) over")
                finishedGames += 1
                let new = try ann.request("NEW")
                try #require(new.final == "OK NEW started", "\(new)")
                _ = try bob.expect(prefix: "HOST ann")  // the last line of the new game's snapshot
                board = try #require(BoardView.last(in: new.lines))
                wins = ["ann": 0, "bob": 0]
            }
            let line = board.claim(board.sets[0])
            let order = round % 2 == 0 ? [("ann", ann), ("bob", bob)] : [("bob", bob), ("ann", ann)]
            // Both lines leave back to back, before either reply is read.
            for (_, client) in order { try client.send(line) }
            let replies = try order.map { ($0.0, try $0.1.readReply()) }
            let winners = replies.filter { $0.1.isOK("CHOOSE") }
            let losers = replies.filter { !$0.1.isOK("CHOOSE") }
            let finals = replies.map { "\($0.0): \($0.1.final)" }
            try #require(winners.count == 1, "round \(round): \(finals)")
            // protocol.md: "When two players claim the same set at the same moment, the server takes the
            // claim that arrived first; the other gets STALE" — also when that set was the game's last.
            #expect(losers[0].1.final.hasPrefix("ERR CHOOSE STALE "), "round \(round): \(finals)")
            let winner = winners[0].0
            wins[winner]! += 1
            totalWins += 1
            // Both saw the winner's set and the same new board, before their own final line.
            let boards = replies.map { BoardView.last(in: $0.1.lines) }
            try #require(boards[0] != nil && boards[0] == boards[1], "round \(round): \(replies)")
            for (_, reply) in replies {
                #expect(
                    reply.lines.first == "SET \(winner) \(board.codes(board.sets[0]).joined(separator: " "))")
                #expect(reply.lines.contains("PLAYER \(winner) \(wins[winner]!) online"), "\(reply)")
            }
            board = boards[0]!
            if replies[0].1.lines.contains(where: { $0.hasPrefix("OVER ") }) { board.cards = [] }
        }
        try expectScoresAddUp("after 50 rounds")
        #expect(totalWins == 50)
        #expect(finishedGames >= 1, "the rounds spanned more than one game")
        ann.close()
        bob.close()
        try bystander.expectUndisturbed("after 50 duels")
        baseline.expectRestored("after 50 duels")
    }
}
