import SetDigest
import SetGame
import SetProtocol

/// A journal record that does not replay: which one, and why.
public struct RestoreError: Error, CustomStringConvertible, Equatable {
    /// The record's position among those restored, from 0.
    public var index: Int
    /// Why it does not replay.
    public var reason: String

    public var description: String { "record \(index + 1) does not replay: \(reason)" }
}

extension ServerCore {
    /// Rebuilds every room from journal records read at start-up: snapshots, then the changes after
    /// them. Every restored player is away, with a fresh grace period to come back with `RESUME` and
    /// their old token. Returns the effects of restoring (the `restart` record that says everyone went
    /// away); the shell then rewrites the journal from ``snapshotRecords()``.
    ///
    /// A record that does not replay — a room that does not exist, a claim the rules refuse, a token
    /// seated twice — is damage, not something to skip: it throws, naming the record.
    public func restore(_ records: [JournalRecord], at now: Instant) throws(RestoreError) -> [Effect] {
        try replay(records, isFirst: true)
        // Nobody is connected yet: everyone seated is away from now on, which is itself a change, so it is
        // journaled like any other.
        outbox.record(.restart(time: now.wall))
        everyoneAway(at: now.uptime)
        nameClaims.noteRestart(at: now.wall)
        outbox.log(
            .info, "restored",
            [
                ("rooms", "\(rooms.count)"), ("players", "\(sessionsByName.count)"),
                ("records", "\(records.count)"),
            ])
        return drain()
    }

    /// Applies journal records to the state as they were applied live, and nothing else: nobody goes
    /// away. ``restore(_:at:)`` is this, then everyone away; tests replay a live core's journal a batch
    /// at a time (`isFirst` only for the batch that opens the journal) and compare the two cores'
    /// ``snapshotRecords()``. What a replay makes (nothing a client sees) waits in the outbox for the
    /// next call's effects.
    public func replay(_ records: [JournalRecord], isFirst: Bool) throws(RestoreError) {
        outbox.isReplaying = true
        defer { outbox.isReplaying = false }
        for (index, record) in records.enumerated() {
            do throws(JournalFormatError) {
                if case .header = record, index > 0 || !isFirst {
                    throw JournalFormatError(
                        description: "a second journal header in the middle of the journal")
                }
                try replay(record)
            } catch {
                throw RestoreError(index: index, reason: error.description)
            }
        }
    }

    private func replay(_ record: JournalRecord) throws(JournalFormatError) {
        func room(_ name: String) throws(JournalFormatError) -> Room {
            guard let room = rooms[name] else {
                throw JournalFormatError(description: "room \(name) does not exist")
            }
            return room
        }
        switch record {
        case .header:
            break
        case .snapshot(let snapshot):
            guard rooms[snapshot.name] == nil else {
                throw JournalFormatError(description: "room \(snapshot.name) is restored twice")
            }
            var seated: [Session] = []
            for seat in snapshot.seats {
                let token = SessionToken(seat.token)
                guard sessionsByToken[token] == nil, sessionsByName[seat.name] == nil else {
                    throw JournalFormatError(description: "\(seat.name) is seated twice")
                }
                let session = Session(name: seat.name, token: token, connection: nil)
                sessionsByName.insert(session)
                sessionsByToken.insert(session)
                seated.append(session)
            }
            rooms[snapshot.name] = try Room(
                restoring: snapshot, sessions: seated, outbox: outbox, archive: archive, ratings: ratings)
        case .room(let name, let seed, let pairs):
            guard let options = RoomOptions(journalPairs: pairs, room: name) else {
                throw JournalFormatError(description: "room \(name) has options it cannot have")
            }
            guard rooms[name] == nil else {
                throw JournalFormatError(description: "room \(name) is created twice")
            }
            // The game record that follows sets the room's real start time.
            rooms[name] = Room(
                name: name, options: options, seed: seed, outbox: outbox, archive: archive, ratings: ratings,
                at: 0)
        case .game(let name, let index, let time, let first, let pairs):
            guard let options = RoomOptions(journalPairs: pairs, room: name) else {
                throw JournalFormatError(description: "a game of \(name) has options it cannot have")
            }
            try room(name).restart(with: options, index: index, firstRevision: first, at: time)
        case .seat(let name, let player, let text):
            let room = try room(name)
            let token = SessionToken(text)
            // A seat is its token's: a name may have passed to someone else since.
            let session: Session
            if let known = sessionsByToken[token] {
                guard known.name == player else {
                    throw JournalFormatError(description: "token of \(known.name) seats \(player)")
                }
                session = known
            } else {
                if let stale = sessionsByName[player] { forgetReplayed(stale) }
                session = Session(name: player, token: token, connection: nil)
                sessionsByName.insert(session)
                sessionsByToken.insert(session)
            }
            if let other = session.room, other !== room { other.unseat(session) }
            if session.room !== room { forgetRetiredTokens(of: session) }
            room.seat(session)
        case .unseat(let name, let player):
            let room = try room(name)
            guard let session = sessionsByName[player], session.room === room else {
                throw JournalFormatError(description: "\(player) is not seated in \(name)")
            }
            // A player who left holds nothing any more: their name is free for someone else. (A room left
            // empty closes by its own record.)
            forgetReplayed(session)
        case .presence(let name, let player, let isOnline):
            try room(name).applyPresence(player, isOnline: isOnline)
        case .claim(let name, let player, let time, let codes):
            var cards: [Card] = []
            for code in codes {
                guard let card = try? Card(anyCode: code) else {
                    throw JournalFormatError(description: "'\(code)' is not a card")
                }
                cards.append(card)
            }
            try room(name).replayClaim(by: player, cards: cards, at: time)
        case .choose(let name, let player, let time, let position):
            try room(name).replayChoice(by: player, position: position, at: time)
        case .chat:
            break  // Chat is journaled for the record; nobody is shown old chat.
        case .restart(let time):
            everyoneAway(at: 0)
            nameClaims.noteRestart(at: time)
        case .close(let name):
            let closed = try room(name)
            guard closed.seats.isEmpty else {
                throw JournalFormatError(description: "room \(name) closes with players seated")
            }
            rooms[name] = nil
        case .token(let name, let player, let old, let new):
            try replayToken(in: try room(name), name: player, old: old, new: new)
        case .archive(let name, var game):
            // A private game archived by a setd from before passwords were hashed keeps the password in
            // clear: hashed as its room's records are (an empty one, from the first format, matches none).
            if let password = game.password, !password.isEmpty, PasswordHash(text: password) == nil {
                game.password = RoomOptions.legacyHash(of: password, room: name).text
            }
            archive.keep(game, of: name)
        case .clock(let name, let change, let time):
            try room(name).replayClock(change, at: time)
        case .ready, .unready, .deal, .stale, .lock, .kick, .allow, .gain, .rating, .nameClaim, .vote,
            .countdown, .nameKey, .nameUsed, .nameFree, .recordEvent, .rematch, .standingsReset:
            try replayNight(record, in: rooms)
        }
    }

