/// A command's verb, as the wire spells it (upper case): what a reply's final line names.
public enum Verb: String, CaseIterable, Sendable {
    case hello = "HELLO"
    case resume = "RESUME"
    case rooms = "ROOMS"
    case join = "JOIN"
    case leave = "LEAVE"
    case state = "STATE"
    case choose = "CHOOSE"
    case hint = "HINT"
    case new = "NEW"
    case history = "HISTORY"
    case chat = "CHAT"
    case watch = "WATCH"
    case ping = "PING"
    case help = "HELP"
    case quit = "QUIT"
    case ready = "READY"
    case start = "START"
    case stats = "STATS"
    case top = "TOP"
    case kick = "KICK"
    case lock = "LOCK"
    case unlock = "UNLOCK"
    case unready = "UNREADY"
    case allow = "ALLOW"
    case record = "RECORD"
    case rematch = "REMATCH"
    case standings = "STANDINGS"
    case pause = "PAUSE"
    case unpause = "UNPAUSE"
}

extension Verb {
    /// Every verb's spelling, packed as ``packed(_:)`` packs a word, for reading a command's first word
    /// without making a string of it.
    private static let spellings: [(key: PackedWord, verb: Verb)] = allCases.map {
        (packed(Array($0.rawValue.utf8))!, $0)
    }

    /// A word of at most 16 bytes, in ASCII upper case, eight bytes to an integer, with its length (so
    /// a word with NUL bytes at its end is not the word without them).
    private struct PackedWord: Equatable {
        var count: Int
        var low: UInt64
        var high: UInt64
    }

    /// `word` packed, or nil when it is longer than any verb could be.
    private static func packed(_ word: some Collection<UInt8>) -> PackedWord? {
        guard word.count <= 16 else { return nil }
        var key = PackedWord(count: word.count, low: 0, high: 0)
        for (index, byte) in word.enumerated() {
            let upper = UInt64((0x61...0x7A).contains(byte) ? byte - 0x20 : byte)
            if index < 8 { key.low |= upper << (8 * index) } else { key.high |= upper << (8 * (index - 8)) }
        }
        return key
    }

    /// The verb `word` spells in any mix of ASCII upper and lower case, or nil.
    ///
    /// ASCII case only, compared byte by byte: `ſtate` is not `STATE` whatever Unicode's upper case
    /// says, and the Kelvin sign in `\u{212A}ick` is not a `K` (a `String` comparison, by canonical
    /// equivalence, would take it for one). Packed, a word is compared with each verb in two integers,
    /// not byte by byte (every line of every client is read here).
    public init?(spelledBy word: ArraySlice<UInt8>) {
        guard let key = Self.packed(word), let found = Self.spellings.first(where: { $0.key == key }) else {
            return nil
        }
        self = found.verb
    }
}
