import SetGame
import SetProtocol

/// How a bot reads the server: every reply is matched to its command and every event is checked
/// against the rules and the bot's own view before it is applied.
extension BotSession {
    /// Handles one line from the server, received at `now`.
    func receive(_ line: ServerLine, now: UInt64) {
        stats.value.lines += 1
        linesOnConnection += 1
        remember(line)
        for received in replies.receive(line) { sort(received, now: now) }
        if view.protocolErrorCount > seenViewErrors {
            let described = view.drainProtocolErrors()
            for text in described { protocolError(text) }
            // Problems past the view's cap are still counted, without a description.
            for _ in described.count..<(view.protocolErrorCount - seenViewErrors) {
                protocolError("(more on that board)")
            }
            seenViewErrors = view.protocolErrorCount
        }
    }

    /// Acts on one line as the reply tracker sorted it.
    private func sort(_ received: ReplyTracker<Sent>.Received, now: UInt64) {
        switch received {
        case .reply(let reply):
            unstamped = min(unstamped, replies.count)
            countError(reply.line)
            handleReply(reply, now: now)
        case .unexpected(let line):
            countError(line)
            handleUnpaired(line, now: now)
        case .event(let line), .data(let line, _):
            // A snapshot's lines (the data of JOIN and RESUME) are checked and applied like events.
            stats.value.events += 1
            stats.value.eventCounts[BenchStats.eventIndex(line)] += 1
            handleEvent(line, now: now)
        }
    }

    private func countError(_ line: ServerLine) {
        if case .err(_, let code, _) = line { stats.value.errorCodes[code.rawValue, default: 0] += 1 }
    }

    /// A final line with no command pending.
    private func handleUnpaired(_ line: ServerLine, now: UInt64) {
        if phase == .greeting, case .err(_, .full, _) = line {
            // The server is full: it sends this instead of the greeting and closes.
            stats.value.connectFailures += 1
            unexpected("\(name): \(line.text)")
            wantsClose = .close
            goOffline(now: now, retryAfter: 1_000_000_000)
            return
        }
        protocolError("\(name): a reply with no command outstanding: \(line.text)")
    }

    private func handleReply(_ reply: ReplyTracker<Sent>.Reply, now: UInt64) {
        let line = reply.line
        let code = reply.errorCode
        let command = reply.command
        guard command.verb == reply.verb else {
            protocolError("\(name): reply out of order: got \(line.text) for \(command.verb)")
            return
        }
        // A bot that said QUIT waits only for the close: a late OK RESUME must not seat it again.
        guard phase != .quitting || command.verb == "QUIT" else { return }
        switch command.verb {
        case "HELLO": helloReplied(reply, now: now)
        case "RESUME": resumeReplied(reply, now: now)
        case "JOIN":
            guard code == nil else {
                unexpected("\(name): \(line.text)")
                wantsClose = .close
                phase = .finished
                return
            }
            stats.value.joins += 1
            seated(now: now)
        case "CHOOSE":
            if let claim = command.context.claim {
                claimReplied(claim, sentAt: command.context.sentAt, reply: reply, now: now)
            }
        case "NEW":
            if let code, code != .over { unexpected("\(name): \(line.text)") }
        case "QUIT":
            break
        case "READY":
            // The countdown may have ended (the host's START, the others ready) before it arrived.
            if let code, code != .notWaiting { unexpected("\(name): \(line.text)") }
        case "CHAT":
            chatsInFlight = max(0, chatsInFlight - 1)
            if code != nil { unexpected("\(name): \(line.text)") }
        default:
            if code != nil { unexpected("\(name): \(line.text)") }
        }
    }

    private func helloReplied(_ reply: ReplyTracker<Sent>.Reply, now: UInt64) {
        if reply.errorCode == .taken {
            // A bot of an earlier run, or this bot's own seat still held after a drop: try another name.
            generation += 1
            name = config.botName(index, generation: generation)
            send(.hello(name: name), now: now, forced: true)
            return
        }
        guard let detail = reply.okDetail else {
            unexpected("\(name): \(reply.line.text)")
            wantsClose = .close
            phase = .finished
            return
        }
        if case .hello(let confirmed, let newToken) = detail, confirmed == name {
            token = newToken
        } else {
            protocolError("\(name): OK HELLO should be '<name> <token>', got '\(detail.detail)'")
            token = nil
        }
        phase = .joining
        send(config.joinCommand(room.name), now: now, forced: true)
    }

