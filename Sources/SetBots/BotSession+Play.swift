import Foundation
import SetGame
import SetProtocol

/// How a bot plays: when it looks at the board, what it claims, when it chats, leaves and comes back.
extension BotSession {
    /// Forgets everything about the room, before a new snapshot of it.
    func forgetRoom() {
        view.reset()
        isBoardFresh = true
        expectedScores = [:]
        scores = [:]
        lastOwnSet = nil
        memory = [:]
        faceDownMemory = [:]
        earlier = nil
        hasSeenWaiting = false
    }

    /// In a room that waits for its players (`start=ready`, made by a person with set-cli or the page),
    /// says `READY` once, as a friend at the table would, unless the run leaves the start to the host
    /// (`--wait-for-host`). Bots that only hold connections or chat never do.
    func sayReadyIfWaiting(now: UInt64) {
        guard phase == .seated, view.status == .waiting, !hasSeenWaiting else { return }
        hasSeenWaiting = true
        stats.value.waitingRooms += 1
        guard !options.waitsForHost, !options.isIdle, !options.isChatOnly else { return }
        send(.ready, now: now, forced: true)
        stats.value.readies += 1
    }

    func identify(now: UInt64) {
        forgetRoom()
        phase = .identifying
        if let token {
            send(.resume(token: token), now: now, forced: true)
        } else {
            send(.hello(name: name), now: now, forced: true)
        }
    }

    func seated(now: UInt64) {
        phase = .seated
        stats.value.seatLatency.record(nanoseconds: now > connectStartedAt ? now - connectStartedAt : 0)
        guard !options.isIdle else { return }
        if options.isChatOnly {
            startTimedChat(now: now)
            return
        }
        if options.chatEvery > 0 { chatAt = now + exponentialNanoseconds(mean: options.chatEvery) }
        if options.resumeEvery > 0 { dropAt = now + exponentialNanoseconds(mean: options.resumeEvery) }
        sayReadyIfWaiting(now: now)
        if view.status == .over {
            gameOver(now: now)
        } else if view.game == .set {
            boardChanged(now: now)
        } else {
            turnChanged(now: now)
        }
    }

    /// Whether the bot may move now: always in SET, on its turn in Matchismo.
    var isMyMove: Bool { view.game == .set || view.turn == name }

    func boardChanged(now: UInt64) {
        guard phase == .seated, !options.isIdle, !options.isChatOnly, view.status == .playing else { return }
        thinkAt = now + thinkDelay()
    }

    func turnChanged(now: UInt64) {
        guard phase == .seated, !options.isIdle, !options.isChatOnly, view.status == .playing else { return }
        if view.turn == name {
            thinkAt = now + thinkDelay()
        } else if options.mistakes > 0, BotStrategy.unitRandom(&rng) < options.mistakes / 2 {
            thinkAt = now + thinkDelay()  // An impatient choice out of turn.
        } else {
            thinkAt = nil
        }
    }

    func gameOver(now: UInt64) {
        thinkAt = nil
        guard phase == .seated, !options.isIdle, !options.isChatOnly else { return }
        // One bot restarts the room, the first of ours online, so that bots do not turn each other's
        // NEW into votes; the others stand by in case it is away.
        let leader = view.players.first { $0.isOnline && config.isBot($0.name) }?.name
        let pause = options.isFlatOut ? 0 : UInt64(500_000_000) + thinkDelay() / 4
        newGameAt = now + (leader == name ? pause : 5_000_000_000 + uniformNanoseconds(0...5000))
    }

    func startNewGame(now: UInt64) {
        newGameAt = nil
        guard view.status == .over else { return }
        guard bucket.take(now: now) else {
            newGameAt = bucket.nextToken(now: now)
            return
        }
        send(.new(options: [:]), now: now)
    }

    func chat(now: UInt64) {
        guard !options.isChatOnly else {
            timedChat(now: now)
            return
        }
        chatAt = now + exponentialNanoseconds(mean: options.chatEvery)
        guard bucket.take(now: now) else { return }
        let phrase = BotConfig.phrases[rng.next(below: BotConfig.phrases.count)]
        send(.chat(text: phrase), now: now)
        stats.value.chats += 1
    }

    /// The first timed chat of a sender: a random phase within its interval, so senders spread out.
    func startTimedChat(now: UInt64) {
        guard index < options.chatSenderCount else { return }
        chatAt = now + UInt64(BotStrategy.unitRandom(&rng) * Double(timedChatInterval))
    }

