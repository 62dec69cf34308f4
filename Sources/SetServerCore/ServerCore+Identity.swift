import SetProtocol

/// Who a connection is: `HELLO`, `RESUME` and `QUIT`.
extension ServerCore {
    /// `HELLO <name> [key=<secret>]`: takes a free name (a claimed one only with its key) and hands out
    /// the token that `RESUME` presents.
    func hello(_ name: String, key: String?, on connection: Client, at now: Instant) -> Answer {
        if let current = connection.session {
            if current.name == name, let claimed = claimOwnName(current, key: key, on: connection, at: now) {
                return claimed
            }
            return .failure(ProtocolError(.hello, .already, "you are \(current.name)"))
        }
        guard TextRules.isValidName(name) else {
            return .failure(ProtocolError(.hello, .badName, "a name is 1-16 of A-Z a-z 0-9 _ -"))
        }
        guard sessionsByName[name] == nil else {
            return .failure(ProtocolError(.hello, .taken, "\(name) is playing; pick another name"))
        }
        if let error = checkNameClaim(name, key: key, on: connection, at: now) { return .failure(error) }
        stopWatching(connection)
        // 128 random bits never repeat in practice; a seeded generator in a simulation may, and a token
        // must name one player.
        var token = Session.makeToken(random)
        while sessionsByToken[token] != nil { token = Session.makeToken(random) }
        let session = Session(name: name, token: token, connection: connection.id)
        sessionsByName.insert(session)
        sessionsByToken.insert(session)
        connection.session = session
        connection.hasIdentified = true
        outbox.log(.info, "hello", [("id", "\(connection.id)"), ("name", name)])
        return ok(.hello(name: name, token: "\(session.token)"))
    }

    /// `RESUME <token>`: takes back a seat kept through a drop (or a restart); an older connection still
    /// holding it is closed.
    func resume(_ text: String, on connection: Client, at now: Instant) -> Answer {
        let token = SessionToken(text)
        if let current = connection.session {
            return .failure(ProtocolError(.resume, .already, "you are \(current.name)"))
        }
        guard let session = sessionsByToken[token] else {
            if let holder = retiredTokens[token] {
                return refuseRetiredToken(of: holder, on: connection, at: now)
            }
            return .failure(
                ProtocolError(
                    .resume, .badToken,
                    "no player has that token (it expires \(Int(configuration.grace)) s after a drop)"))
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
        session.lastAddress = nil
        connection.session = session
        connection.hasIdentified = true
        rotateToken(of: session, on: connection)
        outbox.log(.info, "resume", [("id", "\(connection.id)"), ("name", session.name)])
        guard let room = session.room else { return ok(.resume(name: session.name, room: nil, count: 0)) }
        room.presenceChanged(session)
        let snapshot = room.snapshot
        return ok(.resume(name: session.name, room: room.name, count: snapshot.count), data: snapshot)
    }

    /// `QUIT`: the player is released at once (seat and name), and the connection closes after `OK`.
    func quit(_ connection: Client) -> Answer {
        if let session = connection.session {
            connection.session = nil
            release(session)
        }
        return ok(.plain(.quit))
    }
}
