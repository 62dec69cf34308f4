extension ServerCore {
    /// The rooms `ROOMS` lists and the players seated in them: everything a LAN announcement tells
    /// (`setd --announce`), so it never says more than any client may ask. Private rooms are left out.
    public var publicRoomCounts: (rooms: Int, players: Int) {
        var counts = (rooms: 0, players: 0)
        for room in rooms.values where room.options.password == nil {
            counts.rooms += 1
            counts.players += room.seats.count
        }
        return counts
    }
}
