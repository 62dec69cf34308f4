import SetGame
import SetProtocol

/// One line of the journal: a change that was accepted, in the order it was accepted, or the whole state
/// of a room.
///
/// A compacted journal is a header, the archive, and one snapshot per room; the records after it are
/// changes, replayed through the same rules (games are deterministic from their seed), so restoring
/// costs the size of the state plus the changes since the last compaction.
public enum JournalRecord: Equatable, Sendable {
    /// The first record of a journal: its format's version.
    case header(version: Int)
    /// The whole state of a room at a compaction.
    indirect case snapshot(RoomSnapshot)
    /// A room was created with these options; its games' seeds all derive from `seed`.
    case room(name: String, seed: UInt64, options: [(String, String)])
    /// Game number `index` of the room started at `time` (Unix seconds) with these options, its board at
    /// revision `firstRevision`.
    case game(room: String, index: Int, time: Double, firstRevision: Int, options: [(String, String)])
    /// A player took a seat (their token lets them `RESUME` it).
    case seat(room: String, name: String, token: String)
    /// A `RESUME` replaced a seated player's token: `old` no longer resumes the seat, `new` does.
    case token(room: String, name: String, old: String, new: String)
    /// A player left their seat.
    case unseat(room: String, name: String)
    /// A seated player dropped (`false`) or came back (`true`); Matchismo's turn order depends on it.
    case presence(room: String, name: String, isOnline: Bool)
    /// A SET claim that was judged (a set or a wrong claim), by card code.
    case claim(room: String, name: String, time: Double, cards: [String])
    /// A Matchismo choice of the card at a position.
    case choose(room: String, name: String, time: Double, position: Int)
    /// Somebody chatted.
    case chat(room: String, name: String, text: String)
    /// The room closed: nobody was left in it.
    case close(room: String)
    /// A finished game, kept for `HISTORY <room>`.
    indirect case archive(room: String, game: ArchivedGame)
    /// The server started again on this journal at `time` (Unix seconds): every seated player is away.
    case restart(time: Double)
    /// A player voted for a new game with these options (a vote that starts the game is its `game`
    /// record instead).
    case vote(room: String, name: String, options: [(String, String)])
    /// A waiting room's countdown began; a restart that finds it under way counts down again.
    case countdown(room: String)
    /// A player of a waiting room said `READY`.
    case ready(room: String, name: String)
    /// A player of a waiting room took back their `READY` (`UNREADY`); a countdown under way stopped.
    case unready(room: String, name: String)
    /// A waiting room's countdown ended and its game was dealt at `time` (Unix seconds).
    case deal(room: String, time: Double)
    /// A practice game was paused or went on again, or a timed game's time was called, at `time` (Unix
    /// seconds): the timed game's clock leaves the pauses out, and ends it when the journal says so.
    case clock(room: String, change: ClockChange, time: Double)
    /// A SET claim came too late (`STALE`): it changes no board, only the score sheet.
    case stale(room: String, name: String)
    /// The host locked (`true`) or unlocked the room.
    case lock(room: String, isLocked: Bool, by: String)
    /// The host took `name`'s seat; the `unseat` record follows. The name, and `address` (the kicked
    /// connection's address key, empty if they were away), may not come back before `until` (Unix
    /// seconds); a record from before bans had no `until`, and bans the name while the room exists.
    case kick(room: String, name: String, by: String, address: String = "", until: Double? = nil)
    /// The host let a kicked name (and the address kicked with it) back into the room (`ALLOW`).
    case allow(room: String, name: String, by: String)
    /// A name's totals and rating in a mode, as they are after a game (the rating's exact bits).
    case rating(
        name: String, mode: String, rating: UInt64, games: Int, wins: Int, sets: Int, wrong: Int, stale: Int)
    /// A name gained `amount` (the exact bits of a positive rating change) in `mode` from a game that
    /// ended at `time` (Unix seconds): what bounds a name's gains per hour (`RatingBook.hourlyGainLimit`).
    case gain(name: String, mode: String, time: Double, amount: UInt64)
    /// A name was claimed, in the first form of claims: the salt and the SHA-1 digest of salt + key, as
    /// hex. Read from older journals only; a claim is written as ``nameKey(name:secret:address:claimedAt:usedAt:)``.
    case nameClaim(name: String, salt: String, digest: String)
    /// A name was claimed: the stored form of its key (`pbkdf2-sha1$…`, or `sha1$<salt>$<digest>` for a
    /// claim of the first form not used since), the address (or IPv6 /64) that claimed it (empty when
    /// not known), when it was claimed and when it was last used (Unix seconds).
    case nameKey(name: String, secret: String, address: String, claimedAt: Double, usedAt: Double)
    /// A claimed name was used with its key at `time` (journaled at most once a day per name).
    case nameUsed(name: String, time: Double)
    /// A claimed name was freed: unused for longer than `--name-expiry-days`.
    case nameFree(name: String)
    /// Something for the current game's record that no other record gives with its time: a join, a
    /// leave, a kick, a vote, a stale claim (`RECORD`); it changes nothing else.
    case recordEvent(room: String, event: GameRecord.Event)
    /// A player offered to play again (`REMATCH`) after the game ended; the offer that starts the new
    /// game is followed by its `game` record.
    case rematch(room: String, name: String)
    /// The host cleared the room's standings for the night (`STANDINGS reset`).
    case standingsReset(room: String, by: String)

