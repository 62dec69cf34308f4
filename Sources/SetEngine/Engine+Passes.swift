import SetServerCore

extension Engine {
    /// Whether some connection's lines wait for the next pass (see ``passEnded(at:)``).
    public var hasDeferredInput: Bool { !deferredOrder.isEmpty }

    /// The shell finished a pass of its event loop and wrote what was queued: every room's budget of
    /// lines is whole again, and the lines that waited are handled, the connection that began waiting
    /// first served first, each again within its room's budget.
    ///
    /// Why: a pass handles everything the sockets had, and one room flooding flat out would otherwise
    /// fill it with its own lines, so a quiet room's line would wait behind thousands of them. Bounded,
    /// the flood delays only its own room.
    public func passEnded(at now: Instant) -> [Action] {
        passLines.removeAll(keepingCapacity: true)
        guard !deferredOrder.isEmpty else { return [] }
        begin(at: now)
        let order = deferredOrder
        deferredOrder = []
        for id in order {
            guard let frames = deferredFrames.removeValue(forKey: id) else { continue }
            guard let connection = connections[id], connection.isReading else { continue }
            handle(frames, on: connection)
        }
        return end()
    }
}
