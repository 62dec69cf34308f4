import Foundation
import SetGame
import SetProtocol

/// One bot: a protocol client that plays like a person and checks everything the server says.
///
/// It has no socket and no clock: the driver hands it lines and the time, and takes back the bytes it
/// wants to send, whether it wants to connect or close, and when it next wants to be woken. That keeps
/// the whole protocol side testable with hand-written server lines.
///
/// Ownership: a session is used only on its shard's queue.
final class BotSession {
    /// Where the bot is in its connection's life.
    enum Phase: Equatable {
        /// Not connected; ``connectAt`` says when to connect again.
        case offline
        /// The driver is opening a connection.
        case connecting
        /// Connected, waiting for `SETD`.
        case greeting
        /// `HELLO` or `RESUME` sent.
        case identifying
        /// `JOIN` sent.
        case joining
        /// In the room, playing.
        case seated
        /// `QUIT` sent; the server will close.
        case quitting
        /// Done for this run.
        case finished
    }

    /// How the driver should close the connection.
    enum Close: Equatable {
        /// A normal close.
        case close
        /// A TCP reset, like a crashed client.
        case reset
    }

    /// What a claim was meant to be, to judge its reply.
    enum ClaimIntent: Equatable {
        case valid
        case wrong
        case stale
        /// A Matchismo choice out of turn, on purpose.
        case outOfTurn
        /// Memory: face-down cards turned over to see them; a set or `NOTSET` are both fine.
        case explore
    }

    struct PendingClaim: Equatable {
        var intent: ClaimIntent
        var revision: Int
        var cards: [Card]
        /// The positions named, in memory (where the cards turned over will be remembered).
        var positions: [Int] = []
        /// How many `NEWGAME`s the bot had seen when it claimed: revisions restart at 1 each game, so
        /// the revision alone does not say which board a claim meant.
        var game = 0
    }

    /// What a bot keeps with a command until its reply.
    struct Sent {
        /// When it was written to the socket; 0 until then.
        var sentAt: UInt64
        var claim: PendingClaim?
    }

    /// The bot's number in the fleet.
    let index: Int
    let config: BotConfig
    let room: RoomLedger
    /// Counters shared by the shard's bots.
    let stats: StatsBox
    var name: String
    var generation = 0
    var token: String?
    var phase = Phase.offline
    var view = GameView()
    var seenViewErrors = 0
    var rng: SeededGenerator
    var bucket: TokenBucket

    /// Bytes to send, in order; the driver takes them once per pass.
    var outbox: [UInt8] = []
    /// Commands waiting for their replies, oldest first.
    var replies = ReplyTracker<Sent>()
    /// How many of the newest pending commands are still in the outbox, not stamped with a send time.
    var unstamped = 0

    /// When to connect, while offline.
    var connectAt: UInt64?
    var thinkAt: UInt64?
    var chatAt: UInt64?
    /// Timed `CHAT`s sent and not yet answered.
    var chatsInFlight = 0
    var dropAt: UInt64?
    var newGameAt: UInt64?
    var connectStartedAt: UInt64 = 0
    var isCounted = false
    var isStopping = false

    /// Set when the bot wants the driver to open a connection.
    var wantsConnect = false
    /// Set when the bot wants the driver to close its connection.
    var wantsClose: Close?

    var claimInFlight = false
    var earlier: BotStrategy.EarlierBoard?
    var memory: [Int: PlayingCard] = [:]
    /// Memory (SET): the face-down cards this bot has seen turned over, by position.
    var faceDownMemory: [Int: Card] = [:]
    /// The cards of this bot's last `WRONG` event, in the order it named them: in memory, what its
    /// positions turned over.
    var lastOwnWrong: [Card] = []
    var expectedScores: [String: Int] = [:]
    /// Every seated player's score as last shown, by name: the view keeps them in an array, and a full
    /// room would otherwise cost a linear search per line.
    var scores: [String: Int] = [:]
    var lastOwnSet: [Card]?
    var isBoardFresh = true
    /// Whether the bot said `READY` (or saw the room waiting, leaving the start to its host) in the
    /// waiting room it is in; cleared by a new game and a new snapshot.
    var hasSeenWaiting = false
    var gamesSeenOver = 0
    /// `NEWGAME`s seen, to tell which game a claim was made in.
    var gameNumber = 0
    /// The last lines received, to show with the first errors of a run.
    var recent = [ServerLine](repeating: .unknown(""), count: BotSession.recentCapacity)
    var recentCount = 0
    /// Lines received on the current connection; the greeting must be the first.
    var linesOnConnection = 0
    static let recentCapacity = 16

    init(index: Int, config: BotConfig, room: RoomLedger, stats: StatsBox, seed: UInt64, connectAt: UInt64) {
        self.index = index
        self.config = config
        self.room = room
        self.stats = stats
        self.name = config.botName(index, generation: 0)
        self.rng = SeededGenerator(seed: seed)
        let rate = config.options.commandRate
        self.bucket = TokenBucket(rate: rate, burst: max(1, rate), now: connectAt)
        self.connectAt = connectAt
    }

    var options: BenchOptions { config.options }

    /// The earliest time the bot wants to be woken, or `nil` when it waits only for lines.
    var nextWake: UInt64? {
        switch phase {
        case .offline: return connectAt
        case .seated:
            // A think time that ran out while a claim is in flight waits for the reply, not the clock.
            var earliest = claimInFlight ? UInt64.max : thinkAt ?? .max
            for time in [chatAt, dropAt, newGameAt] { if let time, time < earliest { earliest = time } }
            return earliest == .max ? nil : earliest
        default: return nil
        }
    }