    public static func == (lhs: JournalRecord, rhs: JournalRecord) -> Bool {
        JournalCoding.sameBytes(lhs.body[...], rhs.body[...])
    }
}

/// A finished game: when it ran, the final scores and every set or choice with its time.
public struct ArchivedGame: Equatable, Sendable {
    // Every stored property clears `fields` when it changes: the bytes kept are those of the game as it
    // is, or none.

    /// Unix time the game started.
    public var startedAt: Double { didSet { fields = nil } }
    /// Unix time of its last set or choice.
    public var endedAt: Double { didSet { fields = nil } }
    /// The room's password when the game was played, `nil` for a public game: a private game's history
    /// is for those inside its room under the same password, whatever the room's name has become since.
    public var password: String? { didSet { fields = nil } }
    /// Whether the game was played in a private room.
    public var isPrivate: Bool { password != nil }
    /// Best first.
    public var scores: [(name: String, score: Int)] { didSet { fields = nil } }
    /// Seconds since the start, who, and what: the cards of a set, or a Matchismo history entry.
    public var entries: [(seconds: Int, name: String, detail: String)] { didSet { fields = nil } }
    /// The score sheet, in `OVER`'s order (empty for a game archived before score sheets).
    public var sheet: [ScoreSheetEntry] { didSet { fields = nil } }
    /// The game's length in milliseconds, deal to last set (`nil` before score sheets).
    public var duration: Int? { didSet { fields = nil } }
    /// The game's record (`RECORD <id>`), `nil` for a game archived before records.
    public var record: GameRecord? { didSet { fields = nil } }
    /// The game's fields as its `archive` record writes them after the room's name, once written or
    /// read (see ``JournalRecord/body``): an archived game never changes, and every rewrite of the
    /// journal (each start, each end of an outage) holds the whole archive again, whose game records'
    /// JSON is the dearest thing the journal writes.
    var fields: EncodedFields?
    /// The record's id, `nil` for a game archived before records.
    public var id: String? { record?.id }

    /// Creates an archived game.
    public init(
        startedAt: Double, endedAt: Double, password: String? = nil, scores: [(name: String, score: Int)],
        entries: [(seconds: Int, name: String, detail: String)], sheet: [ScoreSheetEntry] = [],
        duration: Int? = nil, record: GameRecord? = nil
    ) {
        self.record = record
        self.sheet = sheet
        self.duration = duration
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.password = password
        self.scores = scores
        self.entries = entries
    }

    public static func == (lhs: ArchivedGame, rhs: ArchivedGame) -> Bool {
        JournalRecord.archive(room: "", game: lhs) == JournalRecord.archive(room: "", game: rhs)
    }

    /// Bytes written once and shared by every copy of the game that holds them; never changed, so a
    /// copy sent to another thread shares nothing that changes.
    final class EncodedFields: Sendable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }
}

/// A room's whole state, as a journal snapshot keeps it.
public struct RoomSnapshot: Equatable, Sendable {
    /// A seat: who, the token that resumes it, and whether they were online.
    public struct Seat: Equatable, Sendable {
        /// The player's name.
        public var name: String
        /// The secret `RESUME` presents.
        public var token: String
        /// Whether they were connected.
        public var isOnline: Bool
    }

    /// The game being played.
    public enum Game: Equatable, Sendable {
        /// A game of SET.
        case set(SetGame.State)
        /// A game of Matchismo.
        case matchismo(MatchismoGame.State)
    }

