import Foundation

/// A finished game, everything needed to rebuild it without our random generator: the dealing order
/// as card codes and every claim with its time. `RECORD <id>` prints it and protocol.md's "Game
/// records" section is the contract for its JSON field names.
public struct GameRecord: Codable, Equatable, Sendable {
    /// One thing that happened during the game, `ms` after its deal.
    ///
    /// Held compactly: a room keeps every event of its game (a `join` for each player who sits down), so
    /// the type and a claim's result are a byte each when they are words the server writes, and the
    /// fields only a Matchismo choice, a kick or a vote has live in a box of their own, made only for
    /// those (or for a type or result in other words, from a record read back).
    public struct Event: Codable, Equatable, Sendable {
        // The small fields first, together in one word: stored properties are laid out in the order
        // they are declared, and after the rest they took a word of their own. So an event is 40 bytes
        // instead of 48, and a room's ten `join`s 104 bytes fewer (issue 28).
        /// ``ms`` when it fits 32 bits (a game of 24 days); otherwise 0, and the time is in `details`.
        private var shortMs: Int32
        /// The type, when it is one of the server's words; otherwise it is in `details`.
        private var typeWord: TypeWord?
        /// The result, when it is one of the server's words; otherwise it is in `details`, or absent.
        private var resultWord: ResultWord?
        /// Who did it (absent for the deal and the end).
        public var name: String?
        /// The cards named, as codes; a Matchismo choice's history text.
        public var cards: [String]?
        /// The rarer fields, `nil` when all of them are.
        private var details: Details?

        /// Milliseconds since the deal.
        public var ms: Int {
            get { details?.longMs ?? Int(shortMs) }
            set { self = Event(self, ms: newValue, type: type, result: result) }
        }

        /// `deal`, `claim`, `choose` (Matchismo), `join`, `leave`, `kick`, `vote`, and the last one,
        /// `over` or `abandoned`.
        public var type: String {
            get { typeWord?.rawValue ?? details?.typeText ?? "" }
            set { self = Event(self, ms: ms, type: newValue, result: result) }
        }
        /// For a claim: `set`, `wrong` or `stale`.
        public var result: String? {
            get { resultWord?.rawValue ?? details?.resultText }
            set { self = Event(self, ms: ms, type: type, result: newValue) }
        }
        /// For a Matchismo choice: the position turned, 0 for `a`.
        public var position: Int? {
            get { details?.position }
            set { details = details(position: newValue, card: card, by: by, options: options) }
        }
        /// For a Matchismo choice: the code of the card turned.
        public var card: String? {
            get { details?.card }
            set { details = details(position: position, card: newValue, by: by, options: options) }
        }
        /// For a kick: the host who kicked.
        public var by: String? {
            get { details?.by }
            set { details = details(position: position, card: card, by: newValue, options: options) }
        }
        /// For a vote: the options voted for, as `VOTE` shows them.
        public var options: [String: String]? {
            get { details?.options }
            set { details = details(position: position, card: card, by: by, options: newValue) }
        }

        /// Creates an event.
        public init(
            ms: Int, type: String, name: String? = nil, cards: [String]? = nil, result: String? = nil,
            position: Int? = nil, card: String? = nil, by: String? = nil, options: [String: String]? = nil
        ) {
            shortMs = Int32(exactly: ms) ?? 0
            self.name = name
            self.cards = cards
            typeWord = TypeWord(rawValue: type)
            resultWord = result.flatMap(ResultWord.init(rawValue:))
            details = Details.make(
                position, card, by, options, typeText: typeWord == nil ? type : nil,
                resultText: resultWord == nil ? result : nil, longMs: Int32(exactly: ms) == nil ? ms : nil)
        }

        /// `event` with another time, type and result.
        private init(_ event: Event, ms: Int, type: String, result: String?) {
            self.init(
                ms: ms, type: type, name: event.name, cards: event.cards, result: result,
                position: event.position, card: event.card, by: event.by, options: event.options)
        }

        /// The box for these rare fields and this event's type and result texts and long time, `nil` when
        /// it needs none.
        private func details(position: Int?, card: String?, by: String?, options: [String: String]?)
            -> Details?
        {
            Details.make(
                position, card, by, options, typeText: details?.typeText, resultText: details?.resultText,
                longMs: details?.longMs)
        }

        /// The types the server writes.
        private enum TypeWord: String, Sendable {
            case deal, claim, choose, join, leave, kick, vote, over, abandoned
        }

        /// The results the server writes.
        private enum ResultWord: String, Sendable {
            case set, wrong, stale
        }

        /// The JSON keys, as the fields are named.
        private enum CodingKeys: String, CodingKey {
            case ms, type, name, cards, result, position, card, by, options
        }

