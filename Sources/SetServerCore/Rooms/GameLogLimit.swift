/// How much of one game's log a room keeps in memory, in its snapshots and in the archive. A game of
/// Matchismo never has to end (a player may turn one card up and down for ever) and a game of SET takes
/// any number of wrong claims, so without a bound one game could grow the server's memory, every
/// compaction of the journal and the answer to `HISTORY` or `RECORD` without end.
public struct GameLogLimit: Equatable, Sendable {
    /// The latest Matchismo choices a game's `HISTORY` lists (and a finished game keeps for it). The
    /// room holds up to twice as many before it lets the oldest half go, so forgetting costs nothing
    /// per choice.
    public var choices: Int
    /// The events a game's record (`RECORD`) keeps from its deal; later ones are counted in its
    /// `omitted` field instead. 5,000 events of about 110 bytes keep `OK RECORD` well under the 1 MiB
    /// a client may have unread.
    public var recordEvents: Int

    /// The daemon's limits: 1,000 choices, 5,000 record events.
    public static let standard = GameLogLimit(choices: 1_000, recordEvents: 5_000)

    /// Creates a limit; tests use small ones to reach them quickly.
    public init(choices: Int, recordEvents: Int) {
        self.choices = max(1, choices)
        self.recordEvents = max(1, recordEvents)
    }
}
