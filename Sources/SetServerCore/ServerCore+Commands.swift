import SetGame
import SetProtocol

extension ServerCore {
    /// Handles one command from `connection`: every command gets exactly one final line, and the events
    /// it causes go out before that line.
    func received(_ parsed: Result<Command, ProtocolError>, from connection: Client, at now: Instant) {
        connection.lastActivity = now.uptime
        switch parsed {
        case .failure(let error):
            outbox.send(error.line, to: connection.id)
        case .success(let command):
            outbox.log(.debug, "command", [("id", "\(connection.id)"), ("verb", command.verb)])
            let reply = run(command, from: connection, at: now)
            // The reply goes after the events the command caused, which the rooms queued while it ran.
            switch reply {
            case .success(let lines): for line in lines { outbox.send(line, to: connection.id) }
            case .failure(let error): outbox.send(error.line, to: connection.id)
            }
            if case .quit = command { close(connection, reason: "quit", at: now) }
        }
    }

    /// Runs one command; returns the reply's lines (data lines, then the final `OK`) or its error.
    private func run(_ command: Command, from connection: Client, at now: Instant) -> Result<
        [ServerLine], ProtocolError
    > {
        let verb = command.verb
        func ok(_ detail: String = "", data: [ServerLine] = []) -> Result<[ServerLine], ProtocolError> {
            .success(data + [.ok(verb: verb, detail: detail)])
        }
        // A reply with data lines ends with their count, after the detail's fixed words (protocol.md,
        // "Replies and events"): the last <n> lines before it are the data, all others are events.
        func counted(_ detail: String = "", data: [ServerLine]) -> Result<[ServerLine], ProtocolError> {
            ok(detail.isEmpty ? "\(data.count)" : "\(detail) \(data.count)", data: data)
        }
        func fail(_ code: ErrorCode, _ text: String) -> Result<[ServerLine], ProtocolError> {
            .failure(ProtocolError(verb, code, text))
        }
        func named() -> Result<Session, ProtocolError> {
            guard let session = connection.session else {
                return .failure(ProtocolError(verb, .noName, "say HELLO <name> first"))
            }
            return .success(session)
        }
        func seated() -> Result<(Session, Room), ProtocolError> {
            named().flatMap { session in
                guard let room = session.room else {
                    return .failure(ProtocolError(verb, .noRoom, "JOIN a room first"))
                }
                return .success((session, room))
            }
        }

        // Nothing is acknowledged that cannot be made durable: while the journal cannot be written,
        // commands that change what it keeps are refused, and the others still work.
        if let problem = journalProblem, changesJournal(command, from: connection) {
            return fail(.unavailable, "the server cannot save changes now (\(problem)); try again soon")
        }
        switch command {
        case .ping:
            return ok()
        case .help:
            return counted(data: Command.synopses.map { .help($0.usage) })
        case .quit:
            if let session = connection.session {
                connection.session = nil
                release(session)
            }
            return ok()
        case .rooms:
            // The listing is kept between changes: a `ROOMS` with thousands of rooms open costs a copy.
            let listing = roomListing()
            outbox.send(listing.bytes, to: connection.id)
            return ok("\(listing.count)")
        case .hello(let name, let key):
            guard connection.session == nil else {
                return fail(.already, "you are \(connection.session!.name)")
            }
            guard TextRules.isValidName(name) else {
                return fail(.badName, "a name is 1-16 of A-Z a-z 0-9 _ -")
            }
            guard sessionsByName[name] == nil else {
                return fail(.taken, "\(name) is playing; pick another name")
            }
            if let error = checkNameClaim(name, key: key) { return .failure(error) }
            stopWatching(connection)
            let session = Session(name: name, token: Session.makeToken(), connection: connection.id)
            sessionsByName[name] = session
            sessionsByToken[session.token] = session
            connection.session = session
            connection.hasIdentified = true
            outbox.log(.info, "hello", [("id", "\(connection.id)"), ("name", name)])
            return ok("\(name) \(session.token)")
        case .resume(let token):
            guard connection.session == nil else {
                return fail(.already, "you are \(connection.session!.name)")
            }
            guard let session = sessionsByToken[token] else {
                return fail(
                    .badToken,
                    "no player has that token (it expires \(Int(configuration.grace)) s after a drop)")
            }
            // One role per connection: a spectator who resumes a seat stops watching first, or every
            // event would arrive twice.
            stopWatching(connection)
            if let oldID = session.connection, let old = clients[oldID] {
                old.session = nil
                close(old, saying: "resumed elsewhere", at: now)
            }
            session.connection = connection.id
            session.awaySince = nil
            connection.session = session
            connection.hasIdentified = true
            outbox.log(.info, "resume", [("id", "\(connection.id)"), ("name", session.name)])
            guard let room = session.room else { return ok(session.name) }
            room.presenceChanged(session)
            return counted("\(session.name) \(room.name)", data: room.snapshot)
        case .join(let name, let game, let options):
            return named().flatMap { session in
                join(name, game: game, options: options, session: session, connection: connection, at: now)
            }
        case .watch(let name, let password):
            guard let room = rooms[name] else {
                return fail(.noSuchRoom, "no room named \(TextRules.sanitized(name.prefix(16)))")
            }
            if let secret = room.options.password, secret != password {
                return fail(.denied, "\(room.name) is private; WATCH \(room.name) password=<secret>")
            }
            if let session = connection.session { unseat(session, keeping: room) }
            stopWatching(connection, keeping: room)
            room.addSpectator(connection)
            connection.hasIdentified = true
            return counted(room.name, data: room.snapshot)
        case .leave:
            if let room = connection.watching {
                stopWatching(connection)
                return ok(room.name)
            }
            return seated().flatMap { session, room in
                unseat(session)
                return ok(room.name)
            }
        case .ready:
            return seated().flatMap { session, room in room.markReady(session, at: now).flatMap { ok($0) } }
        case .start:
            return seated().flatMap { session, room in room.start(by: session, at: now).flatMap { ok($0) } }
        case .stats(let name):
            return statsLines(of: name, for: connection).flatMap { counted(data: $0) }
        case .top(let mode):
            return topLines(of: mode).flatMap { counted(data: $0) }
        case .kick(let name):
            return seated().flatMap { session, room in
                kick(name, from: room, by: session).flatMap { ok($0) }
            }
        case .lock, .unlock:
            return seated().flatMap { session, room in
                if let error = room.checkHost(session, verb) { return .failure(error) }
                room.setLocked(command == .lock)
                return ok(room.name)
            }
        case .state:
            if let room = connection.watching { return counted(data: room.snapshot) }
            return seated().flatMap { _, room in counted(data: room.snapshot) }
        case .choose(let picks, let revision):
            return seated().flatMap { session, room in
                room.choose(picks, revision: revision, by: session, at: now).flatMap { ok($0) }
            }
        case .hint:
            return seated().flatMap { _, room in room.hint().flatMap { counted(data: [$0]) } }
        case .new(let options):
            return seated().flatMap { session, room in
                room.requestNewGame(by: session, options: options, at: now).flatMap { ok($0) }
            }
        case .history(let name):
            let room: Room?
            if let name {
                room = rooms[name]
                guard room != nil || archive.games[name] != nil else {
                    return fail(.noSuchRoom, "no room named \(TextRules.sanitized(name.prefix(16)))")
                }
            } else {
                room = connection.watching ?? connection.session?.room
                guard room != nil else { return fail(.noRoom, "JOIN a room first, or say HISTORY <room>") }
            }
            let roomName = room?.name ?? name!
            let isInside = room != nil && (connection.watching === room || connection.session?.room === room)
            // Privacy is per game: a private game's history is for those inside its room under the same
            // password, whoever has taken the room's name since.
            let password = isInside ? room?.options.password : nil
            let games = (archive.games[roomName] ?? []).filter { !$0.isPrivate || $0.password == password }
            let canReadCurrent = room != nil && (room?.options.password == nil || isInside)
            guard canReadCurrent || !games.isEmpty else {
                return fail(.denied, "\(roomName) is private; only its players can read its history")
            }
            let lines = (canReadCurrent ? room?.historyLines() ?? [] : []) + archivedHistory(of: games)
            return counted(data: lines)
        case .chat(let text):
            return named().flatMap { session in
                guard let room = session.room ?? connection.watching else {
                    return fail(.noRoom, "JOIN a room first")
                }
                outbox.record(.chat(room: room.name, name: session.name, text: text))
                room.broadcast([.chat(name: session.name, text: text)])
                return ok()
            }
        }
    }

