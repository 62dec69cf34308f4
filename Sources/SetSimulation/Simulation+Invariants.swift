import SetGame
import SetProtocol
import SetServerCore

/// What must hold after every event, checked against the rules as protocol.md states them and against
/// what clients saw — never by asking the code under test whether it is right.
extension Simulation {
    /// Checks every invariant after event `step`. The replay's whole-state comparisons are the dearest
    /// checks (every record of both cores encoded), so they run at a seeded subset of steps — every
    /// `4 × fullCheckEvery` steps from a phase the seed picks, byte for byte every `32 ×`, the snapshot's
    /// round trip every `128 ×` — and, whatever the phase, at every restart and outage's end (there the
    /// rewritten journal is compared byte for byte) and after the last event (`isLast`: all of them).
    func check(step: Int, isLast: Bool = false) {
        for client in clients {
            if let problem = client.protocolProblems.first {
                return fail("\(client.name) could not read '\(problem)'")
            }
            // Every connection's queued bytes stay under its cap: what a stalled client holds unread.
            if client.inbox.count > configuration.maximumOutputBytes {
                return fail("\(client.name) holds \(client.inbox.count) bytes, over the cap")
            }
        }
        checkRatings()
        let (records, bytes) = disk.takeWritten()
        // The rooms this event changed (every room every `fullCheckEvery` events, or when a record
        // belongs to none): their games add up, and so do the views of the clients in them.
        let everything = isLast || step % fullCheckEvery == 0 || records.contains { $0.roomName == nil }
        // A restore from the journal equals the live state (skipped while the journal cannot be
        // written: the rewrite that ends the outage is checked instead).
        // The live rooms as the replay check took them, when it did: the same moment, not taken again.
        var liveRooms: [RoomSnapshot]?
        if engine.isJournalAvailable {
            if let mismatch = catching({ try replay.feed(journal: bytes) }) { return fail(mismatch) }
            // Every step the rooms its records touched, value by value; at the seeded subset of steps
            // the whole state (ratings, claims, names, the archive, rooms changed with no record), and
            // one in eight of those all of it byte for byte, times and options too.
            let touched = records.map(\.roomName)
            let beat = step + checkPhase
            let every = fullCheckEvery * 4
            if isLast || beat % (every * 8) == 0 {
                if let mismatch = catching({ liveRooms = try replay.compare(with: engine.core) }) {
                    return fail(mismatch)
                }
            } else if beat % every == 0 {
                if let mismatch = catching({ liveRooms = try replay.compareValues(with: engine.core) }) {
                    return fail(mismatch)
                }
            } else if !touched.isEmpty {
                let names = Set(touched.compactMap { $0 })
                if let mismatch = catching({ liveRooms = try replay.compare(rooms: names, with: engine.core) }
                ) {
                    return fail(mismatch)
                }
            }
            if isLast || beat % (every * 32) == 0 {
                if let mismatch = catching({ try replay.compareSnapshotRoundTrip(of: engine.core) }) {
                    return fail(mismatch)
                }
                wholeStateChecks += 1
            }
        }
        let snapshots: [RoomSnapshot]
        if let liveRooms, liveRooms.count == engine.core.roomNames.count || !everything {
            // The replay check compared exactly these rooms, all of them or those touched.
            snapshots = liveRooms
        } else if everything {
            // The rooms the replay check took already are not taken again.
            var taken: [String: RoomSnapshot] = [:]
            for room in liveRooms ?? [] { taken[room.name] = room }
            snapshots = engine.core.roomNames.sorted().compactMap {
                taken[$0] ?? engine.core.snapshot(ofRoom: $0)
            }
        } else {
            snapshots = Set(records.compactMap(\.roomName)).sorted().compactMap {
                engine.core.snapshot(ofRoom: $0)
            }
        }
        if everything { checkSeats(snapshots) }
        for room in snapshots { checkGame(room) }
        checkViews(snapshots)
    }

    /// Each game's rating changes sum to zero (one K per game), or less: a forfeit — a player leaving a
    /// real game before its end, scored alone then — only lowers the leaver's rating, and a gain cut to
    /// the hourly bound gives less than the others lost. Rating is never made from nothing.
    private func checkRatings() {
        guard !pendingRatings.isEmpty else { return }
        var changes: [Double] = []
        for (key, bits) in pendingRatings {
            let before = ratings[key].map { Double(bitPattern: $0) } ?? 1500
            changes.append(Double(bitPattern: bits) - before)
            ratings[key] = bits
        }
        pendingRatings = []
        let sum = changes.reduce(0, +)
        if sum > 1e-6 { fail("a game's rating changes sum to \(sum), above zero") }
    }

    /// No player holds two seats; no token seats two players.
    private func checkSeats(_ rooms: [RoomSnapshot]) {
        var names: Set<String> = []
        var tokens: Set<String> = []
        for room in rooms {
            for seat in room.seats {
                if !names.insert(seat.name).inserted { return fail("\(seat.name) holds two seats") }
                if !tokens.insert(seat.token).inserted { return fail("a token seats two players") }
            }
        }
    }