    /// The server started again: every seated player is away (their grace runs from `uptime`, or from
    /// whenever a replay's restore ends). It is not the players' doing, so their votes stand. The player
    /// with a Matchismo turn goes away last, when nobody else is present, so they keep it
    /// (`MatchismoGame.setPresent`): the turn comes back as it was.
    private func everyoneAway(at uptime: Double) {
        func holdsTurn(_ session: Session) -> Bool { session.room?.turnHolder == session.name }
        let everyone = sessionsByName.sorted { a, b in
            holdsTurn(a) != holdsTurn(b) ? !holdsTurn(a) : a.name < b.name
        }
        for session in everyone {
            session.awaySince = uptime
            session.room?.applyPresence(session.name, isOnline: false, keepingVote: true)
        }
        // Sessions without a seat have nothing to come back to.
        for session in sessionsByName where session.room == nil { release(session) }
    }

    /// Drops a replayed player from the tables, leaving rooms to their own records.
    private func forgetReplayed(_ session: Session) {
        session.room?.unseat(session)
        sessionsByName.remove(session.name)
        sessionsByToken.remove(session.token)
        forgetRetiredTokens(of: session)
    }

    /// The names of the rooms open.
    public var roomNames: [String] { Array(rooms.keys) }

    /// The state of room `name` as a snapshot keeps it, or `nil` if there is no such room.
    public func snapshot(ofRoom name: String) -> RoomSnapshot? { rooms[name]?.journalSnapshot }

    /// ``snapshotRecords()`` without the archive's games, and of each room's archive how many games it
    /// keeps and its newest: what a replay check compares at every step (a game once archived never
    /// changes), with no copy made of every archived game for it.
    public func snapshotRecordsSummarizingArchive() -> (
        records: [JournalRecord], archives: [(room: String, count: Int, newest: ArchivedGame)]
    ) {
        let ratingsAndClaims = ratingAndClaimRecords()
        var records: [JournalRecord] = []
        records.reserveCapacity(1 + ratingsAndClaims.count + rooms.count)
        records.append(.header(version: JournalRecord.formatVersion))
        records += ratingsAndClaims
        for room in rooms.values.sorted(by: { $0.name < $1.name }) {
            records.append(.snapshot(room.journalSnapshot))
        }
        records += retiredTokenRecords()
        var archives: [(room: String, count: Int, newest: ArchivedGame)] = []
        for (name, games) in archive.games.sorted(by: { $0.key < $1.key }) {
            guard let newest = games.last else { continue }
            archives.append((name, games.count, newest))
        }
        return (records, archives)
    }

    /// The whole current state as journal records: the header, the archive, and one snapshot per room.
    /// The shell writes these as the new journal.
    public func snapshotRecords() -> [JournalRecord] {
        // Made at its size once: a record is large, and the archive alone is hundreds of them (an array
        // grown by doubling copied them all again at each step).
        let ratingsAndClaims = ratingAndClaimRecords()
        var records: [JournalRecord] = []
        records.reserveCapacity(1 + archive.count + ratingsAndClaims.count + rooms.count)
        records.append(.header(version: JournalRecord.formatVersion))
        for (name, games) in archive.games.sorted(by: { $0.key < $1.key }) {
            for game in games { records.append(.archive(room: name, game: game)) }
        }
        records += ratingsAndClaims
        for room in rooms.values.sorted(by: { $0.name < $1.name }) {
            records.append(.snapshot(room.journalSnapshot))
        }
        records += retiredTokenRecords()
        return records
    }
}
