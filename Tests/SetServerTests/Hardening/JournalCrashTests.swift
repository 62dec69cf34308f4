import SetGame
import SetTestSupport
import SetTestTraits
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a player was last told about a SET room: the board, the deck and their own score.
struct Told: Equatable, CustomStringConvertible {
    var board: String
    var deck: String
    var score: Int

    var description: String { "\(board) | \(deck) | score \(score)" }

    /// Updates from the lines of a reply or of events, in order: the last of each kind wins.
    mutating func update(from lines: [String], player: String) {
        for line in lines {
            if line.hasPrefix("BOARD ") { board = line }
            if line.hasPrefix("DECK ") { deck = line }
            if line.hasPrefix("PLAYER \(player) "), let score = Int(words(line)[2]) { self.score = score }
        }
    }

    /// The state a snapshot shows.
    init(snapshot lines: [String], player: String) throws {
        board = try #require(lines.first { $0.hasPrefix("BOARD ") }, "no BOARD in \(lines)")
        deck = try #require(lines.first { $0.hasPrefix("DECK ") }, "no DECK in \(lines)")
        let line = try #require(lines.first { $0.hasPrefix("PLAYER \(player) ") }, "no \(player) in \(lines)")
        score = try #require(Int(words(line)[2]))
    }

    var boardView: BoardView? { BoardView(line: board) }
}

/// A judged claim, as the journal keeps it: who, which cards, and whether they were a set.
private struct Claim {
    var player: String
    var codes: [String]
    var isSet: Bool
}

