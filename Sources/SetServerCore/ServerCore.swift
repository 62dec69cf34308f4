import SetProtocol

/// The server's rules of play without sockets: connections, players, rooms, limits, votes and journal
/// records, driven by inputs and answering with ``Effect``s.
///
/// Ownership rule: one core is owned by one caller, which hands it one input at a time — a line framed
/// from a connection, a connection opened or lost, a timer tick — and carries out the effects each call
/// returns, in order, before the next input. Nothing in the core reaches a socket, a file or a clock, so
/// there is no re-entrancy: a connection the shell has to drop (its output queue is full) is an input for
/// after the current effects, never a call in the middle of a broadcast. In the daemon the caller is the
/// shell's serial queue; in tests it is the test, with a virtual clock.
public final class ServerCore {
    /// The configuration the core enforces.
    public let configuration: ServerConfiguration
    let outbox: Outbox
    let archive: Archive
    /// Every name's totals and ratings, per mode.
    let ratings = RatingBook()
    /// Names claimed with a key.
    let nameClaims = NameClaims()
    /// Wrong keys and passwords, per address and per name, and the waits they earned.
    var guesses = GuessLimits()
    /// The last `ROOMS` listing and the version it was made at.
    var listingCache: (version: Int, bytes: [UInt8], count: Int)?
    /// Open connections by ID.
    private(set) var clients = KeyedTable<Client.ByID>()
    /// Every player's session, by name and by token.
    var sessionsByName = KeyedTable<Session.ByName>()
    var sessionsByToken = KeyedTable<Session.ByToken>()
    /// Tokens replaced by a `RESUME`, and whose they were.
    var retiredTokens: [SessionToken: Session] = [:]
    var rooms: [String: Room] = [:] {
        didSet {
            outbox.roomListChanged()
            roomsInNameOrder = nil
        }
    }
    /// The rooms in name order, kept from one tick to the next until a room opens or closes: the tick
    /// looks through them four times a second, and sorting them each time was most of its work.
    private var roomsInNameOrder: [Room]?
    private var pingCounter = 0
    /// Open rooms by the address that created them, for `--max-rooms-per-ip`.
    var roomsCreated: [String: Int] = [:]
    /// Why the journal cannot be written now, or `nil` while it can. Meanwhile changes are refused with
    /// `UNAVAILABLE`: nothing is acknowledged that could not be made durable.
    public private(set) var journalProblem: String?

    /// Tokens, salts and rooms' seeds come from here.
    let random: Randomness

    /// Creates a core with no connections and no rooms, drawing its secrets from `random`.
    public init(configuration: ServerConfiguration, random: Randomness = .system) {
        self.configuration = configuration
        self.random = random
        outbox = Outbox(logLevel: configuration.logLevel, gameLogLimit: configuration.gameLogLimit)
        archive = Archive(capacity: configuration.maxArchivedGames)
    }

    /// Breaks the cycle each seated player makes with their room (see ``Session/room``): a core thrown
    /// away with players seated lets go of its rooms and sessions.
    deinit {
        for room in rooms.values { room.releaseSeats() }
    }

    /// The number of open connections the core knows.
    public var clientCount: Int { clients.count }

    /// The number of rooms open.
    public var roomCount: Int { rooms.count }

    // MARK: Inputs

    /// A player's connection was opened by `peer` (`address:port`, for the log), counted against the
    /// limits of `addressKey` (its address, or its IPv6 /64): greets it. Whether it may open at all is the
    /// engine's decision, made before.
    public func connect(_ id: ConnectionID, peer: String, addressKey: String, at now: Instant) -> [Effect] {
        admit(Client(id: id, peer: peer, addressKey: addressKey, at: now.uptime))
    }

    /// ``connect(_:peer:addressKey:at:)`` for a peer at IPv4 `address` and `port`, counted under the
    /// address: what the core keeps of such a peer, with no text spelled by the engine and read back
    /// here at every connection.
    public func connect(_ id: ConnectionID, ipv4 address: UInt32, port: UInt16, at now: Instant) -> [Effect] {
        admit(Client(id: id, ipv4: address, port: port, at: now.uptime))
    }

    private func admit(_ client: Client) -> [Effect] {
        precondition(clients[client.id] == nil, "connection IDs are never reused")
        clients.insert(client)
        outbox.log(.info, "connect", [("id", "\(client.id)"), ("peer", client.peer)])
        outbox.send(.greeting(version: 1, text: "welcome to setd; type HELP"), to: client.id)
        return drain()
    }

    /// Handles one command (or the reason a line is not one) from connection `id`: every command gets
    /// exactly one final line, and the events it causes are queued before that line. The rate limit is
    /// the engine's, paid before.
    public func handle(_ command: Result<Command, ProtocolError>, from id: ConnectionID, at now: Instant)
        -> [Effect]
    {
        var effects: [Effect] = []
        handle(command, from: id, at: now, into: &effects)
        return effects
    }

