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
            if let problem = Self.partitionProblem(
                board: state.board, deck: state.deck, taken: state.takenSets.lazy.map(\.cards), mode: mode,
                inDeck: deckMembership(of: mode), deckCount: inDeckCount(of: mode), scratch: &placeScratch)
            {
                return fail("\(room.name): \(problem)")
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
            if state.slots.count + state.deckCount != 52 || Self.holdsACardTwice(state.slots.map(\.card)) {
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
                let index = rooms.firstIndex(where: { room in
                    room.seats.contains { $0.token == token && $0.isOnline }
                })
            else { continue }
            checkView(of: client, in: rooms[index])
            if failure != nil { return }
        }
    }

    /// One client's view against its room (see ``checkViews(_:)``): the room passed as it is held, not
    /// copied, and the view compared in place, with no list made for the comparison.
    private func checkView(of client: SimulatedClient, in room: RoomSnapshot) {
        let view = client.view
        func mismatch(_ what: String) { fail("\(client.name) sees \(what) in \(room.name)") }
        guard view.room == room.name else { return mismatch("room \(view.room ?? "none")") }
        let seats = room.seats
        guard view.players.count == seats.count,
            zip(view.players, seats).allSatisfy({ $0.name == $1.name })
        else {
            return mismatch("players \(view.players.map(\.name)), not \(seats.map(\.name))")
        }
        switch room.game {
        case .set(let state):
            let isWaiting = room.night.isWaiting
            if state.options.mode.dealsFaceDown {
                // Memory: every card face down, as many as the game has.
                let faceDown = view.board.allSatisfy { $0 == .playing(nil, isMatched: false) }
                guard faceDown, view.board.count == (isWaiting ? 0 : state.board.count) else {
                    return mismatch("a memory board that is not all face down")
                }
            } else if !Self.showsExactly(isWaiting ? [] : state.board, on: view.board) {
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

    /// Whether the SET cards of `board`, in order (its other slots left out), are exactly `cards`: what
    /// `board`'s `setCards` with the gaps dropped compares equal to, walked in place.
    static func showsExactly(_ cards: [Card], on board: [GameView.Slot]) -> Bool {
        var next = 0
        for slot in board {
            guard case .set(let card) = slot else { continue }
            guard next < cards.count, cards[next] == card else { return false }
            next += 1
        }
        return next == cards.count
    }

    /// The first card of `mode`'s deck not in exactly one place (board, deck or a taken set) — or a
    /// card of another deck in play — as the failure says it, or `nil`. `inDeck` tells `mode`'s cards by
    /// index and `deckCount` counts them; `scratch` is all zero and left so (the places are counted there).
    ///
    /// In chain mode a taken card may be in two sets (but never also on the board or deck); in puzzle a
    /// found set stays on the board until the board moves on, and a board that moved on took the cards
    /// no set used out of play (in no place).
    static func partitionProblem(
        board: [Card], deck: [Card], taken: some Sequence<[Card]>, mode: SetMode, inDeck: [Bool],
        deckCount: Int, scratch: inout [UInt8]
    ) -> String? {
        var place: [UInt8] = []
        swap(&place, &scratch)
        defer {
            for card in board { place[card.index] = 0 }
            for card in deck { place[card.index] = 0 }
            for cards in taken { for card in cards { place[card.index] = 0 } }
            swap(&place, &scratch)
        }
        // While marking, what decides the check is noted on the way (see `isPartition` below), so that
        // a board that partitions the deck — nearly always — is not visited card by card again.
        var isStranger = false
        var isTwice = false
        var marked = 0
        for card in board {
            isStranger = isStranger || !inDeck[card.index]
            isTwice = isTwice || place[card.index] != 0
            marked &+= place[card.index] == 0 ? 1 : 0
            place[card.index] &+= 1
        }
        for card in deck {
            isStranger = isStranger || !inDeck[card.index]
            isTwice = isTwice || place[card.index] != 0
            marked &+= place[card.index] == 0 ? 1 : 0
            place[card.index] &+= 1
        }
        var isTakenAndDealt = false
        for cards in taken {
            for card in cards {
                isStranger = isStranger || !inDeck[card.index]
                isTakenAndDealt = isTakenAndDealt || place[card.index] & 0x7F != 0
                marked &+= place[card.index] == 0 ? 1 : 0
                place[card.index] |= 0x80
            }
        }
        // The rule below, card by card, holds exactly when: no card of another deck is in play, no card
        // is dealt twice (board and deck: a count of 2 either way), and — but in puzzle, where a dealt
        // card's count is how often it is dealt and an undealt one's 0 or 1 (taken) — no taken card is
        // also dealt and every card of the deck is somewhere (all marked cards are of the deck and each
        // is in one place, so as many are marked as the deck has).
        let isPartition =
            !isStranger && !isTwice && (mode.isPuzzle || (!isTakenAndDealt && marked == deckCount))
        if isPartition { return nil }
        func count(_ index: Int) -> Int {
            let dealt = Int(place[index] & 0x7F)
            let taken = place[index] & 0x80 == 0 ? 0 : 1
            return mode.isPuzzle && dealt > 0 ? dealt : dealt + taken
        }
        // A card of another mode's deck is in no place.
        let stranger =
            board.first { !inDeck[$0.index] } ?? deck.first { !inDeck[$0.index] }
            ?? taken.lazy.compactMap { $0.first { !inDeck[$0.index] } }.first
        if let card = stranger { return "\(card.code) is in \(count(card.index)) places" }
        for card in mode.cards {
            let count = count(card.index)
            // A puzzle board that moved on took its cards no set used out of play: in no place.
            guard count == 1 || (mode.isPuzzle && count == 0) else {
                return "\(card.code) is in \(count) places"
            }
        }
        return "the partition check's summary and its card-by-card rule disagree"
    }

    /// Whether `cards` hold a card twice: a bit per card (13 ranks of 4 suits fit 64), not a set hashed.
    static func holdsACardTwice(_ cards: [PlayingCard]) -> Bool {
        var seen: UInt64 = 0
        for card in cards {
            guard (1...13).contains(card.rank) else { return Set(cards).count != cards.count }
            let bit: UInt64 = 1 << UInt64(card.suit.rawValue * 16 + card.rank)
            if seen & bit != 0 { return true }
            seen |= bit
        }
        return false
    }

    /// How many cards `mode`'s deck has (worked out once per mode).
    private func inDeckCount(of mode: SetMode) -> Int {
        if let known = deckCounts[mode] { return known }
        let count = mode.cards.count
        deckCounts[mode] = count
        return count
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