/// The lines of a journal file that are not `<record> ~<checksum>` with the right checksum, and the
/// number of lines.
private func badJournalLines(_ path: String) -> (bad: [String], count: Int) {
    guard let bytes = readFile(path) else { return (["cannot read \(path)"], 0) }
    guard bytes.last == 0x0A else { return (["no LF at the end"], 0) }
    let lines = String(decoding: bytes.dropLast(), as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
    let bad = lines.filter { line in
        guard let tilde = line.lastIndex(of: "~"), tilde > line.startIndex,
            line[line.index(before: tilde)] == " "
        else { return true }
        return ChecksumReference.journalChecksum(String(line[..<line.index(before: tilde)]))
            != line[line.index(after: tilde)...]
    }
    return (bad.map(String.init), lines.count)
}

/// `kill -9`, torn journals and restarts of the real `setd` with `--state-dir`: nothing acknowledged is
/// ever lost, and nothing that was not judged ever appears.
@Suite(.ownThread) struct JournalCrashTests {

    /// The state after `claims`, from an in-process server with the same seed: games are deterministic
    /// from the seed, so this is what a daemon that judged every one of `claims` must show.
    private func reference(seed: UInt64, players: [String], claims: [Claim], of player: String) throws -> Told
    {
        let server = try TestServer { $0.seed = seed }
        defer { server.stop() }
        var clients: [String: TestClient] = [:]
        for name in players { clients[name] = try server.player(name, room: "fun").0 }
        for claim in claims {
            let reply = try clients[claim.player]!.request("CHOOSE " + claim.codes.joined(separator: " "))
            try #require(reply.isOK("CHOOSE") == claim.isSet, "reference: \(claim.codes): \(reply)")
        }
        return try Told(snapshot: try clients[player]!.request("STATE").lines, player: player)
    }

    /// The key one: a player claims set after set; at seeded random moments, sometimes with a claim in
    /// flight, the daemon is killed with SIGKILL and restarted on the same directory. The restored board,
    /// deck and score are what the player was last told, or that plus the claim in flight; never anything
    /// else. The game goes on across the restarts to its end, and the finished game is in the archive.
    @Test(.stretchedTimeLimit(minutes: 3)) func aGameSurvivesKillNineAtRandomMoments() throws {
        let directory = try TemporaryDirectory("setd-kill")
        let seed: UInt64 = 2026
        let arguments = ["--state-dir", directory.path, "--seed", "\(seed)"]
        var random = SeededGenerator(seed: 1)
        var daemon = try Daemon(arguments)

        var ann = try daemon.connect("ann")
        var annToken = try ann.hello("ann")
        var told = try Told(snapshot: try ann.request("JOIN fun").lines, player: "ann")
        let bob = try daemon.connect("bob")
        _ = try bob.hello("bob")
        let bobJoin = try bob.request("JOIN fun")
        _ = try ann.expect(prefix: "ROOM fun set 2 playing")
        var claims: [Claim] = []

        // Bob takes a set, Ann makes a wrong claim: both scores are in the journal from the start.
        let first = try #require(BoardView.last(in: bobJoin.lines))
        let bobClaim = try bob.request(first.claim(first.sets[0]))
        try #require(bobClaim.isOK("CHOOSE"), "\(bobClaim)")
        claims.append(Claim(player: "bob", codes: Array(words(bobClaim.final).dropFirst(2)), isSet: true))
        told.update(from: try ann.expect(prefix: "PLAYER bob 1 online").skipped, player: "ann")
        let board = try #require(told.boardView)
        let nonSet = try #require(board.nonSet)
        let wrong = try ann.request(board.claim(nonSet))
        try #require(wrong.final.hasPrefix("ERR CHOOSE NOTSET "), "\(wrong)")
        told.update(from: wrong.lines, player: "ann")
        #expect(told.score == -1)
        claims.append(Claim(player: "ann", codes: board.codes(nonSet), isSet: false))

        var isOver = false
        /// Ann claims a set she sees on the board she was told; returns the claim line and cards.
        func pickSet() throws -> (line: String, codes: [String]) {
            let board = try #require(told.boardView, "\(told)")
            let sets = board.sets
            try #require(!sets.isEmpty, "no set on a board of a running game: \(told)")
            let set = sets[random.next(below: sets.count)]
            return (board.claim(set), board.codes(set))
        }
        /// Chat in every script the protocol allows, between the claims: text that Unicode glues to its
        /// neighbours (U+0600–U+0605 prepend marks, combining marks, ZWJ sequences, flags, RTL) must not
        /// change how the records around it read back.
        let scripts = [
            "\u{600}", "\u{601}\u{602}", "hi \u{603}", "\u{604} \u{605}", "e\u{301}\u{302} ~", "👩‍👩‍👧‍👦 🇫🇷🇯🇵",
            "שלום עולם", "مرحبا ~ %41", "नमस्ते", "\u{200D}\u{200D}~", "ok ~00000000",
        ]
        var chats = 0
        func claimOne() throws {
            let chat = try ann.request("CHAT " + scripts[chats % scripts.count])
            try #require(chat.isOK("CHAT"), "\(chat)")
            chats += 1
            let (line, _) = try pickSet()
            let reply = try ann.request(line)
            try #require(reply.isOK("CHOOSE"), "\(line): \(reply)")
            told.update(from: reply.lines, player: "ann")
            claims.append(Claim(player: "ann", codes: Array(words(reply.final).dropFirst(2)), isSet: true))
            isOver = reply.lines.contains { $0.hasPrefix("OVER ") }
        }
        /// Kills the daemon, starts another on the same directory and resumes Ann; returns the snapshot.
        func crashAndRestore() throws -> Reply {
            daemon.kill9()
            daemon = try Daemon(arguments)
            ann = try daemon.connect("ann")
            let reply = try ann.request("RESUME \(annToken)")
            try #require(reply.isOK("RESUME ann fun"), "\(reply)")
            // Each RESUME retires the token presented: the next one presents the new one.
            annToken = try #require(reply.newToken, "\(reply)")
            return Reply(lines: reply.shownLines, final: reply.final)
        }
        /// The current game's history must list exactly the sets judged so far.
        func expectHistory(_ context: String) throws {
            let history = try ann.request("HISTORY")
            let listed = history.lines.filter { $0.hasPrefix("HISTORY ") }.map {
                words($0).dropFirst(2).joined(separator: " ")
            }
            let expected = claims.filter(\.isSet).map { "\($0.player) \($0.codes.joined(separator: " "))" }
            #expect(listed == expected, "\(context): HISTORY \(history)")
        }

        var restarts = 0
        var inFlightOutcomes: [Bool] = []
        while restarts < 7 && !isOver {
            for _ in 0...random.next(below: 4) where !isOver { try claimOne() }
            var inFlight: Claim?
            if !isOver && random.next(below: 3) > 0 {
                let (line, codes) = try pickSet()
                try ann.send(line)
                inFlight = Claim(player: "ann", codes: codes, isSet: true)
                // Anywhere from before the server has read it to after it has answered.
                if random.next(below: 3) > 0 { usleep(UInt32(random.next(below: 3_000))) }
            }
            let reply = try crashAndRestore()
            restarts += 1
            let context = "restart \(restarts) (in flight: \(inFlight?.codes.description ?? "none"))"
            let restored = try Told(snapshot: reply.lines, player: "ann")
            if restored == told {
                if inFlight != nil { inFlightOutcomes.append(false) }
            } else if let claim = inFlight {
                let after = try reference(
                    seed: seed, players: ["ann", "bob"], claims: claims + [claim], of: "ann")
                try #require(
                    restored == after,
                    "\(context): restored \(restored), but Ann was told \(told), and after the claim in flight it is \(after)"
                )
                claims.append(claim)
                inFlightOutcomes.append(true)
                isOver = reply.lines.contains("ROOM fun set 2 over")
            } else {
                Issue.record("\(context): restored \(restored), but Ann was told \(told)")
                return
            }
            told = restored
            #expect(
                reply.lines.first == "ROOM fun set 2 \(isOver ? "over" : "playing")", "\(context): \(reply)")
            #expect(reply.lines.contains("PLAYER ann \(told.score) online"), "\(context): \(reply)")
            #expect(reply.lines.contains("PLAYER bob 1 away"), "\(context): Bob keeps his seat: \(reply)")
            if !isOver { try expectHistory(context) }
        }
        #expect(restarts >= 6, "\(restarts) restarts before the game ended")
        // Both outcomes of a claim in flight are allowed; whatever happened, it was one of them.
        #expect(!inFlightOutcomes.isEmpty, "some kills had a claim in flight")

        // Play to the end, then crash once more: the finished game is in the archive.
        var guardCount = 0
        while !isOver {
            guardCount += 1
            try #require(guardCount < 40, "the game did not end")
            try claimOne()
        }
        let sets = claims.filter(\.isSet)
        let reply = try crashAndRestore()
        #expect(reply.lines.first == "ROOM fun set 2 over", "\(reply)")
        let annScore = claims.filter { $0.player == "ann" }.map { $0.isSet ? 1 : -1 }.reduce(0, +)
        #expect(try Told(snapshot: reply.lines, player: "ann").score == annScore)
        let history = try ann.request("HISTORY fun")
        let ranked = annScore >= 1 ? "ann:\(annScore) bob:1" : "bob:1 ann:\(annScore)"
        let header = try #require(history.lines.first, "\(history)")
        let headerWords = words(header)
        #expect(headerWords.prefix(3) == ["HISTORY", "GAME", "1"], "\(header)")
        #expect(headerWords.dropFirst(5).joined(separator: " ") == ranked, "\(header)")
        if headerWords.count >= 5 {
            let timestamp = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/
            #expect(headerWords[3].wholeMatch(of: timestamp) != nil, "\(header)")
            #expect(headerWords[4].wholeMatch(of: timestamp) != nil, "\(header)")
            #expect(headerWords[3] <= headerWords[4], "\(header)")
        }
        // The header, the sets, then the score sheet: a STATS line per player and DURATION.
        let sheet = history.lines.suffix(3).map { words($0)[3] }
        #expect(sheet == ["STATS", "STATS", "DURATION"], "\(history)")
        // The line after the header names the game's record (RECORD <id>).
        #expect(history.lines.dropFirst().first?.hasPrefix("HISTORY GAME 1 ID ") == true, "\(history)")
        let entries = history.lines.dropFirst(2).dropLast(3).map {
            words($0).dropFirst(4).joined(separator: " ")
        }
        #expect(entries == sets.map { "\($0.player) \($0.codes.joined(separator: " "))" }, "\(history)")
        #expect(history.lines.dropFirst().allSatisfy { $0.hasPrefix("HISTORY GAME 1 ") }, "\(history)")
        #expect(history.final == "OK HISTORY \(sets.count + 5)", "\(history)")
        daemon.kill9()
    }

    /// A journal whose last line was torn by a crash (half a line, or a line with a wrong checksum) is
    /// restored up to the last intact record, and the daemon says so in its log.
    @Test(.stretchedTimeLimit(minutes: 3)) func aTornTailIsDroppedAndTheIntactStateRestored() throws {
        let directory = try TemporaryDirectory("setd-torn")
        let arguments = ["--state-dir", directory.path, "--seed", "77"]
        let journal = directory.path + "/journal"
        var daemon = try Daemon(arguments)
        var ann = try daemon.connect("ann")
        var token = try ann.hello("ann")
        var told = try Told(snapshot: try ann.request("JOIN fun").lines, player: "ann")
        for _ in 0..<2 {
            let board = try #require(told.boardView)
            let reply = try ann.request(board.claim(board.sets[0]))
            try #require(reply.isOK("CHOOSE"), "\(reply)")
            told.update(from: reply.lines, player: "ann")
        }
        #expect(try ann.request("CHAT before the crash").isOK("CHAT"))
        #expect(daemon.terminate() == 0)

        // Every line of the journal is a record, ` ~` and its FNV-1a checksum.
        let (bad, count) = badJournalLines(journal)
        #expect(bad.isEmpty && count >= 4, "\(count) lines, bad: \(bad)")

        // A claim of a real set: were it applied, the board would change.
        let board = try #require(told.boardView)
        let record = "claim fun ann 1767225600000 3 " + board.codes(board.sets[0]).joined(separator: " ")
        let checksum = ChecksumReference.journalChecksum(record)
        let wrongChecksum = String(checksum.dropLast()) + (checksum.last == "0" ? "1" : "0")
        let tails: [(String, String)] = [
            ("half a line", record + " ~" + checksum.prefix(3)),
            ("a wrong checksum", record + " ~" + wrongChecksum + "\n"),
        ]
        for (what, tail) in tails {
            try appendToFile(journal, Array(tail.utf8))
            daemon = try Daemon(arguments)
            ann = try daemon.connect("ann")
            let reply = try ann.request("RESUME \(token)")
            #expect(reply.isOK("RESUME ann fun"), "\(what): \(reply)")
            token = reply.newToken ?? token
            #expect(try Told(snapshot: reply.lines, player: "ann") == told, "\(what): \(reply)")
            #expect(daemon.terminate() == 0)
            #expect(daemon.log.contains("journal-torn-tail"), "\(what): log: \(daemon.log)")
            let text = String(decoding: readFile(journal) ?? [], as: UTF8.self)
            #expect(!text.contains("1767225600000"), "\(what): the torn record is gone: \(text)")
            #expect(badJournalLines(journal).bad.isEmpty, "\(what)")
        }

        // A clean journal starts without complaint, and the game goes on from it.
        daemon = try Daemon(arguments)
        ann = try daemon.connect("ann")
        let reply = try ann.request("RESUME \(token)")
        token = reply.newToken ?? token
        #expect(try Told(snapshot: reply.lines, player: "ann") == told, "\(reply)")
        let now = try #require(told.boardView)
        let claim = try ann.request(now.claim(now.sets[0]))
        try #require(claim.isOK("CHOOSE"), "\(claim)")
        told.update(from: claim.lines, player: "ann")
        daemon.kill9()
        #expect(!daemon.log.contains("journal-torn-tail"), "\(daemon.log)")
        daemon = try Daemon(arguments)
        ann = try daemon.connect("ann")
        let last = try ann.request("RESUME \(token)")
        #expect(try Told(snapshot: last.lines, player: "ann") == told, "\(last)")
        daemon.kill9()
    }

    /// Two seated players, each with a score; after a crash both seats and scores are back, the one who
    /// has not resumed yet shown `away` and their name held for them.
    @Test(.stretchedTimeLimit(minutes: 3)) func aSecondPlayersSeatAndScoreSurviveAsAway() throws {
        let directory = try TemporaryDirectory("setd-seats")
        let arguments = ["--state-dir", directory.path, "--seed", "5"]
        var daemon = try Daemon(arguments)
        let ann = try daemon.connect("ann")
        let annToken = try ann.hello("ann")
        let join = try ann.request("JOIN den")
        let bob = try daemon.connect("bob")
        let bobToken = try bob.hello("bob")
        #expect(try bob.request("JOIN den").isOK("JOIN"))
        _ = try ann.expect(prefix: "ROOM den set 2")
        let board = try #require(BoardView.last(in: join.lines))
        // Bob's wrong claim comes first: Ann's set then changes the board it was judged against.
        let wrong = try bob.request(board.claim(try #require(board.nonSet)))
        #expect(wrong.final.hasPrefix("ERR CHOOSE NOTSET "), "\(wrong)")
        _ = try ann.expect(prefix: "PLAYER bob -1 online")
        let set = try ann.request(board.claim(board.sets[0]))
        #expect(set.isOK("CHOOSE"), "\(set)")
        let boardLine = try #require(set.lines.last { $0.hasPrefix("BOARD ") })

        daemon.kill9()
        daemon = try Daemon(arguments)
        let ann2 = try daemon.connect("ann again")
        let reply = try ann2.request("RESUME \(annToken)")
        #expect(reply.isOK("RESUME ann den"), "\(reply)")
        #expect(reply.shownLines.first == "ROOM den set 2 playing", "\(reply)")
        #expect(reply.lines.contains(boardLine), "\(reply)")
        let players = reply.lines.filter { $0.hasPrefix("PLAYER ") }
        #expect(players == ["PLAYER ann 1 online", "PLAYER bob -1 away"], "\(reply)")
        // Bob's name is held for him while he is away.
        let impostor = try daemon.connect("impostor")
        #expect(try impostor.request("HELLO bob").final.hasPrefix("ERR HELLO TAKEN "))
        let bob2 = try daemon.connect("bob again")
        let back = try bob2.request("RESUME \(bobToken)")
        #expect(back.isOK("RESUME bob den"), "\(back)")
        #expect(
            back.lines.filter { $0.hasPrefix("PLAYER ") } == ["PLAYER ann 1 online", "PLAYER bob -1 online"])
        #expect(try ann2.readLine() == "PLAYER bob -1 online")
        daemon.kill9()
    }

    /// A Matchismo room mid-game — cards face up and matched, whose turn it is, the scores — is the same
    /// after a crash; the player whose turn it was resumes first and still has it.
    /// The turn comes back as it was, whoever resumes first: a player who comes back never takes the
    /// turn from one who is away (protocol.md, Matchismo).
    @Test(.stretchedTimeLimit(minutes: 3), arguments: [false, true])
    func aMatchismoRoomSurvivesARestart(otherResumesFirst: Bool) throws {
        let directory = try TemporaryDirectory("setd-matchismo")
        let arguments = ["--state-dir", directory.path, "--seed", "11"]
        var daemon = try Daemon(arguments)
        let ann = try daemon.connect("ann")
        var tokenOf = ["ann": try ann.hello("ann")]
        let join = try ann.request("JOIN m matchismo n=2")
        try #require(join.isOK("JOIN"), "\(join)")
        let bob = try daemon.connect("bob")
        tokenOf["bob"] = try bob.hello("bob")
        #expect(try bob.request("JOIN m matchismo").isOK("JOIN"))
        _ = try ann.expect(prefix: "ROOM m matchismo 2 playing")

        func slots(_ line: String) -> [String] {
            words(line).dropFirst(2).map { String($0.split(separator: ":", maxSplits: 1).last ?? "") }
        }
        let clients = ["ann": ann, "bob": bob]
        var boardLine = try #require(join.lines.first { $0.hasPrefix("BOARD ") })
        var turn = "ann"
        var players = ["ann": "PLAYER ann 0 online", "bob": "PLAYER bob 0 online"]
        var known = Set<Int>()
        var sawMatch = false
        var sawMismatch = false
        var choices = 0
        func hasFaceUpCard() -> Bool { slots(boardLine).contains { $0 != "??" && !$0.hasPrefix("=") } }
        while !(sawMatch && sawMismatch && hasFaceUpCard()) {
            choices += 1
            try #require(choices < 60, "no match and mismatch in 60 choices")
            let board = slots(boardLine)
            let position = try #require(
                board.indices.first { board[$0] == "??" && !known.contains($0) }
                    ?? board.indices.first { board[$0] == "??" })
            known.insert(position)
            let reply = try clients[turn]!.request("CHOOSE \(SetGame.positionName(position))")
            try #require(reply.isOK("CHOOSE"), "\(reply)")
            _ = try clients[turn == "ann" ? "bob" : "ann"]!.expect(prefix: "TURN ")
            for line in reply.lines {
                if line.hasPrefix("BOARD ") { boardLine = line }
                if line.hasPrefix("PLAYER ") { players[words(line)[1]] = line }
                if line.hasPrefix("TURN ") { turn = words(line)[1] }
                if line.hasPrefix("CHOSE ") && line.contains(" Matched ") { sawMatch = true }
                if line.hasPrefix("CHOSE ") && line.contains(" don't match! ") { sawMismatch = true }
            }
        }
        let other = turn == "ann" ? "bob" : "ann"
        let score = { (name: String) in words(players[name]!)[2] }

        daemon.kill9()
        daemon = try Daemon(arguments)
        let (firstName, secondName) = otherResumesFirst ? (other, turn) : (turn, other)
        let first = try daemon.connect(firstName)
        let reply = try first.request("RESUME \(tokenOf[firstName]!)")
        #expect(reply.isOK("RESUME \(firstName) m"), "\(reply)")
        #expect(reply.shownLines.first == "ROOM m matchismo 2 playing", "\(reply)")
        #expect(reply.lines.contains("OPTIONS n=2"), "\(reply)")
        #expect(reply.lines.contains(boardLine), "faces up and matched as they were: \(reply)")
        #expect(reply.lines.contains("TURN \(turn)"), "\(reply)")
        #expect(reply.lines.contains("PLAYER \(firstName) \(score(firstName)) online"), "\(reply)")
        #expect(reply.lines.contains("PLAYER \(secondName) \(score(secondName)) away"), "\(reply)")
        if otherResumesFirst {
            // The turn stays with the player who had it, away or not.
            let early = try first.request("CHOOSE a")
            #expect(early.final.hasPrefix("ERR CHOOSE NOTYOURTURN "), "\(early)")
        }

        let second = try daemon.connect(secondName)
        let back = try second.request("RESUME \(tokenOf[secondName]!)")
        #expect(back.lines.contains(boardLine), "\(back)")
        #expect(back.lines.contains("TURN \(turn)"), "\(back)")
        #expect(back.lines.contains("PLAYER \(secondName) \(score(secondName)) online"), "\(back)")
        #expect(try first.readLine() == "PLAYER \(secondName) \(score(secondName)) online")

        // The game goes on where it was: the turn's player turns a card.
        let board = slots(boardLine)
        let next = try #require(board.indices.first { board[$0] == "??" })
        let mover = otherResumesFirst ? second : first
        let choice = try mover.request("CHOOSE \(SetGame.positionName(next))")
        #expect(choice.isOK("CHOOSE"), "\(choice)")
        #expect(choice.lines.first?.hasPrefix("CHOSE \(turn) ") == true, "\(choice)")
        daemon.kill9()
    }

    /// A file the test process opened without close-on-exec (as a test beside this one may, at the moment
    /// a daemon is spawned) is not inherited: CI once saw a daemon "holding" /proc/net/tcp and the check
    /// below fail.
    @Test func aChildInheritsNoDescriptorButItsStandardStreams() throws {
        let leaked = open("/proc/self/status", O_RDONLY)
        #expect(leaked > 2)
        defer { close(leaked) }
        let child = try Child("/bin/ls", ["/proc/self/fd"])
        #expect(child.wait(timeout: 10) == 0)
        let descriptors = child.output.split(separator: "\n").compactMap { Int($0) }
        // ls holds one more: the directory it is reading.
        #expect(descriptors.filter { $0 > 3 }.isEmpty && !descriptors.contains(Int(leaked)), "\(descriptors)")
    }

    /// Without `--state-dir` the daemon writes no file at all: it holds no file open, leaves its working
    /// directory empty, and a restart remembers nobody.
    @Test(.stretchedTimeLimit(minutes: 3)) func withoutAStateDirectoryNothingIsWritten() throws {
        let directory = try TemporaryDirectory("setd-nostate")
        let arguments = ["--seed", "3"]
        var daemon = try Daemon(arguments, workingDirectory: directory.path)
        let ann = try daemon.connect("ann")
        let token = try ann.hello("ann")
        let join = try ann.request("JOIN fun")
        let board = try #require(BoardView.last(in: join.lines))
        #expect(try ann.request(board.claim(board.sets[0])).isOK("CHOOSE"))
        #expect(try ann.request("CHAT anything to write down?").isOK("CHAT"))
        let targets = daemon.openDescriptorTargets
        let files = targets.filter {
            !($0.hasPrefix("socket:") || $0.hasPrefix("pipe:") || $0.hasPrefix("anon_inode:")
                || $0 == "/dev/null")
        }
        #expect(!targets.isEmpty && files.isEmpty, "open files: \(files)")
        daemon.kill9()
        #expect(directory.entries.isEmpty, "\(directory.entries)")

        daemon = try Daemon(arguments, workingDirectory: directory.path)
        let again = try daemon.connect("ann again")
        #expect(try again.request("RESUME \(token)").final.hasPrefix("ERR RESUME BADTOKEN "))
        #expect(try again.request("ROOMS").final == "OK ROOMS 0")
        daemon.kill9()
        #expect(directory.entries.isEmpty, "\(directory.entries)")
    }
}
