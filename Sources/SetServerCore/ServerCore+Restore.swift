import SetGame
import SetProtocol

#if canImport(Glibc)
    import Glibc
#endif

extension ServerCore {
    /// Rebuilds every room from journal records read at start-up. Every restored player is away, with a
    /// fresh grace period to come back with `RESUME` and their old token. Returns the effects of
    /// restoring (the journal records of everyone going away); the shell then rewrites the journal from
    /// ``snapshotRecords()``.
    public func restore(_ records: [JournalRecord], at now: Instant) -> [Effect] {
        outbox.isReplaying = true
        for record in records { replay(record) }
        outbox.isReplaying = false
        // Nobody is connected yet: everyone seated is away from now on, which is itself a change (it can
        // pass a Matchismo turn), so it is journaled like any other.
        for session in sessionsByName.values.sorted(by: { $0.name < $1.name }) {
            session.awaySince = now.uptime
            session.room?.presenceChanged(session)
        }
        // Sessions without a seat have nothing to come back to.
        for session in sessionsByName.values where session.room == nil { release(session, at: now) }
        outbox.log(
            .info, "restored",
            [
                ("rooms", "\(rooms.count)"), ("players", "\(sessionsByName.count)"),
                ("records", "\(records.count)"),
            ])
        return drain()
    }

    private func replay(_ record: JournalRecord) {
        switch record {
        case .room(let name, let seed, let pairs):
            guard let options = RoomOptions(journalPairs: pairs) else { return }
            // The game record that follows sets the room's real start time.
            rooms[name] = Room(
                name: name, options: options, seed: seed, outbox: outbox, archive: archive, at: 0)
        case .game(let name, let index, let time, let first, let pairs):
            guard let room = rooms[name], let options = RoomOptions(journalPairs: pairs) else { return }
            room.restart(with: options, index: index, firstRevision: first, at: time)
        case .seat(let name, let player, let token):
            guard let room = rooms[name] else { return }
            let session = sessionsByName[player] ?? Session(name: player, token: token, connection: nil)
            sessionsByName[player] = session
            sessionsByToken[session.token] = session
            if let other = session.room, other !== room { other.unseat(session) }
            room.seat(session)
        case .unseat(let name, let player):
            guard let room = rooms[name], let session = sessionsByName[player] else { return }
            room.unseat(session)
        case .presence(let name, let player, let isOnline):
            guard let room = rooms[name] else { return }
            room.gameLog.append(record)
            _ = room.setPresence(player, isOnline)
        case .claim(let name, let player, let time, let codes):
            rooms[name]?.replayClaim(by: player, cards: codes.compactMap { Card($0) }, at: time)
        case .choose(let name, let player, let time, let position):
            rooms[name]?.replayChoice(by: player, position: position, at: time)
        case .chat:
            break  // Chat is journaled for the record; nobody is shown old chat.
        case .close(let name):
            rooms[name] = nil
        case .archive(let name, let game):
            archive.keep(game, of: name)
        }
    }

    /// The whole current state as journal records: the archive, then each room's current game log. The
    /// shell writes these as the new journal.
    public func snapshotRecords() -> [JournalRecord] {
        var records: [JournalRecord] = []
        for (name, games) in archive.games.sorted(by: { $0.key < $1.key }) {
            records += games.map { .archive(room: name, game: $0) }
        }
        for room in rooms.values.sorted(by: { $0.name < $1.name }) {
            records.append(.room(name: room.name, seed: room.seed, options: room.options.journalPairs))
            records += room.gameLog
        }
        return records
    }

    /// `HISTORY` lines for the finished games of a room, newest first.
    func archivedHistory(of room: String) -> [ServerLine] {
        let games = archive.games[room] ?? []
        var lines: [ServerLine] = []
        for (number, game) in games.reversed().enumerated() {
            let scores = game.scores.map { "\($0.name):\($0.score)" }.joined(separator: " ")
            let header = "GAME \(number + 1) \(Self.utc(game.startedAt)) \(Self.utc(game.endedAt))"
            lines.append(.history(scores.isEmpty ? header : header + " " + scores))
            for entry in game.entries {
                lines.append(.history("GAME \(number + 1) \(entry.seconds) \(entry.name) \(entry.detail)"))
            }
        }
        return lines
    }

    /// `2026-12-02T20:01:00Z`.
    static func utc(_ time: Double) -> String {
        var seconds = Int(time)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
