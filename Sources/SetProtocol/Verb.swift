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
    /// Every verb's spelling as bytes, for reading a command's first word without making a string of it.
    private static let spellings: [(bytes: [UInt8], verb: Verb)] = allCases.map {
        (Array($0.rawValue.utf8), $0)
    }

    /// The verb `word` spells in any mix of ASCII upper and lower case, or nil.
    ///
    /// ASCII case only, compared byte by byte: `ſtate` is not `STATE` whatever Unicode's upper case
    /// says, and the Kelvin sign in `\u{212A}ick` is not a `K` (a `String` comparison, by canonical
    /// equivalence, would take it for one).
    public init?(spelledBy word: ArraySlice<UInt8>) {
        for (bytes, verb) in Self.spellings where bytes.count == word.count {
            if zip(bytes, word).allSatisfy({ $0 == ((0x61...0x7A).contains($1) ? $1 - 0x20 : $1) }) {
                self = verb
                return
            }
        }
        return nil
    }
}
