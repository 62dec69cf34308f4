import SetProtocol

extension ServerCore {
    /// Why `session` may not take a new seat in `room`: kicked from it, or it is locked. A player who
    /// holds a seat there already always gets in.
    func admission(to room: Room, of session: Session) -> ProtocolError? {
        guard session.room !== room else { return nil }
        if room.kicked.contains(session.name) {
            return ProtocolError(
                .join, .denied, "the host of \(room.name) took your seat; you may not join it again")
        }
        if room.isLocked {
            return ProtocolError(
                .join, .locked, "\(room.name) is locked by its host; WATCH \(room.name) instead")
        }
        return nil
    }

    /// `KICK <name> [<reason>]` by `session`, who must host `room`: the player loses their seat and may
    /// not join again; the room and the player are told why. Returns the reply's detail.
    func kick(_ name: String, reason: String?, from room: Room, by session: Session)
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
        room.markKicked(name, reason: reason)
        unseat(target)
        return .success(name)
    }
}
