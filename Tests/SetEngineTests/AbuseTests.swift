import SetGame
import SetTestSupport
import Testing

/// Faulty and hostile clients, in memory. After each, a well-behaved player in another room sees no
/// change in their game and is answered, and the server is back to the connections it had before.
@Suite struct AbuseTests {
    @Test func aMultiMegabyteLineIsRefusedOnceAndTheConnectionGoesOn() throws {
        let server = EmbeddedServer()
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)

        let client = try server.connect("long")
        // 4 MiB in the pieces a socket delivers; halfway through, others are still served. (That the
        // daemon reads a long stream in turns, so nobody waits for it, is the shell's: EventLoopTests.)
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 4 << 20)
        try client.send(bytes: Array(line[..<(2 << 20)]), inPiecesOf: 256 << 10)
        #expect(try bystander.client.request("PING").final == "OK PING")
        try client.send(bytes: Array(line[(2 << 20)...]) + Array("\nPING\n".utf8), inPiecesOf: 256 << 10)
        let refused = try client.readReply()
        #expect(refused.lines.isEmpty && refused.final.hasPrefix("ERR - TOOLONG "), "\(refused)")
        #expect(try client.readReply().final == "OK PING", "the rest of the line was discarded")
        #expect(try client.request("HELLO long").isOK("HELLO long"))

        // A line that never ends, then a close.
        let endless = try server.connect("endless")
        try endless.send(bytes: [UInt8](repeating: UInt8(ascii: "y"), count: 3 << 20), inPiecesOf: 256 << 10)
        let lines = endless.readAvailable()
        #expect(lines.count == 1 && lines[0].hasPrefix("ERR - TOOLONG "), "one TOOLONG for it: \(lines)")
        endless.close()
        client.close()
        try bystander.expectUndisturbed("after a 4 MiB line")
        baseline.expectRestored("after a 4 MiB line")
    }

    @Test func binaryJunkGetsOneErrorPerLineAndNothingUnsafeBack() throws {
        let server = EmbeddedServer()
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)

        var random = SeededGenerator(seed: 404)
        var junk: [UInt8] = []
        let lineCount = 120
        // Junk twenty lines in a row closes the connection (`LimitTests`): a PING after every 15 keeps it.
        var expected: [Bool] = []  // per line: whether it is junk
        for index in 0..<lineCount {
            if index > 0 && index % 15 == 0 {
                junk += Array("PING\n".utf8)
                expected.append(false)
            }
            expected.append(true)
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
        expected.append(false)
        while finals.count < expected.count {
            let reply = try client.readReply()
            finals.append(reply.final)
            everything += reply.lines + [reply.final]
        }
        #expect(client.unreadBytes == 0, "one reply per line, nothing more")
        #expect(
            zip(finals, expected).allSatisfy { $1 ? $0.hasPrefix("ERR - ") : $0 == "OK PING" }, "\(finals)")
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

    @Test func anHTTPRequestGetsErrorsNotACrash() throws {
        let server = EmbeddedServer()
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)

        // After the greeting the connection speaks the line protocol: a request is three bad lines.
        let browser = try server.connect("browser")
        try browser.send(bytes: Array("GET / HTTP/1.1\r\nHost: x\r\nUser-Agent: curl/8\r\n\r\n".utf8))
        for _ in 0..<3 {
            let reply = try browser.readReply()
            #expect(reply.lines.isEmpty && reply.final.hasPrefix("ERR - UNKNOWN "), "\(reply)")
        }
        #expect(try browser.request("PING").final == "OK PING", "the blank line got no reply")
        browser.close()
        // One that sends a body and hangs up at once.
        let poster = server.open("poster")
        try poster.send(bytes: Array("POST /x HTTP/1.0\r\nContent-Length: 5\r\n\r\nhello".utf8))
        poster.close()
        try bystander.expectUndisturbed("after HTTP")
        baseline.expectRestored("after HTTP")
    }

    @Test func halfALineThenSilenceThenACloseLeavesNoTrace() throws {
        let server = EmbeddedServer()
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)

        let half = try server.connect("half")
        try half.send(bytes: Array("HELLO hal".utf8))
        #expect(half.lines(arrivingWithin: 0.5).isEmpty, "half a line is not a command")
        half.close()
        // Half a line, then end of file while still reading: the server closes too.
        let shy = try server.connect("shy")
        try shy.send(bytes: Array("HELLO shy".utf8))
        shy.shutDownWriting()
        #expect(try shy.expectEOF().isEmpty, "closed, and the half line was not answered")
        baseline.expectRestored("after half lines")
        // Neither half line was run: both names are free.
        for name in ["hal", "shy"] { #expect(try server.named(name).0.request("QUIT").isOK("QUIT")) }
        try bystander.expectUndisturbed("after half lines")
        baseline.expectRestored("after half lines")
    }

    @Test func aFloodThatNeverReadsIsDisconnected() throws {
        let server = EmbeddedServer()
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)

        let flooder = try server.connect("flooder")
        flooder.isReading = false
        let chunk = Array(String(repeating: "HELP\nPING\nROOMS\nSTATE\n", count: 100).utf8)
        var sent = 0
        var elapsed = 0.0
        while flooder.state == .open, elapsed < 15 {
            try flooder.send(bytes: chunk)
            sent += chunk.count
            server.advance(by: 0.01)
            elapsed += 0.01
        }
        #expect(flooder.state != .open, "the flooder is still connected after \(elapsed) s and \(sent) bytes")
        #expect(flooder.unreadBytes <= server.maximumOutputBytes, "never more than the cap queued for it")
        try bystander.expectUndisturbed("after a flood")
        baseline.expectRestored("after a flood")
    }

    @Test func aSpectatorThatNeverReadsIsDroppedAndThePlayersGoOn() throws {
        let server = EmbeddedServer()
        let bystander = try Bystander(on: server)
        let baseline = Baseline(server)

        let (quick, join) = try server.player("quick", room: "busy")
        var board = try #require(BoardView.last(in: join.lines))
        let spectator = try server.connect("spectator")
        #expect(try spectator.request("WATCH busy").isOK("WATCH busy"))
        spectator.isReading = false
        // Chat makes the most output per command: it fills the spectator's queue (1 MiB) in a few
        // seconds of chat at the rate limit.
        var chatters: [EmbeddedClient] = []
        for i in 0..<6 { chatters.append(try server.player("chat\(i)", room: "busy").0) }
        let bigChat = "CHAT " + String(repeating: "z", count: 995)

        var chats = 0
        var claims = 0
        var games = 1
        var elapsed = 0.0
        while spectator.state == .open, elapsed < 25 {
            for chatter in chatters {
                try chatter.send(lines: Array(repeating: bigChat, count: 40))
                chats += 40
                chatter.discardAvailable()
            }
            // The player is answered every time, whatever the spectator holds.
            if board.sets.isEmpty {
                let new = try quick.request("NEW")
                try #require(new.final == "OK NEW started", "\(new)")
                board = try #require(BoardView.last(in: new.lines))
                games += 1
            } else {
                let reply = try quick.request(board.claim(board.sets[0]))
                try #require(reply.isOK("CHOOSE"), "claim \(claims + 1): \(reply.final)")
                board = try #require(BoardView.last(in: reply.lines))
                if reply.lines.contains(where: { $0.hasPrefix("OVER ") }) { board.cards = [] }
                claims += 1
            }
            server.advance(by: 0.5)
            elapsed += 0.5
        }
        #expect(
            spectator.state == .dropped,
            "the spectator was dropped (\(claims) claims, \(games) games, \(chats) chats)")
        #expect(spectator.unreadBytes <= server.maximumOutputBytes, "never more than the cap queued")
        for chatter in chatters { chatter.discardAvailable() }
        let state = try quick.request("STATE")
        let players = state.lines.filter { $0.hasPrefix("PLAYER ") }
        #expect(players.count == 7 && players.allSatisfy { $0.hasSuffix(" online") }, "\(players)")
        for chatter in chatters { chatter.close() }
        quick.close()
        try bystander.expectUndisturbed("after a stuck spectator")
        baseline.expectRestored("after a stuck spectator")
    }

    @Test func twoClaimsOfTheSameSetAtOnceHaveExactlyOneWinner() throws {
        let server = EmbeddedServer()
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
                _ = try bob.expect(prefix: "STARTED ")  // the last line of the new game's snapshot
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
            #expect(winners[0].0 == order[0].0, "round \(round): the first to arrive wins: \(finals)")
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
