import SetProtocol

/// `REMATCH`: at game over each player may offer to play again, with the same players and options and
/// a fresh deal; when everyone seated and online has offered, the next game starts at once, dealt even
/// in a room that waits for `READY` (everyone just said so). Offers are journaled (`rematch` records),
/// the start is the new game's `game` (and `deal`) record, so a replay ends where live play did.
extension Room {
    /// The offers that count: those of the seated players online now.
    private var presentOffers: Int { rematchOffers.count { isPresent($0) } }

    /// `REMATCH` from `session`. Returns the reply's detail.
    func offerRematch(by session: Session, at now: Instant) -> Result<OKDetail, ProtocolError> {
        guard isOver, !isWaiting else {
            return .failure(
                ProtocolError(
                    .rematch, .notOver,
                    isWaiting
                        ? "the game in \(name) has not started; say READY"
                        : "the game in \(name) is still running; NEW asks the others to end it"))
        }
        if !rematchOffers.contains(session.name) {
            rematchOffers.append(session.name)
            record(.rematch(room: name, name: session.name))
            note("rematch", ("name", session.name))
        }
        if startRematchIfAgreed(by: session.name, at: now) { return .success(.rematch(.started)) }
        let (offers, needed) = (presentOffers, onlineCount)
        broadcast([.rematch(name: session.name, offers: offers, needed: needed)])
        return .success(.rematch(.offered(offers: offers, needed: needed)))
    }

    /// Starts the rematch if everyone seated and online has offered: `NEWGAME <name>` (the player whose
    /// offer completed it, or the first to offer when a player leaving or dropping completed it) and
    /// the new game's snapshot. Returns whether it started.
    @discardableResult
    func startRematchIfAgreed(by name: String?, at now: Instant) -> Bool {
        isRematchCheckDue = false
        guard isOver, !outbox.isReplaying, !rematchOffers.isEmpty, onlineCount > 0,
            seats.allSatisfy({ !$0.isPresent || rematchOffers.contains($0.name) })
        else { return false }
        let starter = name ?? rematchOffers[0]
        restart(with: options, at: now.wall, uptime: now.uptime)
        if isWaiting { deal(at: now.wall, uptime: now.uptime) }
        note("new-game", ("name", starter), ("index", "\(gameIndex)"), ("by", "rematch"))
        broadcast([.newGame(starter)] + snapshot)
        return true
    }
}
