import SetGame
import SetProtocol

/// Where a connection is: `ROOMS`, `JOIN`, `WATCH`, `LEAVE`, `STATE`.
extension ServerCore {
    /// `ROOMS`: the public rooms. The listing is kept between changes: a `ROOMS` with thousands of rooms
    /// open costs a copy.
    func listRooms(for connection: Client) -> Answer {
        let listing = roomListing()
        outbox.send(listing.bytes, to: connection.id)
        return ok(.rooms(count: listing.count))
    }

    /// `WATCH <room> [password=<secret>]`: follows a room as a spectator (giving up a seat elsewhere).
    func watch(_ name: String, password: String?, on connection: Client, at now: Instant) -> Answer {
        guard let room = rooms[name] else {
            // A password said to no room counts as a wrong one, as it would at a private room: the
            // waits it leads to cannot tell the two apart either.
            if password != nil {
                if let refusal = guessRefusal(.watch, from: connection, name: nil, at: now) {
                    return .failure(refusal)
                }
                noteWrongGuess(from: connection, name: nil, at: now)
            }
            return .failure(noSuchRoom(.watch, name))
        }
        if let refusal = checkRoomPassword(room, given: password, verb: .watch, on: connection, at: now) {
            return .failure(refusal)
        }
        // A kicked player may not follow the room either, by name or from the address they were kicked at.
        if connection.session?.room !== room,
            let refusal = kickRefusal(
                .watch, to: room, name: connection.session?.name, from: connection, at: now)
        {
            return .failure(refusal)
        }
        if let session = connection.session { unseat(session, keeping: room) }
        stopWatching(connection, keeping: room)
        room.addSpectator(connection)
        connection.hasIdentified = true
        let snapshot = room.snapshot
        return ok(.watch(room: room.name, count: snapshot.count), data: snapshot)
    }

    /// The answer to a room that does not exist, or is private and the asker lacks its password: the two
    /// cannot be told apart.
    func noSuchRoom(_ verb: Verb, _ name: String) -> ProtocolError {
        ProtocolError(verb, .noSuchRoom, "no room named \(TextRules.sanitized(name.prefix(16)))")
    }

    /// `LEAVE`: stops watching, or gives up the seat (the score stays with the game).
    func leave(_ connection: Client) -> Answer {
        if let room = connection.watching {
            stopWatching(connection)
            return ok(.leave(room: room.name))
        }
        return seat(of: connection, .leave).flatMap { session, room in
            unseat(session)
            return ok(.leave(room: room.name))
        }
    }

    /// `STATE`: the snapshot of the room watched or sat in.
    func state(of connection: Client) -> Answer {
        if let room = connection.watching {
            return ok(.state(count: room.snapshot.count), data: room.snapshot)
        }
        return seat(of: connection, .state).flatMap { _, room in
            let snapshot = room.snapshot
            return ok(.state(count: snapshot.count), data: snapshot)
        }
    }

    func join(
        _ name: String, game: GameKind?, options: [String: String], session: Session, connection: Client,
        at now: Instant
    ) -> Answer {
        guard TextRules.isValidName(name) else {
            return .failure(ProtocolError(.join, .badName, "a room name is 1-16 of A-Z a-z 0-9 _ -"))
        }
        let room: Room
        if let existing = rooms[name] {
            // A private room says nothing of itself, not even its game, to anyone without its password.
            if let refusal = checkRoomPassword(
                existing, given: options["password"], verb: .join, on: connection, at: now)
            {
                return .failure(refusal)
            }
            if let game, game != existing.options.game {
                return .failure(
                    ProtocolError(.join, .mismatch, "\(name) is a \(existing.options.game.rawValue) room"))
            }
            if let refusal = admission(to: existing, of: session, from: connection, at: now) {
                return .failure(refusal)
            }
            var asked = options
            asked["password"] = nil  // Checked above; a public room ignores a password.
            asked["start"] = nil  // Only a new room takes it; an existing one keeps its own.
            switch existing.options.applying(asked, verb: .join) {
            case .failure(let error): return .failure(error)
            case .success(let asked) where asked != existing.options:
                let current = existing.options.pairs.map { "\($0)=\($1)" }.joined(separator: " ")
                return .failure(ProtocolError(.join, .mismatch, "\(name) already exists with \(current)"))
            case .success: room = existing
            }
        } else {
            if let limit = configuration.maxRoomsPerIP,
                roomsCreated[connection.addressKey, default: 0] >= limit
            {
                return .failure(
                    ProtocolError(
                        .join, .tooManyRooms,
                        "\(limit) rooms made from your address are open; join one or close one first"))
            }
            if rooms.count >= configuration.maxRooms { closeAbandonedRoom(at: now) }
            guard rooms.count < configuration.maxRooms else {
                return .failure(
                    ProtocolError(
                        .join, .tooManyRooms,
                        "the server has \(configuration.maxRooms) rooms; join one of them"))
            }
            let sealing = passwordSealer(for: name, current: nil)
            switch RoomOptions(game: game ?? .set).applying(options, verb: .join, sealing: sealing) {
            case .failure(let error): return .failure(error)
            case .success(let created):
                room = Room(
                    name: name, options: created, seed: makeRoomSeed(for: name), outbox: outbox,
                    archive: archive, ratings: ratings, at: now.wall)
                outbox.record(.room(name: name, seed: room.seed, options: created.journalPairs))
                outbox.record(
                    .game(
                        room: name, index: 0, time: now.wall, firstRevision: 1, options: created.journalPairs)
                )
                rooms[name] = room
                room.creatorHost = connection.addressKey
                roomsCreated[connection.addressKey, default: 0] += 1
                outbox.log(.info, "room-created", [("room", name), ("game", created.game.rawValue)])
            }
        }
        stopWatching(connection, keeping: room)
        if session.room !== room {
            unseat(session)
            // Retired tokens are kept for a seat; a new seat starts without (as a replay does).
            forgetRetiredTokens(of: session)
        }
        room.seat(session)
        let snapshot = room.snapshot
        return ok(.join(room: room.name, count: snapshot.count), data: snapshot)
    }

    /// The `ROOM` lines of the public rooms in name order, formatted once per change of any room.
    func roomListing() -> (bytes: [UInt8], count: Int) {
        if let cached = listingCache, cached.version == outbox.listingVersion {
            return (cached.bytes, cached.count)
        }
        let listed = rooms.values.filter { $0.options.password == nil }.sorted { $0.name < $1.name }
        var bytes: [UInt8] = []
        for room in listed { bytes += room.roomLine.bytes }
        listingCache = (outbox.listingVersion, bytes, listed.count)
        return (bytes, listed.count)
    }
}
