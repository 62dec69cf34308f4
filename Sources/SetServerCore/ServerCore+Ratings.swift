import SetProtocol

extension ServerCore {
    /// The `RATING` lines of `STATS [<name>]`: the named player's, or the asker's own.
    func statsLines(of name: String?, for connection: Client) -> Result<[ServerLine], ProtocolError> {
        guard let name = name ?? connection.session?.name else {
            return .failure(ProtocolError(.stats, .noName, "say HELLO <name> first, or STATS <name>"))
        }
        guard TextRules.isValidName(name) else {
            return .failure(ProtocolError(.stats, .badName, "a name is 1-16 of A-Z a-z 0-9 _ -"))
        }
        return .success(ratings.lines(of: name))
    }

    /// The `TOP` lines of `TOP [<mode>]`, `normal` by default.
    func topLines(of mode: String?) -> Result<[ServerLine], ProtocolError> {
        let mode = mode ?? "normal"
        guard RatingBook.modes.contains(mode) else {
            let shown = TextRules.sanitized(mode.prefix(20))
            return .failure(
                ProtocolError(
                    .top, .badOption,
                    "'\(shown)' is not a mode; modes: \(RatingBook.modes.joined(separator: ", "))"))
        }
        return .success(ratings.top(mode))
    }

    /// The ratings and claimed names as journal records, for a compacted journal.
    func ratingAndClaimRecords() -> [JournalRecord] {
        var records: [JournalRecord] = []
        for (name, modes) in ratings.entries.sorted(by: { $0.key < $1.key }) {
            for (mode, entry) in modes.sorted(by: { $0.key < $1.key }) {
                records.append(
                    .rating(
                        name: name, mode: mode, rating: entry.rating.bitPattern, games: entry.games,
                        wins: entry.wins,
                        sets: entry.sets, wrong: entry.wrong, stale: entry.stale))
            }
        }
        for (name, modes) in ratings.gains.sorted(by: { $0.key < $1.key }) {
            for (mode, gains) in modes.sorted(by: { $0.key < $1.key }) {
                records += gains.map {
                    .gain(name: name, mode: mode, time: $0.time, amount: $0.amount.bitPattern)
                }
            }
        }
        for (name, claim) in nameClaims.claims.sorted(by: { $0.key < $1.key }) {
            records.append(claim.record(of: name))
        }
        return records
    }

    /// Replays a game-night record: readiness, deals, stale claims, locks, kicks, ratings, claims.
    func replayNight(_ record: JournalRecord, in rooms: [String: Room]) throws(JournalFormatError) {
        func room(_ name: String) throws(JournalFormatError) -> Room {
            guard let room = rooms[name] else {
                throw JournalFormatError(description: "room \(name) does not exist")
            }
            return room
        }
        switch record {
        case .ready(let name, let player): try room(name).readyNames.insert(player)
        case .unready(let name, let player):
            let room = try room(name)
            guard room.isWaiting else {
                throw JournalFormatError(description: "\(player) takes back READY in \(name) while playing")
            }
            room.readyNames.remove(player)
            room.stopCountdown()
        case .vote(let name, let player, let pairs):
            let room = try room(name)
            guard let options = RoomOptions(journalPairs: pairs, room: name),
                room.seats.contains(where: { $0.name == player })
            else { throw JournalFormatError(description: "a vote in \(name) that cannot be") }
            room.votes[player] = options
        case .countdown(let name):
            let room = try room(name)
            guard room.isWaiting else {
                throw JournalFormatError(description: "room \(name) counts down while playing")
            }
            room.isCountdownToResume = true
        case .deal(let name, let time):
            let dealt = try room(name)
            guard dealt.isWaiting else {
                throw JournalFormatError(description: "room \(name) is dealt twice")
            }
            dealt.deal(at: time)
        case .stale(let name, let player):
            let room = try room(name)
            // Its place in the record comes from the `event` record written with it.
            room.tally.noteStale(by: player)
        case .lock(let name, let isLocked, _): try room(name).isLocked = isLocked
        case .kick(let name, let player, _, let address, let until):
            let room = try room(name)
            if let until {
                room.bans[player] = RoomSnapshot.KickBan(name: player, address: address, until: until)
            } else {
                room.kicked.insert(player)
            }
        case .allow(let name, let player, _): try room(name).allow(player)
        case .gain(let name, let mode, let time, let amount):
            ratings.noteGain(name, mode: mode, Double(bitPattern: amount), at: time)
        case .rating(let name, let mode, let rating, let games, let wins, let sets, let wrong, let stale):
            ratings.set(
                name, mode: mode,
                RatingBook.Entry(
                    rating: Double(bitPattern: rating), games: games, wins: wins, sets: sets, wrong: wrong,
                    stale: stale))
        case .nameClaim, .nameKey, .nameUsed, .nameFree:
            try replayClaim(record)
        case .recordEvent(let name, let event): try room(name).appendRecordEvent(event)
        case .rematch(let name, let player):
            let room = try room(name)
            guard room.isOver, room.seats.contains(where: { $0.name == player }) else {
                throw JournalFormatError(description: "a rematch offer in \(name) that cannot be")
            }
            if !room.rematchOffers.contains(player) { room.rematchOffers.append(player) }
        case .standingsReset(let name, _): try room(name).standings = NightStandings()
        default:
            break
        }
    }
}
