/// The finished games kept for `HISTORY <room>`, per room name, newest last.
///
/// One archive is shared by the core and its rooms, which add the games they finish.
final class Archive {
    /// Finished games kept per room name.
    static let gamesPerRoom = 20

    private(set) var games: [String: [ArchivedGame]] = [:]

    /// Keeps a finished game, dropping the room's oldest beyond ``gamesPerRoom``.
    func keep(_ game: ArchivedGame, of room: String) {
        games[room, default: []].append(game)
        if games[room]!.count > Self.gamesPerRoom { games[room]!.removeFirst() }
    }
}
