import SetProtocol

/// The night's standings (`STANDINGS`): every game played out in the room adds to them, live and in a
/// replay alike (the end of a game is decided by the claims the journal holds), until the host resets
/// them with `STANDINGS reset`, which the journal keeps as a `standings-reset` record.
extension Room {
    /// Adds the game that just ended to the standings.
    func addToStandings() {
        guard case .over(let ranked) = overLine else { return }
        standings.add(ranked: ranked, sheet: scoreSheet)
    }

    /// `STANDINGS <games>` and one `STANDING` line per player, best first.
    var standingsLines: [ServerLine] {
        [.standings(games: standings.games)] + standings.rows.map { .standing($0) }
    }

    /// `STANDINGS reset` from `session`, who must be the host: the night starts again, and the room is
    /// told with `STANDINGS 0`.
    func resetStandings(by session: Session) -> ProtocolError? {
        guard session.name == host else {
            return ProtocolError(
                .standings, .denied, "only the host, \(host ?? "nobody"), may reset the standings")
        }
        standings = NightStandings()
        record(.standingsReset(room: name, by: session.name))
        note("standings-reset", ("by", session.name))
        broadcast([.standings(games: 0)])
        return nil
    }
}
