import SetProtocol

/// `HISTORY [<room>]`: the current game's sets or choices and the room's finished games.
extension ServerCore {
    /// The history of `name` (or of the room the connection is in). Privacy is per game: a private
    /// game's history is for those inside its room under the same password, whoever has taken the
    /// room's name since.
    func history(of name: String?, for connection: Client) -> Answer {
        let room: Room?
        if let name {
            room = rooms[name]
            guard room != nil || archive.games[name] != nil else {
                return .failure(noSuchRoom(.history, name))
            }
        } else {
            room = connection.watching ?? connection.session?.room
            guard room != nil else {
                return .failure(ProtocolError(.history, .noRoom, "JOIN a room first, or say HISTORY <room>"))
            }
        }
        let roomName = room?.name ?? name!
        let isInside = room != nil && (connection.watching === room || connection.session?.room === room)
        let password = isInside ? room?.options.password?.text : nil
        let games = (archive.games[roomName] ?? []).filter { !$0.isPrivate || $0.password == password }
        let canReadCurrent = room != nil && (room?.options.password == nil || isInside)
        // A private room's history is no history to others: the answer of a room that does not exist.
        guard canReadCurrent || !games.isEmpty else { return .failure(noSuchRoom(.history, roomName)) }
        let lines = (canReadCurrent ? room?.historyLines() ?? [] : []) + archivedHistory(of: games)
        return ok(.history(count: lines.count), data: lines)
    }
    /// `HISTORY` lines for finished games (oldest first), listed newest first.
    func archivedHistory(of games: [ArchivedGame]) -> [ServerLine] {
        var lines: [ServerLine] = []
        for (number, game) in games.reversed().enumerated() {
            let scores = game.scores.map { "\($0.name):\($0.score)" }.joined(separator: " ")
            let header =
                "GAME \(number + 1) \(UTCTime.format(game.startedAt)) \(UTCTime.format(game.endedAt))"
            lines.append(.history(scores.isEmpty ? header : header + " " + scores))
            // The id on a line of its own: the header's scores run to the end of its line.
            if let id = game.id { lines.append(.history("GAME \(number + 1) ID \(id)")) }
            for entry in game.entries {
                lines.append(.history("GAME \(number + 1) \(entry.seconds) \(entry.name) \(entry.detail)"))
            }
            for entry in game.sheet { lines.append(.history("GAME \(number + 1) STATS \(entry.fields)")) }
            if let duration = game.duration {
                lines.append(.history("GAME \(number + 1) DURATION \(duration)"))
            }
        }
        return lines
    }
}