    private func resumeReplied(_ reply: ReplyTracker<Sent>.Reply, now: UInt64) {
        guard let detail = reply.okDetail else {
            // The seat is gone (grace over, or the server restarted): start over as somebody new.
            token = nil
            generation += 1
            name = config.botName(index, generation: generation)
            forgetRoom()
            send(.hello(name: name), now: now, forced: true)
            return
        }
        guard case .resume(let confirmed, let resumedRoom, _) = detail, confirmed == name else {
            protocolError("\(name): OK RESUME should be '\(name) [<room> <count>]', got '\(detail.detail)'")
            return
        }
        if resumedRoom == room.name {
            stats.value.resumes += 1
            seated(now: now)
        } else {
            if let resumedRoom {
                protocolError("\(name): resumed into room \(resumedRoom), not \(room.name)")
            }
            forgetRoom()
            phase = .joining
            send(config.joinCommand(room.name), now: now, forced: true)
        }
    }

    private func claimReplied(
        _ claim: PendingClaim, sentAt: UInt64, reply: ReplyTracker<Sent>.Reply, now: UInt64
    ) {
        let code = reply.errorCode
        claimInFlight = false
        if sentAt > 0, now >= sentAt { stats.value.claimLatency.record(nanoseconds: now - sentAt) }
        let boardChanged = view.revision != claim.revision || claim.game != gameNumber
        let who = "\(name) claim @\(claim.revision)"
        if claim.game != gameNumber, code != .stale, code != .over {
            // The claim left during an earlier game and reached the server when the new game had come
            // to the same revision, so the server judged its positions against a board it never saw.
            stats.value.revisionReuses += 1
            protocolError(
                "\(who): sent in an earlier game, judged against the new game's board at the same revision "
                    + "(got \(code?.rawValue ?? "OK")); revisions restart at 1 each game")
            return
        }
        switch (claim.intent, code) {
        case (.valid, nil):
            if view.game == .set {
                stats.value.sets += 1
                let codes: [String]
                if case .choose(let cards) = reply.okDetail { codes = cards } else { codes = [] }
                let named = codes.compactMap { try? Card(anyCode: $0) }.sorted()
                if named != claim.cards.sorted() {
                    protocolError(
                        "\(who): OK CHOOSE \(codes.joined(separator: " ")) for a claim of \(claim.cards.map(\.code))"
                    )
                } else if lastOwnSet != named {
                    protocolError("\(who): OK CHOOSE without its SET event before it")
                }
            }
        case (.explore, nil):
            stats.value.sets += 1
        case (.explore, .notSet?):
            // What the positions turned over, as this bot's WRONG event (just before the reply) showed.
            if !boardChanged, lastOwnWrong.count == claim.positions.count {
                for (position, card) in zip(claim.positions, lastOwnWrong) { faceDownMemory[position] = card }
            }
        case (.valid, .stale?), (.wrong, .stale?), (.outOfTurn, .stale?), (.explore, .stale?):
            // Puzzle: a set somebody found first on the same board is stale too.
            let foundFirst = view.found.contains { Set($0) == Set(claim.cards) }
            if !boardChanged, view.status == .playing, !foundFirst {
                protocolError("\(who): STALE, but no newer board arrived")
            }
        case (_, .over?):
            if view.status != .over { protocolError("\(who): OVER, but no OVER event arrived") }
        case (.valid, .notSet?):
            protocolError("\(who): a valid claim \(claim.cards.map(\.code)) was refused as NOTSET")
        case (.valid, .notYourTurn?):
            if view.turn == name { protocolError("\(who): NOTYOURTURN on my turn") }
        case (.wrong, nil):
            protocolError("\(who): the server took \(claim.cards.map(\.code)), which is not a set")
        case (.wrong, .notSet?), (.stale, .stale?), (.outOfTurn, .notYourTurn?), (.outOfTurn, nil):
            break
        case (.stale, nil):
            protocolError("\(who): the server took a claim on an old board (now @\(view.revision))")
        case (_, let code?):
            unexpected("\(who): ERR CHOOSE \(code.rawValue)")
        }
        // An unchanged board means the claim changed nothing (a mistake, or a lost race): look again.
        if !boardChanged, view.status == .playing, isMyMove { thinkAt = now + thinkDelay() }
    }

