import SetProtocol

/// A `RESUME` hands out a fresh token and retires the one presented: whoever saw a token once (a shared
/// screen, scrollback, a shared computer's browser) can use it at most until its owner's next `RESUME`,
/// and an attempt with it then fails and tells the owner.
extension ServerCore {
    /// Retired tokens kept per seat, the newest: enough to recognise a thief's copy and tell the owner,
    /// few enough that a seat resumed all evening holds a handful.
    static let retiredTokensKept = 3
    /// The owner is told about a retired token at most this often (seconds): a thief retrying in a loop
    /// must not flood the owner's screen.
    static let retiredTokenNoticeInterval = 60.0

    /// Replaces `session`'s token after a `RESUME` on `connection`: the new one is sent (`TOKEN`, an event
    /// before the reply) and, for a seat, journaled (`token`), so a restart keeps it.
    func rotateToken(of session: Session, on connection: Client) {
        var fresh = Session.makeToken(random)
        while sessionsByToken[fresh] != nil || retiredTokens[fresh] != nil {
            fresh = Session.makeToken(random)
        }
        let old = session.token
        replaceToken(of: session, with: fresh)
        if let room = session.room {
            outbox.record(.token(room: room.name, name: session.name, old: "\(old)", new: "\(fresh)"))
        }
        outbox.send(.token("\(fresh)"), to: connection.id)
    }

    /// `RESUME` with a token a later `RESUME` replaced: refused, and the seat's holder, if connected, is
    /// told (at most once a minute).
    func refuseRetiredToken(of holder: Session, on connection: Client, at now: Instant) -> Answer {
        outbox.log(.warn, "retired-token", [("name", holder.name), ("peer", connection.addressKey)])
        if let id = holder.connection, now.uptime - holder.lastNoticeAt >= Self.retiredTokenNoticeInterval {
            holder.lastNoticeAt = now.uptime
            outbox.send(
                .notice(
                    "someone at \(connection.addressKey) tried an old token of your seat; it no longer works, "
                        + "and your seat is yours"), to: id)
        }
        return .failure(
            ProtocolError(
                .resume, .badToken,
                "that token was replaced when its seat was resumed; only the newest token works (TOKEN lines)"
            ))
    }

    /// Makes `new` the token of `session` and retires its old one.
    private func replaceToken(of session: Session, with new: SessionToken) {
        let old = session.token
        // Out of the table by its old key, back in by its new one.
        sessionsByToken.remove(old)
        session.token = new
        sessionsByToken.insert(session)
        retire(old, of: session)
    }

    private func retire(_ token: SessionToken, of session: Session) {
        session.retiredTokens.append(token)
        retiredTokens[token] = session
        while session.retiredTokens.count > Self.retiredTokensKept {
            retiredTokens[session.retiredTokens.removeFirst()] = nil
        }
    }

    /// Forgets `session`'s retired tokens (it is released, or takes a new seat).
    func forgetRetiredTokens(of session: Session) {
        for token in session.retiredTokens where retiredTokens[token] === session {
            retiredTokens[token] = nil
        }
        session.retiredTokens = []
    }

    /// Replays a `token` record: `old`, `name`'s token in `room`, is replaced by `new`; or, in a compacted
    /// journal (whose snapshot already has `new`), `old` is one of its retired tokens.
    func replayToken(in room: Room, name: String, old oldText: String, new newText: String)
        throws(JournalFormatError)
    {
        let (old, new) = (SessionToken(oldText), SessionToken(newText))
        if let session = sessionsByToken[old] {
            guard session.name == name, session.room === room, sessionsByToken[new] == nil else {
                throw JournalFormatError(description: "a token of \(session.name) is replaced for \(name)")
            }
            replaceToken(of: session, with: new)
        } else if let session = sessionsByToken[new], session.name == name, session.room === room,
            retiredTokens[old] == nil
        {
            retire(old, of: session)
        } else {
            throw JournalFormatError(description: "\(name) in \(room.name) has no token \(old) to replace")
        }
    }

    /// The seated players' retired tokens, as `token` records for a compacted journal (after the
    /// snapshots, which hold the current tokens).
    func retiredTokenRecords() -> [JournalRecord] {
        var records: [JournalRecord] = []
        for session in sessionsByName.sorted(by: { $0.name < $1.name }) {
            guard let room = session.room else { continue }
            for old in session.retiredTokens {
                records.append(
                    .token(room: room.name, name: session.name, old: "\(old)", new: "\(session.token)"))
            }
        }
        return records
    }
}
