import SetGame

/// What a client knows about its room, built only from the lines the server sent.
///
/// The terminal client renders it and the bots decide from it; neither trusts the server's text
/// further than this type checks it.
public struct GameView: Sendable {
    /// A seated player as the server last described them.
    public struct Player: Equatable, Sendable {
        /// The player's name.
        public var name: String
        /// Their score.
        public var score: Int
        /// Whether they are connected.
        public var isOnline: Bool
    }

    /// One position on the board.
    public enum Slot: Equatable, Sendable {
        /// A SET card.
        case set(Card)
        /// A Matchismo card face up, or face down when `nil`; `isMatched` when it is out of play. A SET
        /// memory board's face-down cards (`??`) are `playing(nil, isMatched: false)` too: a face-down card
        /// looks the same whatever the game.
        case playing(PlayingCard?, isMatched: Bool)
        /// A code this client cannot read; counted as a protocol error.
        case unreadable(String)
    }

    /// The room's name, or `nil` outside a room.
    public var room: String?
    /// The room's game.
    public var game = GameKind.set
    /// Whether the game is running.
    public var status = RoomStatus.playing
    /// The room's options as the server listed them.
    public var options: [String: String] = [:]
    /// The board revision.
    public var revision = 0
    /// The board, by position.
    public var board: [Slot] = []
    /// Cards left to deal.
    public var deckCount = 0
    /// The chain cards (SET chain mode).
    public var chain: [Card] = []
    /// Whose turn (Matchismo).
    public var turn: String?
    /// In puzzle, the claims found on this board (`FOUND`), and how many claims it holds in all.
    public var found: [[Card]] = []
    /// In puzzle, how many claims the board holds, found or not (`FOUND`).
    public var foundTotal = 0
    /// A timed or practice game's last `CLOCK` line: while running, the milliseconds paused so far;
    /// while paused, the play time at the pause (``playMilliseconds(atUnixMilliseconds:)`` reads it);
    /// `nil` before any.
    public var clock: (milliseconds: Int, isRunning: Bool)?
    /// Seated players in join order.
    public var players: [Player] = []
    /// The final scores, once the game is over.
    public var finalScores: [(name: String, score: Int)]?
    /// Who hosts the room (may `START`, `KICK`, `LOCK`), as the last `HOST` line said.
    public var host: String?
    /// The seconds left before the deal while a waiting room counts down (`COUNTDOWN`), else `nil`.
    public var countdown: Int?
    /// In a waiting room, how many of the online seated players said `READY`, as the last `READY` said.
    public var readyCount: (ready: Int, seated: Int)?
    /// The score sheet of the game that just ended (the `STATS` lines after `OVER`), in `OVER`'s order.
    public var scoreSheet: [ScoreSheetEntry] = []
    /// The length of the game that just ended, in milliseconds (`DURATION`).
    public var gameDuration: Int?
    /// When the game was dealt, in Unix milliseconds (`STARTED`), so a clock counts from the deal.
    public var startedAt: Int?
    /// The standing proposal for a new game (`PROPOSAL`), while one stands.
    public var proposal: Proposal?
    /// Problems found in what the server sent (bad card codes, duplicate cards) and not yet drained; at
    /// most ``maximumKeptErrors``, so a hostile server cannot grow the client's memory.
    public private(set) var protocolErrors: [String] = []
    /// Every problem found, drained or not, kept or not.
    public private(set) var protocolErrorCount = 0
    /// How many problem descriptions are kept until drained.
    public static let maximumKeptErrors = 64

    /// Creates an empty view.
    public init() {}

    /// The SET cards on the board, by position; `nil` where a position holds no SET card.
    public var setCards: [Card?] {
        board.map { slot in
            if case .set(let card) = slot { return card }
            return nil
        }
    }

    /// The SET mode the room's options name: `normal` when they name none (a Matchismo room) or one
    /// this client does not know.
    public var setMode: SetMode { options["mode"].flatMap(SetMode.init(rawValue:)) ?? .normal }

    /// Whether the board's cards lie face down (memory): positions are all a player can name.
    public var isFaceDown: Bool {
        game == .set && board.contains { if case .playing(nil, _) = $0 { true } else { false } }
    }

    /// Every valid set on the board, as positions, ignoring chain and ultra rules.
    public var setsOnBoard: [[Int]] {
        let cards = setCards
        guard cards.allSatisfy({ $0 != nil }) else { return [] }
        return SetRules.allSets(in: cards.map { $0! })
    }