    /// ``handle(_:from:at:)``, its effects appended to `effects`: a caller handling command after command
    /// empties the array (keeping its capacity) and passes it again, so no command allocates one.
    public func handle(
        _ command: Result<Command, ProtocolError>, from id: ConnectionID, at now: Instant,
        into effects: inout [Effect]
    ) {
        outbox.wallTime = now.wall
        if let client = clients[id] { received(command, from: client, at: now) }
        outbox.drain(into: &effects)
    }

    /// Whether connection `id` is a client of the core (greeted and not yet closed).
    public func isConnected(_ id: ConnectionID) -> Bool { clients[id] != nil }

    /// The shell lost connection `id` (the peer closed, a write failed, or it stopped reading): its player
    /// goes away into the grace period, a spectator stops watching.
    public func disconnected(_ id: ConnectionID, reason: String, at now: Instant) -> [Effect] {
        outbox.wallTime = now.wall
        if let client = clients[id] { forget(client, reason: reason, at: now) }
        return drain()
    }

    /// A client's timer that has run out, the first of them in this order: a connection that never said
    /// `HELLO` is closed before it counts as idle, and an idle one is closed rather than pinged.
    private enum ClientTimer { case registration, idle, ping }

    /// Which of `client`'s timers has run out at `time` (uptime), if any.
    private func dueTimer(of client: Client, at time: Double) -> ClientTimer? {
        if !client.hasIdentified, time - client.unidentifiedSince > configuration.registrationTimeout {
            return .registration
        }
        if time - client.lastActivity > configuration.idleTimeout { return .idle }
        if time - max(client.lastActivity, client.lastPingAt) >= configuration.pingInterval { return .ping }
        return nil
    }

    /// Runs the timers due at `now`: registration deadlines, idle timeouts, server `PING`s, expired
    /// grace periods and waiting rooms' countdowns. The shell calls it about once a second.
    public func tick(at now: Instant) -> [Effect] {
        outbox.wallTime = now.wall
        let time = now.uptime
        // Only the clients something is due for are sorted (most seconds, none): what is due depends on
        // the time alone, and dealing with one client makes nothing due for another.
        let due = clients.compactMap { client in dueTimer(of: client, at: time).map { (client, $0) } }
        // (Nothing sorted when nothing is due: sorting even an empty list makes a new one.)
        for (client, timer) in due.isEmpty ? [] : due.sorted(by: { $0.0.id < $1.0.id }) {
            switch timer {
            case .registration:
                outbox.log(.info, "unregistered", [("id", "\(client.id)"), ("peer", client.peer)])
                close(client, saying: "no HELLO within \(Int(configuration.registrationTimeout)) s", at: now)
            case .idle:
                outbox.log(.info, "idle", [("id", "\(client.id)"), ("peer", client.peer)])
                close(client, saying: "idle for \(Int(configuration.idleTimeout)) s", at: now)
            case .ping:
                pingCounter += 1
                client.lastPingAt = time
                outbox.send(.ping("\(pingCounter)"), to: client.id)
            }
        }
        sweepGuesses(at: now)
        // While the journal cannot be written, nothing changes by itself that it would have to keep:
        // seats wait to expire and countdowns wait to deal until it can.
        guard journalProblem == nil else { return drain() }
        // Only those whose grace ran out are sorted (most seconds, none): releasing one changes nobody
        // else's time away.
        let expired = sessionsByName.filter { session in
            session.awaySince.map { time - $0 > configuration.grace } ?? false
        }
        for session in expired.isEmpty ? [] : expired.sorted(by: { $0.name < $1.name }) {
            outbox.log(.info, "grace-expired", [("name", session.name)])
            release(session)
        }
        // Each pass takes the rooms it is for, in name order, before it deals with any of them.
        // A standing vote whose voters now make a majority of those online (someone left or dropped).
        for room in roomsByName.filter(\.isRecountDue) {
            room.recountVotes(at: now)
        }
        // A rematch everyone still online has offered (someone who had not left or dropped).
        for room in roomsByName.filter(\.isRematchCheckDue) {
            room.startRematchIfAgreed(by: nil, at: now)
        }
        sweepExpiredClaims(at: now)
        // A timed game whose minutes of play have passed: time is called, journaled, and the game ends.
        for room in roomsByName.filter(\.isTimed) {
            room.callTimeIfDue(at: now)
        }
        for room in roomsByName.filter(\.isCountingDown) {
            room.advanceCountdown(at: now)
        }
        return drain()
    }

    /// The open rooms in name order (see ``roomsInNameOrder``).
    private var roomsByName: [Room] {
        if let rooms = roomsInNameOrder { return rooms }
        let sorted = rooms.values.sorted { $0.name < $1.name }
        roomsInNameOrder = sorted
        return sorted
    }

    /// Says `BYE <reason>` to every connection and closes them all; nobody goes into grace, since the
    /// server is going away, not the players.
    public func shutDown(reason: String, at now: Instant) -> [Effect] {
        outbox.log(.info, "shutdown", [("clients", "\(clients.count)"), ("reason", reason)])
        for client in clients.sorted(by: { $0.id < $1.id }) {
            client.session = nil
            close(client, saying: reason, at: now)
        }
        return drain()
    }

