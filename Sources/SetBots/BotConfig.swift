import SetGame
import SetProtocol

/// What every bot of a run shares: the options and the names they go by.
struct BotConfig: Sendable {
    /// Chat lines bots say now and then.
    static let phrases = ["nice", "gg", "hmm", "so close", "wow, fast", "I saw that one", "again?", "ok ok"]

    /// The parsed command line.
    let options: BenchOptions
    /// A short tag in every bot and room name of this run, so runs do not collide and a bot can tell
    /// its fellow bots from people.
    let tag: String

    /// The addresses bots connect from (bot `b` from the `b % count`-th), empty to let the system
    /// choose; see ``BenchOptions/sourceAddresses``.
    let sources: [String]

    init(options: BenchOptions, tag: String) {
        self.options = options
        self.tag = tag
        sources = options.sourceAddresses
    }

    /// The address bot `index` connects from, `nil` to let the system choose.
    func source(ofBot index: Int) -> String? {
        sources.isEmpty ? nil : sources[index % sources.count]
    }

    /// A tag of four base-36 characters from a number.
    static func makeTag(from number: UInt64) -> String {
        var generator = SeededGenerator(seed: number)
        let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        return String((0..<4).map { _ in digits[generator.next(below: digits.count)] })
    }

    /// The name of bot `index`; `generation` goes up each time the bot starts over with a new identity.
    func botName(_ index: Int, generation: Int) -> String {
        let base = "\(tag)-\(String(index, radix: 36))"
        return generation == 0 ? base : "\(base)-\(String(generation, radix: 36))"
    }

    /// Whether a player name is one of this run's bots.
    func isBot(_ name: String) -> Bool { name.hasPrefix(tag + "-") }

    /// The name of room `index`.
    func roomName(_ index: Int) -> String {
        options.roomName ?? "\(tag)-r\(index + 1)"
    }

    /// The `JOIN` for a room.
    func joinCommand(_ room: String) -> Command {
        switch options.game {
        case .matchismo: return .join(room: room, game: .matchismo, options: [:])
        case .set:
            return .join(
                room: room, game: options.mode == nil ? nil : .set,
                options: options.mode.map { ["mode": $0] } ?? [:])
        }
    }
}