    /// Board, deck and taken cards partition the deck; scores follow the mode's scoring from the claims.
    private func checkGame(_ room: RoomSnapshot) {
        let sheet = room.night.tally.players
        switch room.game {
        case .set(let state):
            // Each card of the mode's deck is in exactly one place. In chain mode each set reuses a card of
            // the one before, so a taken card may be in two sets (but never also on the board or deck); in
            // puzzle a found set stays on the board until the board moves on, and leaves with it.
            // Counted in a scratch array kept between checks, and only the cards in play and in the
            // mode's deck are visited (not every card of every mode's deck).
            let mode = state.options.mode
            let inDeck = deckMembership(of: mode)
            var place: [UInt8] = []
            swap(&place, &placeScratch)
            defer {
                for card in state.board { place[card.index] = 0 }
                for card in state.deck { place[card.index] = 0 }
                for taken in state.takenSets { for card in taken.cards { place[card.index] = 0 } }
                swap(&place, &placeScratch)
            }
            for card in state.board { place[card.index] &+= 1 }
            for card in state.deck { place[card.index] &+= 1 }
            for taken in state.takenSets {
                for card in taken.cards { place[card.index] |= 0x80 }
            }
            func count(_ index: Int) -> Int {
                let dealt = Int(place[index] & 0x7F)
                let taken = place[index] & 0x80 == 0 ? 0 : 1
                return mode.isPuzzle && dealt > 0 ? dealt : dealt + taken
            }
            // A card of another mode's deck is in no place.
            let stranger =
                state.board.first { !inDeck[$0.index] } ?? state.deck.first { !inDeck[$0.index] }
                ?? state.takenSets.lazy.compactMap { $0.cards.first { !inDeck[$0.index] } }.first
            if let card = stranger {
                return fail("\(room.name): \(card.code) is in \(count(card.index)) places")
            }
            for card in mode.cards {
                let count = count(card.index)
                // A puzzle board that moved on took its cards no set used out of play: in no place.
                guard count == 1 || (mode.isPuzzle && count == 0) else {
                    return fail("\(room.name): \(card.code) is in \(count) places")
                }
            }
            for (name, score) in state.scores {
                let sets = state.takenSets.count { $0.player == name }
                let wrong = sheet[name]?.wrong ?? 0
                if score != sets - wrong * state.options.wrongClaimPenalty {
                    return fail(
                        "\(room.name): \(name) scores \(score) with \(sets) sets and \(wrong) wrong claims")
                }
            }
        case .matchismo(let state):
            if state.slots.count + state.deckCount != 52
                || Set(state.slots.map(\.card)).count != state.slots.count
            {
                return fail("\(room.name): the Matchismo board and deck are not 52 cards")
            }
            // Once a long game forgot its oldest choices (GameLogLimit), the history no longer sums up.
            for (name, score) in state.scores where state.forgottenChoices == 0 {
                let points = state.history.filter { $0.player == name }.reduce(0) { $0 + $1.points }
                if score != points {
                    return fail("\(room.name): \(name) scores \(score), their choices \(points)")
                }
            }
        }
    }

    /// Each client's view, built from the lines it read, equals its room: board, revision, deck, the
    /// players and their scores, the turn.
    private func checkViews(_ rooms: [RoomSnapshot]) {
        for client in clients where client.isConnected && client.isReading && client.inbox.isEmpty {
            // Only a client that took its seat on this connection knows the room (a snapshot said so).
            guard client.view.room != nil, let token = client.token,
                let room = rooms.first(where: { room in
                    room.seats.contains { $0.token == token && $0.isOnline }
                })
            else { continue }
            let view = client.view
            func mismatch(_ what: String) { fail("\(client.name) sees \(what) in \(room.name)") }
            guard view.room == room.name else { return mismatch("room \(view.room ?? "none")") }
            let seats = room.seats.map(\.name)
            guard view.players.map(\.name) == seats else {
                return mismatch("players \(view.players.map(\.name)), not \(seats)")
            }
            switch room.game {
            case .set(let state):
                let isWaiting = room.night.isWaiting
                let board = view.setCards.compactMap { $0 }
                if state.options.mode.dealsFaceDown {
                    // Memory: every card face down, as many as the game has.
                    let faceDown = view.board.allSatisfy { $0 == .playing(nil, isMatched: false) }
                    guard faceDown, view.board.count == (isWaiting ? 0 : state.board.count) else {
                        return mismatch("a memory board that is not all face down")
                    }
                } else if board != (isWaiting ? [] : state.board) {
                    return mismatch("another board")
                }
                guard view.deckCount == state.deck.count + (isWaiting ? state.board.count : 0) else {
                    return mismatch("deck \(view.deckCount)")
                }
                guard view.revision == state.revision else {
                    return mismatch("revision \(view.revision), not \(state.revision)")
                }
                for player in view.players where player.score != state.scores[player.name, default: 0] {
                    return mismatch(
                        "\(player.name) at \(player.score), not \(state.scores[player.name, default: 0])")
                }
            case .matchismo(let state):
                guard view.revision == state.revision else {
                    return mismatch("revision \(view.revision), not \(state.revision)")
                }
                let slots: [GameView.Slot] = state.slots.map { slot in
                    .playing(slot.isFaceUp || slot.isMatched ? slot.card : nil, isMatched: slot.isMatched)
                }
                if !room.night.isWaiting, view.board != slots { return mismatch("another Matchismo board") }
                for player in view.players where player.score != state.scores[player.name, default: 0] {
                    return mismatch(
                        "\(player.name) at \(player.score), not \(state.scores[player.name, default: 0])")
                }
            }
        }
    }

    /// Which cards of every mode's deck are in `mode`'s, by index (worked out once per mode).
    private func deckMembership(of mode: SetMode) -> [Bool] {
        if let known = deckMembership[mode] { return known }
        var inDeck = [Bool](repeating: false, count: Card.universe.count)
        for card in mode.cards { inDeck[card.index] = true }
        deckMembership[mode] = inDeck
        return inDeck
    }
}