    private func handleEvent(_ line: ServerLine, now: UInt64) {
        switch line {
        case .greeting(let version, _):
            guard linesOnConnection == 1 else {
                protocolError("\(name): a greeting in the middle of a connection")
                return
            }
            if version != 1 { protocolError("\(name): protocol version \(version), not 1") }
            if !isCounted {
                isCounted = true
                stats.value.connected += 1
                stats.value.connects += 1
                stats.value.peakConnected = max(stats.value.peakConnected, stats.value.connected)
            }
            // A bot told to stop while connecting has already sent QUIT; it has nobody to become.
            if phase == .greeting { identify(now: now) }
            return
        case .set(let who, let codes):
            checkSet(by: who, codes: codes, now: now)
        case .wrong(let who, let penalty, let codes, _):
            if who == name { lastOwnWrong = codes.compactMap { try? Card(anyCode: $0) } }
            if penalty < 0 { protocolError("\(name): WRONG \(who) with a negative penalty \(penalty)") }
            expectedScores[who] = score(of: who) - penalty
        case .chose(let who, let points, let text):
            expectedScores[who] = score(of: who) + points
            if who == name {
                if text.hasPrefix("Matched") { stats.value.sets += 1 }
            } else if let sent = room.claimTime(by: who, revision: view.revision), now >= sent {
                stats.value.fanoutLatency.record(nanoseconds: now - sent)
            }
        case .player(let who, let score, _):
            if let expected = expectedScores.removeValue(forKey: who) {
                if expected != score {
                    protocolError("\(name): \(who) has \(score) points, expected \(expected)")
                }
            } else if let known = scores[who], known != score {
                protocolError("\(name): \(who)'s score went from \(known) to \(score) with no SET or WRONG")
            }
            scores[who] = score
        case .left(let who):
            scores[who] = nil
        case .board(let revision, let cards):
            // Memory: a board that shrank closed its gaps by moving cards, so positions seen mean nothing.
            if cards.count < view.board.count { faceDownMemory = [:] }
            // Puzzle's board stays, revision and all, while its sets are found.
            if !isBoardFresh,
                revision < view.revision || (revision == view.revision && !view.setMode.isPuzzle)
            {
                protocolError("\(name): board revision went from \(view.revision) to \(revision)")
            }
            isBoardFresh = false
            if !cards.isEmpty { stats.value.dealtBoards += 1 }
            if view.game == .set, !view.board.isEmpty {
                let cards = view.setCards.compactMap { $0 }
                if cards.count == view.board.count {
                    earlier = BotStrategy.EarlierBoard(revision: view.revision, cards: cards)
                }
            }
        case .newGame:
            hasSeenWaiting = false
            gameNumber += 1
            expectedScores = [:]
            scores = scores.mapValues { _ in 0 }
            isBoardFresh = true
            lastOwnSet = nil
            memory = [:]
            newGameAt = nil
            earlier = nil
        case .over(let scores):
            checkOver(scores)
            gamesSeenOver += 1
            room.noteGamesFinished(gamesSeenOver)
        case .ping:
            send(.ping, now: now, forced: true)
        case .bye(let reason):
            stats.value.byes[reason, default: 0] += 1
        case .token(let fresh):
            // A RESUME retired the token presented: the next reconnect presents this one.
            token = fresh
        case .notice(let text):
            unexpected("\(name): NOTICE \(text)")
        case .chat(_, let text):
            if options.isChatOnly { timedChatReceived(text, now: now) }
        case .unknown(let text):
            let verb = String(decoding: text.utf8.prefix { $0 != 0x20 }, as: UTF8.self)
            if Self.knownVerbs.contains(verb) {
                protocolError("\(name): malformed line '\(text.prefix(80))'")
            }
        default:
            break
        }
        view.apply(line)
        switch line {
        case .room(let room, _, _, .waiting) where room == view.room:
            sayReadyIfWaiting(now: now)
        case .board:
            if view.game == .matchismo { BotStrategy.remember(view, into: &memory) }
            if view.game == .set { boardChanged(now: now) }
        case .turn:
            turnChanged(now: now)
        case .over:
            gameOver(now: now)
        default:
            break
        }
    }

