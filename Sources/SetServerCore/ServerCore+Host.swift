import SetProtocol

extension ServerCore {
    /// Why `connection` (as `name`, if it has one) may not come into `room` with `verb` (`JOIN` or
    /// `WATCH`): the host kicked that name or that address, and the kick still holds.
    func kickRefusal(_ verb: Verb, to room: Room, name: String?, from connection: Client, at now: Instant)
        -> ProtocolError?
    {
        guard let ban = room.ban(of: name ?? "", address: connection.addressKey, at: now.wall) else {
            return nil
        }
        guard ban.until.isFinite else {
            return ProtocolError(
                verb, .denied, "the host of \(room.name) took your seat; you may not join it again")
        }
        let minutes = max(1, Int((ban.until - now.wall) / 60 + 0.999))
        return ProtocolError(
            verb, .denied,
            "the host of \(room.name) kicked \(ban.name) from your name or address; come back in \(minutes) min, "
                + "or when the host says ALLOW \(ban.name)")
    }

    /// Why `session` may not take a new seat in `room`: it is locked, or kicked from it (by name or
    /// address). A player who holds a seat there already always gets in.
    func admission(to room: Room, of session: Session, from connection: Client, at now: Instant)
        -> ProtocolError?
    {
        guard session.room !== room else { return nil }
        if room.isLocked {
            return ProtocolError(
                .join, .locked, "\(room.name) is locked by its host; WATCH \(room.name) instead")
        }
        // After the lock: a locked room refuses everyone new alike, and says nothing about kicks.
        if let refusal = kickRefusal(.join, to: room, name: session.name, from: connection, at: now) {
            return refusal
        }
        return nil
    }

    /// `KICK <name> [<reason>]` by `session`, who must host `room`: the player loses their seat and may
    /// not join again; the room and the player are told why. Returns the reply's detail.
    func kick(_ name: String, reason: String?, from room: Room, by session: Session, at now: Instant)
        -> Result<String, ProtocolError>
    {
        if let error = room.checkHost(session, .kick) { return .failure(error) }
        guard name != session.name else {
            return .failure(ProtocolError(.kick, .args, "you cannot kick yourself; LEAVE instead"))
        }
        guard let target = room.seats.first(where: { $0.name == name }) else {
            let shown = TextRules.sanitized(name.prefix(16))
            return .failure(ProtocolError(.kick, .args, "nobody named \(shown) is seated in \(room.name)"))
        }
        let address = target.connection.flatMap { clients[$0]?.addressKey } ?? target.lastAddress ?? ""
        room.markKicked(name, address: address, reason: reason, at: now.wall)
        unseat(target, isForfeit: false)
        return .success(name)
    }

    /// `ALLOW <name>` by `session`, who must host `room`: a kicked name, and the address kicked with it,
    /// may come back at once. Returns the reply's detail.
    func allow(_ name: String, into room: Room, by session: Session) -> Result<String, ProtocolError> {
        if let error = room.checkHost(session, .allow) { return .failure(error) }
        guard room.kicked.contains(name) || room.bans[name] != nil else {
            let shown = TextRules.sanitized(name.prefix(16))
            return .failure(
                ProtocolError(.allow, .args, "nobody named \(shown) was kicked from \(room.name)"))
        }
        room.allow(name)
        room.record(.allow(room: room.name, name: name, by: session.name))
        room.note("allow", ("name", name), ("by", session.name))
        return .success(name)
    }
}