    private func join(
        _ name: String, game: GameKind?, options: [String: String], session: Session, connection: Client,
        at now: Instant
    ) -> Result<[ServerLine], ProtocolError> {
        guard TextRules.isValidName(name) else {
            return .failure(ProtocolError("JOIN", .badName, "a room name is 1-16 of A-Z a-z 0-9 _ -"))
        }
        let room: Room
        if let existing = rooms[name] {
            if let game, game != existing.options.game {
                return .failure(
                    ProtocolError("JOIN", .mismatch, "\(name) is a \(existing.options.game.rawValue) room"))
            }
            if let secret = existing.options.password, secret != options["password"] {
                return .failure(
                    ProtocolError("JOIN", .denied, "\(name) is private; JOIN \(name) password=<secret>"))
            }
            if let refusal = admission(to: existing, of: session) { return .failure(refusal) }
            var asked = options
            asked["password"] = nil  // Checked above; a public room ignores a password.
            asked["start"] = nil  // Only a new room takes it; an existing one keeps its own.
            switch existing.options.applying(asked, verb: "JOIN") {
            case .failure(let error): return .failure(error)
            case .success(let asked) where asked != existing.options:
                let current = existing.options.pairs.map { "\($0)=\($1)" }.joined(separator: " ")
                return .failure(ProtocolError("JOIN", .mismatch, "\(name) already exists with \(current)"))
            case .success: room = existing
            }
        } else {
            if let limit = configuration.maxRoomsPerIP,
                roomsCreated[connection.addressKey, default: 0] >= limit
            {
                return .failure(
                    ProtocolError(
                        "JOIN", .tooManyRooms,
                        "\(limit) rooms made from your address are open; join one or close one first"))
            }
            if rooms.count >= configuration.maxRooms { closeAbandonedRoom(at: now) }
            guard rooms.count < configuration.maxRooms else {
                return .failure(
                    ProtocolError(
                        "JOIN", .tooManyRooms,
                        "the server has \(configuration.maxRooms) rooms; join one of them"))
            }
            switch RoomOptions(game: game ?? .set).applying(options, verb: "JOIN") {
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
        if session.room !== room { unseat(session) }
        room.seat(session)
        let snapshot = room.snapshot
        return .success(snapshot + [.ok(verb: "JOIN", detail: "\(room.name) \(snapshot.count)")])
    }

    /// Whether `command` would change what the journal keeps: seats, games, claims, chat.
    private func changesJournal(_ command: Command, from connection: Client) -> Bool {
        switch command {
        case .join, .leave, .choose, .new, .chat, .ready, .start, .kick, .lock, .unlock: return true
        case .watch: return connection.session?.room != nil
        case .hello(let name, let key): return key != nil && !nameClaims.isClaimed(name)
        case .ping, .help, .quit, .rooms, .resume, .state, .hint, .history, .stats, .top: return false
        }
    }

    /// The `ROOM` lines of the public rooms in name order, formatted once per change of any room.
    private func roomListing() -> (bytes: [UInt8], count: Int) {
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