    /// The room's name.
    public var name: String
    /// The seed every game of the room derives from.
    public var seed: UInt64
    /// The room's options as the journal keeps them (the game, the listed options, the password).
    public var options: [(String, String)]
    /// The number of the current game.
    public var gameIndex: Int
    /// Unix time the current game started.
    public var startedAt: Double
    /// Unix time of each history entry of the current game.
    public var historyTimes: [Double]
    /// Who asked for a new game during this one, each with the options they voted for.
    public var votes: [(name: String, options: [(String, String)])]
    /// The player who created the room, who alone may set its password.
    public var creator: String
    /// The seats, in join order.
    public var seats: [Seat]
    /// The game.
    public var game: Game
    /// What the game-night features keep: absent from snapshots written before them.
    public var night = Night()

    /// A room's readiness, host, lock and score sheet so far.
    public struct Night: Equatable, Sendable {
        /// Whether the room waits for `READY`/`START` (a countdown under way restores as waiting).
        public var isWaiting = false
        /// Who said `READY`, in name order.
        public var ready: [String] = []
        /// The host, `nil` while nobody is seated.
        public var host: String?
        /// Whether the host locked the room.
        public var isLocked = false
        /// Names kicked before kicks expired, in name order: they may not join again.
        public var kicked: [String] = []
        /// Kicks that hold a name and an address until a time, in name order.
        public var bans: [KickBan] = []
        /// The current game's score sheet so far.
        public var tally = GameTally()
        /// Whether the countdown to the deal was under way (absent from snapshots written before it).
        public var isCountingDown = false
        /// Seconds the current game spent paused before the pause under way, if any (practice games):
        /// a timed game's clock leaves them out.
        public var pausedSeconds = 0.0
        /// Unix time the current pause began, while the game is paused.
        public var pausedAt: Double?
        /// The current game's record so far (`RECORD`): its events in order.
        public var recordEvents: [GameRecord.Event] = []
        /// The current game's events past the record's limit: counted, not kept.
        public var recordOmitted = 0
        /// Who was seated when the current game was dealt.
        public var dealtIn: [String] = []
        /// The room's standings for the night.
        public var standings = NightStandings()
        /// Who offered a rematch since the game ended, in the order they offered.
        public var rematchOffers: [String] = []

        /// Creates a room's state; with no arguments, that of a room made before these features: playing,
        /// no host known.
        public init(
            isWaiting: Bool = false, ready: [String] = [], host: String? = nil, isLocked: Bool = false,
            kicked: [String] = [], bans: [KickBan] = [], tally: GameTally = GameTally(),
            isCountingDown: Bool = false, recordEvents: [GameRecord.Event] = [], recordOmitted: Int = 0,
            dealtIn: [String] = [],
            standings: NightStandings = NightStandings(), rematchOffers: [String] = [],
            pausedSeconds: Double = 0, pausedAt: Double? = nil
        ) {
            self.recordEvents = recordEvents
            self.recordOmitted = recordOmitted
            self.dealtIn = dealtIn
            self.standings = standings
            self.rematchOffers = rematchOffers
            self.pausedSeconds = pausedSeconds
            self.pausedAt = pausedAt
            self.bans = bans
            self.isCountingDown = isCountingDown
            self.isWaiting = isWaiting
            self.ready = ready
            self.host = host
            self.isLocked = isLocked
            self.kicked = kicked
            self.tally = tally
        }
    }

    /// A kick that keeps a name and an address out of a room until a time.
    public struct KickBan: Equatable, Sendable {
        /// The kicked name.
        public var name: String
        /// The kicked connection's address key (an IPv4 address or an IPv6 /64), empty if unknown.
        public var address: String
        /// Unix seconds when the ban ends.
        public var until: Double

        /// Creates a ban of `name` and `address` until `until`.
        public init(name: String, address: String, until: Double) {
            self.name = name
            self.address = address
            self.until = until
        }
    }

    public static func == (lhs: RoomSnapshot, rhs: RoomSnapshot) -> Bool {
        JournalRecord.snapshot(lhs) == JournalRecord.snapshot(rhs)
    }
}

/// What a `clock` record says happened to a game's clock.
public enum ClockChange: String, Sendable, Equatable {
    /// `PAUSE`: a practice game stopped.
    case pause
    /// `UNPAUSE`: it went on.
    case unpause
    /// A timed game's minutes of play passed, and the server called time.
    case timeUp = "time-up"
}