    /// Applies one server line; returns whether it changed the view.
    @discardableResult
    public mutating func apply(_ line: ServerLine) -> Bool {
        switch line {
        case .room(let name, let game, _, let status):
            room = name
            self.game = game
            self.status = status
            if status != .over { finalScores = nil }
            if status != .waiting {
                countdown = nil
                readyCount = nil
            }
        case .options(let pairs):
            options = Dictionary(pairs, uniquingKeysWith: { _, last in last })
        case .board(let revision, let cards):
            self.revision = revision
            board = cards.map { Self.slot(for: $0.card, game: game) }
            checkBoard(cards.map(\.position))
        case .deck(let n):
            deckCount = n
        case .chain(let codes):
            chain = codes.compactMap { try? Card(anyCode: $0) }
        case .found(let total, let claims):
            foundTotal = total
            found = claims.map { $0.compactMap { try? Card(anyCode: $0) } }
        case .clock(let ms, let isRunning):
            clock = (ms, isRunning)
        case .turn(let name):
            turn = name == "-" ? nil : name
        case .player(let name, let score, let isOnline):
            let player = Player(name: name, score: score, isOnline: isOnline)
            if let i = players.firstIndex(where: { $0.name == name }) {
                players[i] = player
            } else {
                players.append(player)
            }
        case .left(let name):
            players.removeAll { $0.name == name }
        case .newGame:
            players = players.map { Player(name: $0.name, score: 0, isOnline: $0.isOnline) }
            finalScores = nil
            chain = []
            (found, foundTotal, clock) = ([], 0, nil)
            (scoreSheet, gameDuration, countdown, readyCount) = ([], nil, nil, nil)
            (startedAt, proposal) = (nil, nil)
        case .over(let scores):
            finalScores = scores
            status = .over
            (scoreSheet, gameDuration) = ([], nil)
        case .host(let name):
            host = name
        case .countdown(let n):
            countdown = n
        case .countdownStopped:
            countdown = nil
        case .ready(_, let ready, let seated), .unready(_, let ready, let seated):
            readyCount = (ready, seated)
        case .started(let ms):
            startedAt = ms
        case .proposal(let standing):
            proposal = standing
        case .stats(let entry):
            scoreSheet.append(entry)
        case .duration(let ms):
            gameDuration = ms
        default:
            return false
        }
        return true
    }

    /// Returns the problems kept so far and forgets them.
    public mutating func drainProtocolErrors() -> [String] {
        defer { protocolErrors = [] }
        return protocolErrors
    }

    private mutating func report(_ problem: String) {
        protocolErrorCount += 1
        if protocolErrors.count < Self.maximumKeptErrors { protocolErrors.append(problem) }
    }

    /// Forgets the room, for `LEAVE` or before a new snapshot.
    public mutating func reset() {
        let (errors, count) = (protocolErrors, protocolErrorCount)
        self = GameView()
        (protocolErrors, protocolErrorCount) = (errors, count)
    }

    private static func slot(for code: String, game: GameKind) -> Slot {
        if game == .matchismo {
            if code == "??" { return .playing(nil, isMatched: false) }
            let isMatched = code.hasPrefix("=")
            if let card = PlayingCard(code: isMatched ? code.dropFirst() : Substring(code)) {
                return .playing(card, isMatched: isMatched)
            }
            return .unreadable(code)
        }
        if code == "??" { return .playing(nil, isMatched: false) }  // memory's face-down card
        if let card = try? Card(anyCode: code) { return .set(card) }
        return .unreadable(code)
    }

    private mutating func checkBoard(_ positions: [String]) {
        // Each board a client reads is checked: the positions compared on their bytes and the cards
        // marked in a bit set, not a position's name made and a hash set built every time.
        var isTwice = false
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (Card.universe.count + 63) / 64) { seen in
            seen.initialize(repeating: 0)
            for (i, slot) in board.enumerated() {
                if case .unreadable(let code) = slot { report("unreadable card '\(code)'") }
                if !Self.isPositionName(positions[i], of: i) {
                    report("position \(positions[i]) out of order at \(i)")
                }
                guard case .set(let card) = slot else { continue }
                let (word, bit) = (card.index / 64, UInt64(1) << (card.index % 64))
                isTwice = isTwice || seen[word] & bit != 0
                seen[word] |= bit
            }
        }
        if isTwice { report("a card twice on the board") }
    }

    /// Whether `text` is ``SetGame/positionName(_:)`` of `position`, read on its bytes.
    private static func isPositionName(_ text: String, of position: Int) -> Bool {
        let utf8 = text.utf8
        switch position {
        case 0..<26: return utf8.count == 1 && utf8.first == UInt8(97 + position)
        case 26..<52:
            return utf8.count == 2 && utf8.first == 0x7A && utf8.last == UInt8(97 + position - 26)
        default: return text == SetGame.positionName(position)
        }
    }
}
