import SetProtocol

/// `RECORD <id>`: a finished game's record, for `nc` and for clients that step through a game again.
extension ServerCore {
    /// The record of the kept game `id` as `OK RECORD <json>`: one line, since the JSON has no line
    /// breaks. A private room's game is for those inside its room under the same password, as `HISTORY`.
    func record(_ id: String, for connection: Client) -> Answer {
        let notFound = ProtocolError(.record, .noSuchGame, "no kept game has the id \(id)")
        guard let (roomName, game) = archive.game(withID: id), let record = game.record else {
            return .failure(notFound)
        }
        guard isAllowed(game, of: roomName, for: connection) else { return .failure(notFound) }
        return ok(.other(verb: "RECORD", detail: record.json))
    }

    /// Whether `connection` may read `game`: a public game is for everyone; a private one for those in
    /// its room under the password it was played with. A refusal reads as "no such game", so ids of
    /// private games cannot be probed.
    func isAllowed(_ game: ArchivedGame, of roomName: String, for connection: Client) -> Bool {
        guard game.isPrivate else { return true }
        guard let room = rooms[roomName],
            connection.watching === room || connection.session?.room === room
        else { return false }
        return room.options.password?.text == game.password
    }
}

/// `GET /games` and `GET /games/<id>`: the records over HTTP. A request belongs to no room, so only
/// public games are served there; a private game's record is read with `RECORD` from inside its room.
extension ServerCore {
    /// Games listed by one `GET /games` page: enough for an evening, small enough for a phone.
    public static let gamesPerPage = 20

    /// The public record `id` as JSON, `nil` if no public kept game has it.
    public func publicRecordJSON(id: String) -> String? {
        guard let (_, game) = archive.game(withID: id), !game.isPrivate else { return nil }
        return game.record?.json
    }

    /// Page `page` (from 1) of the public kept games, newest first, as the JSON object protocol.md's
    /// "Game records" describes: `{"games":[…],"page":1,"pages":3,"total":41}`, each game a summary.
    public func publicGamesJSON(page: Int) -> String {
        let games = archive.recordedGames.filter { !$0.game.isPrivate }.compactMap(\.game.record)
        let pages = max(1, (games.count + Self.gamesPerPage - 1) / Self.gamesPerPage)
        let shown = games.dropFirst((page - 1) * Self.gamesPerPage).prefix(Self.gamesPerPage)
        let summaries = shown.map { record in
            GameSummary(
                id: record.id, room: record.room, kind: record.kind, mode: record.options["mode"],
                startedAtMs: record.startedAtMs, durationMs: record.durationMs,
                players: record.sheet.map { GameSummary.Score(name: $0.name, score: $0.score) })
        }
        return GamesPage(games: Array(summaries), page: page, pages: pages, total: games.count).json
    }
}
