import SetGame
import SetProtocol

/// A command's reply: its data lines then its final `OK`, or its `ERR`.
typealias Answer = Result<[ServerLine], ProtocolError>

/// The `OK` that says `detail`, after `data`: every detail is built as a client reads it (``OKDetail``),
/// so the server's words and the clients' reading cannot drift apart.
func ok(_ detail: OKDetail, data: [ServerLine] = []) -> Answer { .success(data + [detail.line]) }

extension OKDetail {
    /// `OK <VERB>` with nothing after it, or a detail that has no typed reading.
    static func plain(_ verb: Verb, _ detail: String = "") -> OKDetail {
        .other(verb: verb.rawValue, detail: detail)
    }
}

extension ServerCore {
    /// Handles one command from `connection`: every command gets exactly one final line, and the events
    /// it causes go out before that line.
    func received(_ parsed: Result<Command, ProtocolError>, from connection: Client, at now: Instant) {
        connection.lastActivity = now.uptime
        switch parsed {
        case .failure(let error):
            outbox.send(error.line, to: connection.id)
        case .success(let command):
            outbox.log(.debug, "command", [("id", "\(connection.id)"), ("verb", command.verb.rawValue)])
            let reply = run(command, from: connection, at: now)
            // The reply goes after the events the command caused, which the rooms queued while it ran.
            switch reply {
            case .success(let lines) where lines.count == 1 && Self.isChatReply(lines[0]):
                outbox.send(Self.chatReplyBytes, to: connection.id)
            case .success(let lines): for line in lines { outbox.send(line, to: connection.id) }
            case .failure(let error):
                outbox.send(error.line, to: connection.id)
                noteRefusal(error, of: connection)
            }
            if case .quit = command { close(connection, reason: "quit", at: now) }
        }
    }

    /// Runs one command in its area's handler; returns the reply's lines or its error.
    private func run(_ command: Command, from connection: Client, at now: Instant) -> Answer {
        // Nothing is acknowledged that cannot be made durable: while the journal cannot be written,
        // commands that change what it keeps are refused, and the others still work.
        if let problem = journalProblem, changesJournal(command, from: connection) {
            return .failure(
                ProtocolError(
                    command.verb, .unavailable,
                    "the server cannot save changes now (\(problem)); try again soon"))
        }
        switch command {
        case .ping: return ok(.plain(.ping))
        case .help: return help()
        case .quit: return quit(connection)
        case .hello(let name, let key): return hello(name, key: key, on: connection, at: now)
        case .resume(let token): return resume(token, on: connection, at: now)
        case .rooms: return listRooms(for: connection)
        case .join(let name, let game, let options):
            return session(of: connection, .join).flatMap { session in
                join(name, game: game, options: options, session: session, connection: connection, at: now)
            }
        case .watch(let name, let password): return watch(name, password: password, on: connection, at: now)
        case .leave: return leave(connection)
        case .state: return state(of: connection)
        case .choose(let picks, let revision):
            return seat(of: connection, .choose).flatMap { session, room in
                room.choose(picks, revision: revision, by: session, at: now).flatMap { ok($0) }
            }
        case .hint:
            return seat(of: connection, .hint).flatMap { _, room in
                room.hint().flatMap { ok(.hint(count: 1), data: [$0]) }
            }
        case .new(let options):
            return seat(of: connection, .new).flatMap { session, room in
                let sealing = passwordSealer(for: room.name, current: room.options.password)
                return room.requestNewGame(by: session, options: options, at: now, sealing: sealing).flatMap {
                    ok($0)
                }
            }
        case .ready:
            return seat(of: connection, .ready).flatMap { session, room in
                room.markReady(session, at: now).flatMap { ok($0) }
            }
        case .start:
            return seat(of: connection, .start).flatMap { session, room in
                room.start(by: session, at: now).flatMap { ok($0) }
            }
        case .unready:
            return seat(of: connection, .unready).flatMap { session, room in
                room.markUnready(session).flatMap { ok($0) }
            }
        case .pause, .unpause:
            return seat(of: connection, command.verb).flatMap { session, room in
                room.setPaused(command == .pause, by: session, at: now).flatMap {
                    ok(.plain(command.verb, room.name))
                }
            }
        case .chat(let text): return chat(text, from: connection)
        case .history(let name): return history(of: name, for: connection)
        case .record(let id): return record(id, for: connection)
        case .rematch:
            return seat(of: connection, .rematch).flatMap { session, room in
                room.offerRematch(by: session, at: now).flatMap { ok($0) }
            }
        case .standings(let request): return standings(request, for: connection)
        case .stats(let name):
            return statsLines(of: name, for: connection).flatMap { ok(.stats(count: $0.count), data: $0) }
        case .top(let mode):
            return topLines(of: mode).flatMap { ok(.top(count: $0.count), data: $0) }
        case .kick(let name, let reason):
            return seat(of: connection, .kick).flatMap { session, room in
                kick(name, reason: reason, from: room, by: session, at: now).flatMap { ok(.plain(.kick, $0)) }
            }
        case .allow(let name):
            return seat(of: connection, .allow).flatMap { session, room in
                allow(name, into: room, by: session).flatMap { ok(.plain(.allow, $0)) }
            }
        case .lock, .unlock:
            return seat(of: connection, command.verb).flatMap { session, room in
                if let error = room.checkHost(session, command.verb) { return .failure(error) }
                room.setLocked(command == .lock)
                return ok(.plain(command.verb, room.name))
            }
        }
    }