        /// Reads an event as the synthesized decoder would: absent or `null` optionals are `nil`.
        public init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                ms: try values.decode(Int.self, forKey: .ms),
                type: try values.decode(String.self, forKey: .type),
                name: try values.decodeIfPresent(String.self, forKey: .name),
                cards: try values.decodeIfPresent([String].self, forKey: .cards),
                result: try values.decodeIfPresent(String.self, forKey: .result),
                position: try values.decodeIfPresent(Int.self, forKey: .position),
                card: try values.decodeIfPresent(String.self, forKey: .card),
                by: try values.decodeIfPresent(String.self, forKey: .by),
                options: try values.decodeIfPresent([String: String].self, forKey: .options))
        }

        /// Writes an event as the synthesized encoder would: `nil` fields are left out.
        public func encode(to encoder: any Encoder) throws {
            var values = encoder.container(keyedBy: CodingKeys.self)
            try values.encode(ms, forKey: .ms)
            try values.encode(type, forKey: .type)
            try values.encodeIfPresent(name, forKey: .name)
            try values.encodeIfPresent(cards, forKey: .cards)
            try values.encodeIfPresent(result, forKey: .result)
            try values.encodeIfPresent(position, forKey: .position)
            try values.encodeIfPresent(card, forKey: .card)
            try values.encodeIfPresent(by, forKey: .by)
            try values.encodeIfPresent(options, forKey: .options)
        }

        /// The fields of a Matchismo choice, a kick or a vote, and a type or result in words the server
        /// does not write. Immutable: a change makes a new box, so copies of an event never share a
        /// change.
        final class Details: Equatable, Sendable {
            let position: Int?
            let card: String?
            let by: String?
            let options: [String: String]?
            let typeText: String?
            let resultText: String?
            /// The event's time when it does not fit 32 bits.
            let longMs: Int?

            private init(
                position: Int?, card: String?, by: String?, options: [String: String]?, typeText: String?,
                resultText: String?, longMs: Int?
            ) {
                (self.position, self.card, self.by, self.options) = (position, card, by, options)
                (self.typeText, self.resultText, self.longMs) = (typeText, resultText, longMs)
            }

            /// The box for these fields, `nil` when none is set.
            static func make(
                _ position: Int?, _ card: String?, _ by: String?, _ options: [String: String]?,
                typeText: String?, resultText: String?, longMs: Int?
            ) -> Details? {
                if position == nil, card == nil, by == nil, options == nil, typeText == nil,
                    resultText == nil,
                    longMs == nil
                {
                    return nil
                }
                return Details(
                    position: position, card: card, by: by, options: options, typeText: typeText,
                    resultText: resultText, longMs: longMs)
            }

            static func == (lhs: Details, rhs: Details) -> Bool {
                (lhs.position, lhs.card, lhs.by) == (rhs.position, rhs.card, rhs.by)
                    && lhs.options == rhs.options && lhs.typeText == rhs.typeText
                    && lhs.resultText == rhs.resultText && lhs.longMs == rhs.longMs
            }
        }
    }

    /// One row of the final score sheet.
    public struct SheetRow: Codable, Equatable, Sendable {
        /// The player.
        public var name: String
        /// Points at the end.
        public var score: Int
        /// Sets taken.
        public var sets: Int
        /// Wrong claims.
        public var wrong: Int
        /// Stale claims.
        public var stale: Int
        /// Fastest time to find a set, in milliseconds.
        public var fastestMs: Int?
        /// Mean time to find a set, in milliseconds.
        public var meanMs: Int?
    }

    /// The record's id: the same for the same room, game number and start, so a replay of the journal
    /// gives the same id as live play.
    public var id: String
    /// The room the game was played in.
    public var room: String
    /// `set` or `matchismo`.
    public var kind: String
    /// The room's options as `key=value` pairs (`mode`, `penalty`, …), without the password.
    public var options: [String: String]
    /// Unix time of the deal, in milliseconds.
    public var startedAtMs: Int64
    /// The game's length in milliseconds, deal to last set.
    public var durationMs: Int
    /// Every card in dealing order, the first dealt first (the opening board, then the deck).
    public var deck: [String]
    /// The players seated at the end, in seat order.
    public var players: [String]
    /// The players seated when the game was dealt, in seat order (absent from older records).
    public var dealtIn: [String]?
    /// How the game ended: `over` (played out), `vote` (a `NEW` vote passed before the end) or
    /// `abandoned` (everyone left and the room closed); absent from older records, all played out.
    public var end: String?
    /// What happened, in order: from the deal, at most ``GameLogLimit/recordEvents`` of them, then `over`.
    public var events: [Event]
    /// How many events after the kept ones the record left out (absent when none was).
    public var omitted: Int?
    /// The final score sheet, best first.
    public var sheet: [SheetRow]

    /// Creates a record from its parts.
    public init(
        id: String, room: String, kind: String, options: [String: String], startedAtMs: Int64,
        durationMs: Int, deck: [String], players: [String], events: [Event], sheet: [SheetRow],
        dealtIn: [String]? = nil, end: String? = nil, omitted: Int? = nil
    ) {
        self.omitted = omitted
        (self.id, self.room, self.kind, self.options) = (id, room, kind, options)
        (self.startedAtMs, self.durationMs, self.deck, self.players) = (
            startedAtMs, durationMs, deck, players
        )
        (self.events, self.sheet) = (events, sheet)
        (self.dealtIn, self.end) = (dealtIn, end)
    }

    /// A short id from the room, game number and start (FNV-1a, 64 bits, as 16 hex digits): ids must be
    /// typeable on a phone and in `nc`, and a room name may hold any character.
    public static func makeID(room: String, index: Int, startedAt: Double) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(room)\u{0}\(index)\u{0}\(Int64((startedAt * 1000).rounded()))".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Whether `text` has the shape of an id, checked before any lookup so bad input gets a clear error.
    public static func isValidID(_ text: Substring) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