    /// Nanoseconds between one sender's timed chat lines.
    var timedChatInterval: UInt64 {
        UInt64(max(1, 1e9 * Double(options.chatSenderCount) / options.chatRate))
    }

    /// Sends every timed chat line that is due (within the window), each saying when it was sent; the
    /// schedule is kept, not restarted, so a late wake-up catches up instead of lowering the rate.
    func timedChat(now: UInt64) {
        while let at = chatAt, at <= now, chatsInFlight < options.chatWindow {
            send(.chat(text: "t\(now)"), now: now)
            chatsInFlight += 1
            stats.value.chats += 1
            chatAt = at + timedChatInterval
        }
        // Far behind (flat out, or a stalled machine): no burst to catch up with, go on from now.
        if let at = chatAt, now > at, now - at > 1_000_000_000 { chatAt = now }
    }

    func act(now: UInt64) {
        guard view.status == .playing else {
            thinkAt = nil
            return
        }
        guard bucket.take(now: now) else {
            thinkAt = bucket.nextToken(now: now)
            return
        }
        thinkAt = nil
        var claim: PendingClaim
        let command: Command
        if view.game == .set {
            let planned =
                view.isFaceDown
                ? BotStrategy.planMemoryClaim(in: view, remembered: faceDownMemory, using: &rng)
                : BotStrategy.planClaim(in: view, earlier: earlier, mistakes: options.mistakes, using: &rng)
            guard let plan = planned else { return }
            let intent: ClaimIntent =
                switch plan.intent {
                case .valid: .valid
                case .wrong: .wrong
                case .stale: .stale
                case .explore: .explore
                }
            claim = PendingClaim(intent: intent, revision: plan.revision, cards: plan.cards)
            claim.positions = plan.picks.compactMap { if case .position(let p) = $0 { p } else { nil } }
            command = plan.command
        } else {
            guard let position = matchismoPosition() else { return }
            if view.turn != name {
                claim = PendingClaim(intent: .outOfTurn, revision: view.revision, cards: [])
                command = .choose(picks: [.position(position)], revision: view.revision)
            } else if options.mistakes > 0, view.revision > 1,
                BotStrategy.unitRandom(&rng) < options.mistakes / 2
            {
                claim = PendingClaim(intent: .stale, revision: view.revision - 1, cards: [])
                command = .choose(picks: [.position(position)], revision: view.revision - 1)
            } else {
                claim = PendingClaim(intent: .valid, revision: view.revision, cards: [])
                command = .choose(picks: [.position(position)], revision: view.revision)
            }
        }
        claim.game = gameNumber
        send(command, claim: claim, now: now)
        claimInFlight = true
        stats.value.claims += 1
        if claim.intent != .valid && claim.intent != .explore { stats.value.mistakes += 1 }
    }

    private func matchismoPosition() -> Int? {
        // Positions past `z` cannot be named; the protocol keeps boards within 26 cards.
        let position = BotStrategy.matchismoChoice(in: view, memory: memory, using: &rng)
        return position.flatMap { $0 < 26 ? $0 : nil }
    }

    /// Leaves the room for a while: mostly a dropped connection that comes back with `RESUME`,
    /// sometimes a clean `QUIT` and a return as a new player.
    func drop(now: UInt64) {
        dropAt = nil
        if BotStrategy.unitRandom(&rng) < 0.25 {
            send(.quit, now: now, forced: true)
            phase = .quitting
        } else {
            wantsClose = BotStrategy.unitRandom(&rng) < 0.5 ? .reset : .close
            if isCounted {
                isCounted = false
                stats.value.connected -= 1
            }
            goOffline(now: now, retryAfter: uniformNanoseconds(200...2000))
        }
    }

    func goOffline(now: UInt64, retryAfter delay: UInt64) {
        remember(.unknown("(offline)"))
        resetConnectionState()
        if isStopping {
            phase = .finished
            return
        }
        phase = .offline
        connectAt = now + delay
    }

    func resetConnectionState() {
        replies.removeAll()
        unstamped = 0
        outbox.removeAll()
        claimInFlight = false
        thinkAt = nil
        chatAt = nil
        chatsInFlight = 0
        dropAt = nil
        newGameAt = nil
    }
}