    /// The player a connection speaks for, or `NONAME`.
    func session(of connection: Client, _ verb: Verb) -> Result<Session, ProtocolError> {
        guard let session = connection.session else {
            return .failure(ProtocolError(verb, .noName, "say HELLO <name> first"))
        }
        return .success(session)
    }

    /// The player a connection speaks for and their room, or `NONAME`/`NOROOM`.
    func seat(of connection: Client, _ verb: Verb) -> Result<(Session, Room), ProtocolError> {
        session(of: connection, verb).flatMap { session in
            guard let room = session.room else {
                return .failure(ProtocolError(verb, .noRoom, "JOIN a room first"))
            }
            return .success((session, room))
        }
    }

    /// `HELP`: every command's synopsis.
    private func help() -> Answer {
        let lines = Command.synopses.map { ServerLine.help($0.usage) }
        return ok(.help(count: lines.count), data: lines)
    }

    /// `CHAT`: said to the room the player sits in or watches, and kept in the journal for the record.
    private func chat(_ text: String, from connection: Client) -> Answer {
        session(of: connection, .chat).flatMap { session in
            guard let room = session.room ?? connection.watching else {
                return .failure(ProtocolError(.chat, .noRoom, "JOIN a room first"))
            }
            outbox.record(.chat(room: room.name, name: session.name, text: text))
            // Made as bytes at once: a busy room's events are nearly all chat lines.
            room.broadcast(bytes: ServerLine.chatBytes(name: session.name, text: text))
            return .success(Self.chatReply)
        }
    }

    /// `OK CHAT`, the reply to every chat line, and its bytes: made once, not once a line (a busy room
    /// chats thousands of lines a second).
    static let chatReply: [ServerLine] = [OKDetail.plain(.chat).line]
    static let chatReplyBytes = chatReply[0].bytes

    /// Whether `line` is `OK CHAT`, told by its case (comparing lines compares their texts, two strings
    /// made a reply). Any other line whose text is that sends the same bytes through its own.
    static func isChatReply(_ line: ServerLine) -> Bool {
        guard case .ok(let verb, let detail) = line else { return false }
        return detail.isEmpty && verb == "CHAT"
    }

    /// Logs a refusal the host should know about — a room not made for a limit (`TOOMANYROOMS`) — at
    /// `warn` as `refuse-room`; the engine lets one such line through a second, with the count.
    private func noteRefusal(_ error: ProtocolError, of connection: Client) {
        guard error.code == .tooManyRooms else { return }
        outbox.log(
            .warn, "refuse-room", [("peer", connection.addressKey), ("reason", error.text)])
    }

    /// Whether `command` would change what the journal keeps: seats, games, claims, chat.
    private func changesJournal(_ command: Command, from connection: Client) -> Bool {
        switch command {
        case .join, .leave, .choose, .new, .chat, .ready, .unready, .start, .kick, .allow, .lock, .unlock,
            .rematch, .pause, .unpause:
            return true
        case .standings(let request): return request == .reset
        case .watch: return connection.session?.room != nil
        case .hello(let name, let key): return key != nil && !nameClaims.isClaimed(name)
        case .ping, .help, .quit, .rooms, .resume, .state, .hint, .history, .stats, .top, .record:
            return false
        }
    }
}
