import SetProtocol

extension Room {
    /// Refuses a host command from anyone but the host.
    func checkHost(_ session: Session, _ verb: Verb) -> ProtocolError? {
        guard session.name != host else { return nil }
        return ProtocolError(verb, .denied, "only the host, \(host ?? "nobody"), may \(verb.rawValue)")
    }

    /// Marks `name` kicked by the host and tells the room (the kicked player too, still seated), with
    /// the host's reason if they gave one: the core then takes the seat, which says `LEFT`.
    func markKicked(_ name: String, reason: String?) {
        kicked.insert(name)
        record(.kick(room: self.name, name: name, by: host ?? "-"))
        note("kick", ("name", name), ("by", host ?? "-"), ("reason", reason ?? "-"))
        broadcast([.kicked(name: name, by: host ?? "-", reason: reason)])
    }

    /// `LOCK` (`true`) or `UNLOCK` by the host.
    func setLocked(_ locked: Bool) {
        if isLocked != locked { record(.lock(room: name, isLocked: locked, by: host ?? "-")) }
        isLocked = locked
        note(locked ? "lock" : "unlock", ("by", host ?? "-"))
        broadcast([locked ? .locked(host ?? "-") : .unlocked(host ?? "-")])
    }
}
