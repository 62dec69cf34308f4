import SetProtocol

extension Room {
    /// Refuses a host command from anyone but the host.
    func checkHost(_ session: Session, _ verb: Verb) -> ProtocolError? {
        guard session.name != host else { return nil }
        return ProtocolError(verb, .denied, "only the host, \(host ?? "nobody"), may \(verb.rawValue)")
    }

    /// How long a kick keeps a name and its address out: long enough that a troll's new name from the
    /// same machine finds the door shut for the rest of the evening's game, short enough that a
    /// mistaken kick mends itself (the host can also `ALLOW` them back at once).
    static let kickBanSeconds = 600.0

    /// The kick that keeps `name`, or a connection from `address`, out at `wall` (Unix seconds), if any.
    func ban(of name: String, address: String?, at wall: Double) -> RoomSnapshot.KickBan? {
        if kicked.contains(name) { return RoomSnapshot.KickBan(name: name, address: "", until: .infinity) }
        if let ban = bans[name], ban.until > wall { return ban }
        guard let address, !address.isEmpty else { return nil }
        return bans.values.filter { $0.address == address && $0.until > wall }.max { $0.until < $1.until }
    }

    /// Marks `name` kicked by the host, with the address they played from (empty if they were away), and
    /// tells the room (the kicked player too, still seated), with the host's reason if they gave one: the
    /// core then takes the seat, which says `LEFT`.
    func markKicked(_ name: String, address: String, reason: String?, at wall: Double) {
        // To the millisecond, as the journal keeps it, so a replay holds the very same ban.
        let until = Double(Int64(((wall + Self.kickBanSeconds) * 1000).rounded())) / 1000
        let ban = RoomSnapshot.KickBan(name: name, address: address, until: until)
        bans[name] = ban
        record(.kick(room: self.name, name: name, by: host ?? "-", address: address, until: ban.until))
        noteEvent("kick", name: name, at: wall, by: host ?? "-")
        note("kick", ("name", name), ("by", host ?? "-"), ("reason", reason ?? "-"))
        broadcast([.kicked(name: name, by: host ?? "-", reason: reason)])
    }

    /// Lets a kicked name, and the address kicked with it, back in.
    func allow(_ name: String) {
        kicked.remove(name)
        bans[name] = nil
    }

    /// `LOCK` (`true`) or `UNLOCK` by the host.
    func setLocked(_ locked: Bool) {
        if isLocked != locked { record(.lock(room: name, isLocked: locked, by: host ?? "-")) }
        isLocked = locked
        note(locked ? "lock" : "unlock", ("by", host ?? "-"))
        broadcast([locked ? .locked(host ?? "-") : .unlocked(host ?? "-")])
    }
}