    /// The shell could not write the journal (disk full, I/O error): refuse changes until
    /// ``journalRecovered(at:)``.
    public func journalFailed(_ reason: String, at now: Instant) -> [Effect] {
        if journalProblem == nil {
            outbox.log(
                .error, "journal-unavailable",
                [
                    ("reason", reason),
                    ("what-to-do", "free space on the state directory's disk; changes resume by themselves"),
                ])
        }
        journalProblem = reason
        return drain()
    }

    /// The journal can be written again (the shell has rewritten it as the current state).
    public func journalRecovered(at now: Instant) -> [Effect] {
        if journalProblem != nil { outbox.log(.info, "journal-available") }
        journalProblem = nil
        return drain()
    }

    // MARK: Connections

    /// Says `BYE <reason>` and closes the connection after it.
    func close(_ client: Client, saying reason: String, at now: Instant) {
        outbox.send(.bye(reason), to: client.id)
        close(client, reason: reason, at: now)
    }

    /// Closes the connection once what is queued for it is written, and forgets it at once.
    func close(_ client: Client, reason: String, at now: Instant) {
        forget(client, reason: reason, at: now)
        outbox.close(client.id, reason: reason)
    }

    /// Forgets a connection: its player goes away into grace, a spectator stops watching.
    private func forget(_ client: Client, reason: String, at now: Instant) {
        guard clients.remove(client.id) != nil else { return }
        outbox.log(.info, "disconnect", [("id", "\(client.id)"), ("peer", client.peer), ("reason", reason)])
        stopWatching(client)
        if let session = client.session, session.connection == client.id {
            session.connection = nil
            session.awaySince = now.uptime
            session.lastAddress = client.addressKey
            if let room = session.room {
                room.presenceChanged(session)
            } else {
                // A name without a seat has nothing to keep through a grace period: it is free at once
                // (or connections saying HELLO with a new name each would pile up for the whole grace).
                release(session)
            }
        }
        client.session = nil
    }

    /// Forgets a player: frees the seat and the name.
    func release(_ session: Session) {
        unseat(session)
        sessionsByName.remove(session.name)
        sessionsByToken.remove(session.token)
        forgetRetiredTokens(of: session)
    }

    /// Ends a connection's watching, closing the room if that leaves it empty — unless it is `kept`, the
    /// room the connection is about to sit in or watch.
    func stopWatching(_ client: Client, keeping kept: Room? = nil) {
        guard let watched = client.watching else { return }
        watched.removeSpectator(client)
        if watched !== kept { removeIfEmpty(watched) }
    }

    /// Gives up a player's seat, closing the room if that leaves it empty — unless it is `kept`. A player
    /// who leaves a real game before its end loses it (`Room.forfeit`), unless the host kicked them
    /// (`isForfeit` false): a host must not be able to make someone lose.
    func unseat(_ session: Session, keeping kept: Room? = nil, isForfeit: Bool = true) {
        guard let room = session.room else { return }
        if isForfeit { room.forfeit(session.name) }
        room.unseat(session)
        if room !== kept { removeIfEmpty(room) }
    }

    func removeIfEmpty(_ room: Room) {
        guard room.isEmpty, rooms[room.name] === room else { return }
        // A game left mid-way by everyone still gets its record, before the room goes.
        room.archiveAbandonedGame()
        rooms[room.name] = nil
        if let host = room.creatorHost {
            let left = roomsCreated[host, default: 1] - 1
            roomsCreated[host] = left > 0 ? left : nil
        }
        outbox.record(.close(room: room.name))
        outbox.log(.info, "room-closed", [("room", room.name)])
    }

    /// When the room table is full, closes the room whose players have all been away the longest, with
    /// nobody watching: its seats are released as if their grace had run out. A table full of rooms
    /// nobody is in must not keep a newcomer out.
    func closeAbandonedRoom(at now: Instant) {
        let abandoned = rooms.values.filter { room in
            room.spectators.isEmpty && !room.seats.isEmpty && room.onlineCount == 0
        }
        func lastSeen(_ room: Room) -> Double { room.seats.compactMap(\.awaySince).max() ?? 0 }
        // Ties go to the first name, whatever order the table keeps its rooms in.
        guard let oldest = abandoned.min(by: { (lastSeen($0), $0.name) < (lastSeen($1), $1.name) }) else {
            return
        }
        outbox.log(.info, "room-abandoned", [("room", oldest.name)])
        for session in oldest.seats { release(session) }
    }

    /// A seed for a new room: the configured seed and the room's name, or fresh randomness.
    func makeRoomSeed(for name: String) -> UInt64 {
        guard let seed = configuration.seed else { return random.bits() }
        // FNV-1a of the name: stable across runs, unlike `hashValue`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return seed ^ hash
    }

    /// Hands out what this call produced.
    func drain() -> [Effect] { outbox.drain() }
}
