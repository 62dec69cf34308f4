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

    private func dropOldest(of room: String) {
        guard var kept = games[room], !kept.isEmpty else { return }
        kept.removeFirst()
        games[room] = kept.isEmpty ? nil : kept
        count -= 1
    }
}
