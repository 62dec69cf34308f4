/// The finished games kept for `HISTORY <room>`, per room name, newest last, with two bounds: games per
/// room name, and games in all, the oldest dropped first — so an evening of games (or a script making
/// them) costs bounded memory and journal.
///
/// One archive is shared by the core and its rooms, which add the games they finish.
final class Archive {
    /// Finished games kept per room name.
    static let gamesPerRoom = 20

    /// Games kept in all.
    let capacity: Int
    private(set) var games: [String: [ArchivedGame]] = [:]
    /// Room names in the order their games were kept, one entry per game, oldest first.
    private var order: [String] = []
    private var orderStart = 0
    /// Entries of `order` whose game already left (dropped by the per-room bound), by room.
    private var stale: [String: Int] = [:]
    /// Games kept now.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Keeps a finished game, dropping the room's oldest beyond ``gamesPerRoom`` and the oldest of all
    /// beyond ``capacity``.
    func keep(_ game: ArchivedGame, of room: String) {
        games[room, default: []].append(game)
        order.append(room)
        count += 1
        if games[room]!.count > Self.gamesPerRoom {
            dropOldest(of: room)
            stale[room, default: 0] += 1
        }
        while count > capacity, orderStart < order.count {
            let oldest = order[orderStart]
            orderStart += 1
            if let n = stale[oldest], n > 0 {
                stale[oldest] = n == 1 ? nil : n - 1
            } else {
                dropOldest(of: oldest)
            }
        }
        // Give back the consumed front of the order now and then.
        if orderStart > 1024 && orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }

    /// The kept game whose record has `id`, with its room name. A scan: at most ``capacity`` games,
    /// asked for by a person, not on every move.
    func game(withID id: String) -> (room: String, game: ArchivedGame)? {
        for (room, kept) in games {
            if let game = kept.first(where: { $0.id == id }) { return (room, game) }
        }
        return nil
    }

    /// Every kept game with a record, newest first, with its room name.
    var recordedGames: [(room: String, game: ArchivedGame)] {
        games.flatMap { room, kept in kept.filter { $0.record != nil }.map { (room, $0) } }
            .sorted { ($0.game.startedAt, $0.game.id ?? "") > ($1.game.startedAt, $1.game.id ?? "") }
    }

    private func dropOldest(of room: String) {
        guard var kept = games[room], !kept.isEmpty else { return }
        kept.removeFirst()
        games[room] = kept.isEmpty ? nil : kept
        count -= 1
    }
}