    /// Counts and times a timed `CHAT <name> t<nanoseconds>` line straight from its bytes, without the
    /// full parse and checks, so that the bench's own cost does not drown the server's in a fan-out run;
    /// `false` for every other line (and outside ``BenchOptions/isChatOnly``), which takes the usual path.
    func receiveTimedChat(_ bytes: [UInt8], now: UInt64) -> Bool {
        guard options.isChatOnly, phase == .seated, bytes.starts(with: Self.chatPrefix),
            let space = bytes.lastIndex(of: 0x20), space + 2 < bytes.count,
            bytes[space + 1] == UInt8(ascii: "t")
        else { return false }
        var sentAt: UInt64 = 0
        for byte in bytes[(space + 2)...] {
            guard (0x30...0x39).contains(byte) else { return false }
            sentAt = sentAt &* 10 &+ UInt64(byte - 0x30)
        }
        stats.value.lines += 1
        linesOnConnection += 1
        stats.value.events += 1
        stats.value.eventCounts[Self.chatEventIndex] += 1
        stats.value.chatLatency.record(nanoseconds: now > sentAt ? now - sentAt : 0)
        return true
    }

    private static let chatPrefix = Array("CHAT ".utf8)
    private static let chatEventIndex = BenchStats.eventIndex(.chat(name: "x", text: "x"))

    /// A timed chat line (`t<nanoseconds>`, see ``timedChat(now:)``) reached this bot.
    private func timedChatReceived(_ text: String, now: UInt64) {
        guard text.utf8.first == UInt8(ascii: "t"), let sentAt = UInt64(text.dropFirst(), radix: 10) else {
            return
        }
        stats.value.chatLatency.record(nanoseconds: now > sentAt ? now - sentAt : 0)
    }

    /// First words of lines the protocol defines, so a line that starts with one but does not parse is
    /// reported instead of ignored.
    static let knownVerbs: Set<String> = [
        "SETD", "ROOM", "OPTIONS", "BOARD", "DECK", "CHAIN", "TURN", "PLAYER", "JOINED", "LEFT", "SET",
        "WRONG", "CHOSE", "CHAT", "NEWGAME", "VOTE", "OVER", "HINT", "FOUND", "CLOCK",
    ]

    private func checkSet(by who: String, codes: [String], now: UInt64) {
        let cards = codes.compactMap { try? Card(anyCode: $0) }
        let mode = view.setMode
        // Memory: the cards taken leave the bot's memory (new face-down cards lie where they were).
        faceDownMemory = faceDownMemory.filter { !cards.contains($0.value) }
        if cards.count != codes.count {
            protocolError("\(name): SET \(who) with an unreadable card: \(codes)")
        } else if !cards.allSatisfy(mode.hasCard) || !mode.isValidClaim(cards) {
            protocolError("\(name): SET \(who) \(codes) is not a valid claim in \(mode.rawValue) mode")
        } else if !view.isFaceDown {
            let board = view.setCards
            if let missing = cards.first(where: { !board.contains($0) && !view.chain.contains($0) }) {
                protocolError("\(name): SET \(who) names \(missing.code), which is not on the board")
            }
        }
        expectedScores[who] = score(of: who) + 1
        if who == name {
            lastOwnSet = cards.sorted()
        } else if let sent = room.claimTime(by: who, revision: view.revision), now >= sent {
            stats.value.fanoutLatency.record(nanoseconds: now - sent)
        }
    }

    private func checkOver(_ ranking: [(name: String, score: Int)]) {
        for (i, entry) in ranking.enumerated() {
            if i > 0, ranking[i - 1].score < entry.score {
                protocolError("\(name): OVER is not best first: \(ranking.map { "\($0.name):\($0.score)" })")
                break
            }
            if let known = scores[entry.name], known != entry.score {
                protocolError("\(name): OVER gives \(entry.name) \(entry.score), the room said \(known)")
            }
        }
    }

    private func score(of player: String) -> Int {
        expectedScores[player] ?? scores[player] ?? 0
    }
}
