/// Whether a room's game is running, as the fourth word of a `ROOM` line says.
///
/// A `ROOM` line with a status this version does not know (a newer server's) parses as
/// ``ServerLine/unknown(_:)``, which clients ignore as protocol.md asks: a client cannot tell whether a
/// game it does not understand is one it can play in, so it keeps what it knew rather than guess.
public enum RoomStatus: String, Sendable, CaseIterable {
    /// The game is running.
    case playing
    /// The game is over; `NEW` starts another.
    case over
    /// The room (`start=ready`) waits for its players to say `READY`, or its host `START`.
    case waiting
}
