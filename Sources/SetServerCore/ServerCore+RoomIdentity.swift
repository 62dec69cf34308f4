extension ServerCore {
    /// The room connection `id` sits in or watches, as an identity that lasts as long as the room: what
    /// the engine counts one pass's work of a room under (see `EngineLimits.linesPerRoomPerPass`). Not a
    /// decision of the game: it only says whose input waits for the next pass, never what it does.
    public func roomIdentity(of id: ConnectionID) -> ObjectIdentifier? {
        guard let client = clients[id], let room = client.session?.room ?? client.watching else { return nil }
        return ObjectIdentifier(room)
    }

    /// Goes up whenever a connection's ``roomIdentity(of:)`` may have changed (anyone seated, unseated,
    /// watching or not, or a seat's connection changed): while it stays, every connection's room does.
    public var listenersVersion: Int { outbox.listenersVersion }
}
