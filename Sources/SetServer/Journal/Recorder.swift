/// Where rooms report what they accepted: the journal (when the server has a state directory) and the
/// archive of finished games (always).
///
/// Touched only on the server's queue.
final class Recorder: @unchecked Sendable {
    /// Finished games kept per room name for `HISTORY <room>`, newest last.
    static let archivedGamesPerRoom = 20

    let journal: Journal?
    /// While restoring, records are being read, not made.
    var isReplaying = false
    private(set) var archives: [String: [ArchivedGame]] = [:]

    init(journal: Journal?) {
        self.journal = journal
    }

    /// Journals one accepted change.
    func record(_ record: JournalRecord) {
        guard !isReplaying else { return }
        journal?.append(record)
    }

    /// Keeps a finished game for `HISTORY`, and journals it.
    func archive(_ game: ArchivedGame, of room: String) {
        guard !isReplaying else { return }
        keep(game, of: room)
        journal?.append(.archive(room: room, game: game))
    }

    /// Adds a game to the archive without journaling it (when restoring).
    func keep(_ game: ArchivedGame, of room: String) {
        archives[room, default: []].append(game)
        if archives[room]!.count > Self.archivedGamesPerRoom { archives[room]!.removeFirst() }
    }
}