    /// Whether the bot has nothing more to do in this run.
    var isFinished: Bool { phase == .finished }

    // MARK: - Driver events

    /// The driver has the bytes of the outbox; they are on their way at `now`.
    func takeOutput(now: UInt64) -> [UInt8] {
        guard !outbox.isEmpty else { return [] }
        for i in (replies.count - unstamped)..<replies.count {
            replies[i].context.sentAt = now
            if let claim = replies[i].context.claim, claim.intent == .valid {
                room.recordClaim(by: name, revision: claim.revision, at: now)
            }
        }
        unstamped = 0
        let bytes = outbox
        outbox.removeAll(keepingCapacity: true)
        return bytes
    }

    /// The driver started connecting.
    func connecting(now: UInt64) {
        remember(.unknown("(connecting)"))
        wantsConnect = false
        phase = .connecting
        connectStartedAt = now
    }

    /// The connection is made; the greeting comes next.
    func connected(now: UInt64) {
        remember(.unknown("(connected in \(phase))"))
        linesOnConnection = 0
        guard phase == .connecting else { return }
        phase = .greeting
    }

    /// The connection could not be made.
    func connectFailed(now: UInt64, _ reason: String) {
        stats.value.connectFailures += 1
        stats.value.recordIncident("\(name): connect: \(reason)")
        goOffline(now: now, retryAfter: 1_000_000_000)
    }

    /// The connection ended (the server closed it, or the driver did on the bot's request).
    func connectionEnded(now: UInt64, byServer: Bool) {
        remember(.unknown("(closed by the server in \(phase))"))
        if isCounted {
            isCounted = false
            stats.value.connected -= 1
        }
        let wasQuitting = phase == .quitting
        if byServer, !wasQuitting, phase != .offline, phase != .finished {
            stats.value.disconnects += 1
            stats.value.recordIncident("\(name): the server closed the connection")
        }
        if isStopping {
            phase = .finished
            resetConnectionState()
            return
        }
        if wasQuitting {
            // After a clean QUIT the bot comes back as somebody new.
            token = nil
            generation += 1
            name = config.botName(index, generation: generation)
        }
        if phase != .offline { goOffline(now: now, retryAfter: uniformNanoseconds(200...2000)) }
    }

    /// Asks the bot to say goodbye: `QUIT` if connected, else stop at once.
    func stop(now: UInt64) {
        isStopping = true
        switch phase {
        case .greeting, .identifying, .joining, .seated:
            send(.quit, now: now, forced: true)
            phase = .quitting
        case .connecting:
            wantsClose = .close
            phase = .finished
        case .offline:
            phase = .finished
        case .quitting, .finished:
            break
        }
    }

    /// Gives up waiting for the server (the end of the run's grace).
    func abandon() {
        guard phase != .finished else { return }
        if phase != .offline { wantsClose = .close }
        phase = .finished
    }

    /// Does whatever is due at `now`.
    func tick(now: UInt64) {
        switch phase {
        case .offline:
            if let at = connectAt, at <= now, !isStopping {
                connectAt = nil
                wantsConnect = true
            }
        case .seated:
            if let at = dropAt, at <= now {
                drop(now: now)
                return
            }
            if let at = newGameAt, at <= now { startNewGame(now: now) }
            if let at = chatAt, at <= now { chat(now: now) }
            if let at = thinkAt, at <= now, !claimInFlight { act(now: now) }
        default:
            break
        }
    }

    // MARK: - Helpers

    func send(_ command: Command, claim: PendingClaim? = nil, now: UInt64, forced: Bool = false) {
        if forced { bucket.force(now: now) }
        let text = command.text
        remember(.unknown("> " + text))
        outbox.append(contentsOf: text.utf8)
        outbox.append(0x0A)
        replies.sent(command.verb.rawValue, context: Sent(sentAt: 0, claim: claim))
        unstamped += 1
        stats.value.commands += 1
    }

    func protocolError(_ text: String) {
        stats.value.recordProtocolError(withRecentLines(text))
    }

    func unexpected(_ text: String) {
        stats.value.recordUnexpected(withRecentLines(text))
    }

    /// Keeps a line (or a note, as an unknown line) in the ring of recent lines.
    func remember(_ line: ServerLine) {
        recent[recentCount % Self.recentCapacity] = line
        recentCount &+= 1
    }

    /// The text with the last lines the bot received, for the first few samples a report keeps.
    private func withRecentLines(_ text: String) -> String {
        guard stats.value.protocolErrorSamples.count + stats.value.incidentSamples.count < 6 else {
            return text
        }
        let count = min(recentCount, Self.recentCapacity)
        let lines = (0..<count).map { recent[(recentCount - count + $0) % Self.recentCapacity].text }
        return text + " | after: " + lines.joined(separator: " / ")
    }

    func thinkDelay() -> UInt64 {
        let think = options.think
        return think.upperBound == 0 ? 0 : uniformNanoseconds(think)
    }

    func uniformNanoseconds(_ milliseconds: ClosedRange<Int>) -> UInt64 {
        let span = milliseconds.upperBound - milliseconds.lowerBound
        let ms = milliseconds.lowerBound + (span > 0 ? rng.next(below: span + 1) : 0)
        return UInt64(ms) * 1_000_000 + UInt64(rng.next(below: 1_000_000))
    }

    func exponentialNanoseconds(mean seconds: Double) -> UInt64 {
        let u = max(BotStrategy.unitRandom(&rng), 1e-12)
        return UInt64(min(-log(u) * seconds, 86_400) * 1e9)
    }
}

/// The statistics of one shard, shared by reference by its bots (all on the shard's queue).
final class StatsBox {
    var value = BenchStats()
}
