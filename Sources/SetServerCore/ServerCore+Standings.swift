import SetProtocol

/// `STANDINGS [csv|reset]` and `GET /standings.csv?room=<room>`: the night's standings of a room.
extension ServerCore {
    /// `STANDINGS` for the room `connection` sits in or watches: the `STANDINGS`/`STANDING` lines, the
    /// same as `CSV` lines, or (the host) a reset.
    func standings(_ request: Command.StandingsRequest, for connection: Client) -> Answer {
        let room: Room
        if let watched = connection.watching {
            room = watched
        } else {
            switch seat(of: connection, .standings) {
            case .success((_, let seated)): room = seated
            case .failure(let error): return .failure(error)
            }
        }
        switch request {
        case .show:
            let lines = room.standingsLines
            return ok(.standings(count: lines.count), data: lines)
        case .csv:
            let lines = room.standings.csvLines.map { ServerLine.csv($0) }
            return ok(.standings(count: lines.count), data: lines)
        case .reset:
            guard let session = connection.session, session.room === room else {
                return .failure(
                    ProtocolError(
                        .standings, .denied, "only the host, \(room.host ?? "nobody"), may reset them"))
            }
            if let error = room.resetStandings(by: session) { return .failure(error) }
            return ok(.standings(count: 0))
        }
    }

    /// The standings of public room `name` as CSV text (CRLF line ends, RFC 4180), `nil` if no public
    /// room has that name: a request belongs to no room, so a private room's standings are read with
    /// `STANDINGS csv` from inside it.
    public func publicStandingsCSV(room name: String) -> String? {
        guard let room = rooms[name], room.options.password == nil else { return nil }
        return room.standings.csvLines.map { $0 + "\r\n" }.joined()
    }
}
