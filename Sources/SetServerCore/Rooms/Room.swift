import SetGame
import SetProtocol

/// The game a room is playing.
enum RoomGame {
    case set(SetGame)
    case matchismo(MatchismoGame)
}

/// A room: one shared game, the players seated at it, and the spectators watching it.
///
/// Owned by the ``ServerCore``, which handles one input at a time: that is the one ordering of every
/// claim, so when two players claim the same set the one whose line arrived first wins and the other
/// sees `STALE`. A room knows connections only by ID and speaks to them through the ``Outbox``.
final class Room {
    let name: String
    private(set) var options: RoomOptions {
        didSet { journalOptions = options.journalPairs }
    }
    /// `options.journalPairs`, made when the options change (rarely), not at every snapshot taken.
    private var journalOptions: [(String, String)]
    /// The room's game.
    private(set) var game: RoomGame
    /// The SET game's options, `nil` in a Matchismo room: kept when a game is installed (a game's options
    /// never change), because reading them through ``setGame`` copies the whole game out of its enum —
    /// every claim read them, and the core's tick asks every room every second whether it is timed.
    private(set) var setOptions: SetGame.Options?
    /// Seated players in join order, online or away.
    private(set) var seats: [Session] = []
    // Which seated players are online, as the journal tells it (`seat`, `presence`, `unseat`), is each
    // seat's `Session.isPresent`: every decision that depends on who is here — the Matchismo turn, who
    // is dealt in, votes, readiness — reads that, never a connection, because a replay, where nobody is
    // connected, must decide the same. A flag on the seat instead of a set of names: a hash table of
    // name strings per room was 32 bytes a seated player.
    /// The connections watching as spectators.
    private(set) var spectators: Set<ConnectionID> = []
    /// The connections the last event went to, and whom it left out (see ``broadcast(bytes:except:)``).
    private var audience: (ids: [ConnectionID], skipped: ConnectionID?) = ([], nil)
    /// Whether ``audience`` is still everyone listening: cleared by ``listenersChanged()``.
    private var isAudienceCurrent = false
    /// Every game's seed derives from this and the game's number, so a room's whole evening replays
    /// from one seed.
    let seed: UInt64
    /// The number of the current game, 0 for the first.
    private(set) var gameIndex = 0
    /// Unix time the current game started.
    var startedAt: Double
    /// Unix time of each history entry of the current game.
    var historyTimes: [Double] = []
    /// Where events, replies and journal records go.
    let outbox: Outbox
    /// Where finished games go.
    let archive: Archive
    /// Where finished games' ratings go.
    let ratings: RatingBook
    /// Whether the game waits for `READY`/`START` (`start=ready`): players see an empty board and the
    /// full deck, and nobody can claim.
    var isWaiting = false
    /// The room's host: its creator, then the longest-seated player when the host leaves.
    var host: String?
    /// Whether the host closed the room to new players.
    var isLocked = false
    /// The current game's score sheet so far.
    var tally = GameTally()
    /// This game's events in order (claims, choices, joins, leaves, kicks, votes), for its record
    /// (`RECORD`); kept in snapshots, so a compaction loses none.
    var recordEvents: [GameRecord.Event] = []
    /// Events of this game past the record's limit (``GameLogLimit/recordEvents``): counted, not kept.
    var recordOmitted = 0
    /// The players seated when the current game was dealt, for its record.
    var dealtIn: [String] = []
    /// The room's standings for the night (`STANDINGS`), until the host resets them.
    var standings = NightStandings()
    /// The address of the connection that created the room (`nil` for a restored room), for the limit
    /// of rooms per address.
    var creatorHost: String?
    /// The player who created the room: only they may set or change its password, so a vote can never
    /// make a public room private or lock its players out. When they leave for good the right passes
    /// with the host's, to the player seated longest.
    var creator = ""
    /// What only some rooms hold for a while (readiness, kicks, votes, rematch offers, a pause), in a box
    /// made when the first of it is set and let go when all of it is back to nothing (see `Room+Rare`).
    var rareState: RoomRareState?
    private var lastBoardChangeAt = -Double.infinity
    private var revisionBeforeRecentChanges = 0
    /// The SET board as it was before the changes of the last second.
    private var boardBeforeRecentChanges: [Card] = []

    init(
        name: String, options: RoomOptions, seed: UInt64, outbox: Outbox, archive: Archive,
        ratings: RatingBook,
        at time: Double
    ) {
        self.name = name
        self.options = options
        journalOptions = options.journalPairs
        self.seed = seed
        self.outbox = outbox
        self.archive = archive
        self.ratings = ratings
        startedAt = time
        game = Self.makeGame(options, seed: Self.gameSeed(seed, index: 0), firstRevision: 1)
        setOptions = Self.setOptions(of: game)
        isWaiting = options.startsWhenReady
        if !isWaiting { tally.noteBoard(visibleCodes, at: time) }
    }

    /// The SET game, `nil` in a Matchismo room.
    var setGame: SetGame? {
        if case .set(let game) = game { game } else { nil }
    }

    /// The Matchismo game, `nil` in a SET room.
    var matchismoGame: MatchismoGame? {
        if case .matchismo(let game) = game { game } else { nil }
    }

    func install(_ game: RoomGame) {
        self.game = game
        setOptions = Self.setOptions(of: game)
    }

    private static func setOptions(of game: RoomGame) -> SetGame.Options? {
        if case .set(let game) = game { game.options } else { nil }
    }

    /// Stands in while a game is taken out to be changed (see ``updateSetGame(_:)``).
    private static let placeholder = RoomGame.matchismo(MatchismoGame(seed: 0))

    /// Changes the SET game in place; `nil` in a Matchismo room. The room lets go of the game while it
    /// changes, so the game's arrays are referenced once and change in place: changed inside the enum,
    /// it would be copied, history and all, on every move.
    func updateSetGame<T>(_ change: (inout SetGame) -> T) -> T? {
        guard case .set(var taken) = game else { return nil }
        game = Self.placeholder
        defer { game = .set(taken) }
        return change(&taken)
    }

    /// Changes the Matchismo game in place; `nil` in a SET room (see ``updateSetGame(_:)``).
    func updateMatchismo<T>(_ change: (inout MatchismoGame) -> T) -> T? {
        guard case .matchismo(var taken) = game else { return nil }
        game = Self.placeholder
        defer { game = .matchismo(taken) }
        return change(&taken)
    }

    /// The seed of game number `index` of a room seeded with `seed`.
    static func gameSeed(_ seed: UInt64, index: Int) -> UInt64 {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<index { _ = generator.next() }
        return generator.next()
    }

    /// Journals a change.
    func record(_ record: JournalRecord) {
        outbox.record(record)
    }

    static func makeGame(_ options: RoomOptions, seed: UInt64, firstRevision: Int) -> RoomGame {
        switch options.game {
        case .set: return .set(SetGame(options: options.set, seed: seed, firstRevision: firstRevision))
        case .matchismo:
            return .matchismo(
                MatchismoGame(matchCount: options.matchCount, seed: seed, firstRevision: firstRevision))
        }
    }

    var isEmpty: Bool { seats.isEmpty && spectators.isEmpty }

    var isOver: Bool {
        switch game {
        case .set(let game): return game.isOver
        case .matchismo(let game): return game.isOver
        }
    }

    var revision: Int {
        switch game {
        case .set(let game): return game.revision
        case .matchismo(let game): return game.revision
        }
    }

    func score(of name: String) -> Int {
        switch game {
        case .set(let game): return game.score(of: name)
        case .matchismo(let game): return game.score(of: name)
        }
    }

    var onlineCount: Int { seats.count(where: \.isPresent) }

    /// Whether the seated player `name` is online, as the journal tells it.
    func isPresent(_ name: String) -> Bool { seats.contains { $0.isPresent && $0.name == name } }

    /// Whose turn it is, in a Matchismo room.
    var turnHolder: String? { matchismoGame?.turn }

    // MARK: Membership

    /// Seats `session` (who must not be seated elsewhere) and tells the others.
    func seat(_ session: Session) {
        guard !seats.contains(where: { $0 === session }) else { return }
        if creator.isEmpty { creator = session.name }
        seats.append(session)
        listenersChanged()
        session.isPresent = true
        session.room = self
        outbox.roomListChanged()
        record(.seat(room: name, name: session.name, token: "\(session.token)"))
        noteEvent("join", name: session.name, at: outbox.wallTime)
        note("join", ("name", session.name))
        var lines: [ServerLine] = [.joined(session.name), playerLine(session), roomLine]
        if let turnBefore = matchismoGame.map({ $0.turn }) {
            updateMatchismo { $0.addPlayer(session.name) }
            if matchismoGame?.turn != turnBefore { lines.append(turnLine) }
        }
        if host == nil {
            host = session.name
            lines.append(.host(session.name))
        }
        broadcast(lines, except: session.connection)
        tellProposal(except: session.connection)
    }

    /// Logs a game event at `info` with the room's name first; nothing while replaying the journal.
    func note(_ event: String, _ fields: (String, String)...) {
        guard !outbox.isReplaying else { return }
        outbox.log(.info, event, [("room", name)] + fields)
    }

    /// Removes `session`'s seat (their score stays with the game) and tells the others.
    func unseat(_ session: Session) {
        guard let index = seats.firstIndex(where: { $0 === session }) else { return }
        seats.remove(at: index)
        listenersChanged()
        session.isPresent = false
        session.room = nil
        outbox.roomListChanged()
        record(.unseat(room: name, name: session.name))
        noteEvent("leave", name: session.name, at: outbox.wallTime)
        note("leave", ("name", session.name))
        votes[session.name] = nil
        rematchOffers.removeAll { $0 == session.name }
        if !rematchOffers.isEmpty && !outbox.isReplaying { isRematchCheckDue = true }
        readyNames.remove(session.name)
        if !votes.isEmpty && !outbox.isReplaying { isRecountDue = true }
        var lines: [ServerLine] = [.left(session.name), roomLine]
        if let turn = setPresence(session.name, false, hasLeft: true) { lines.append(turn) }
        if host == session.name {
            // The host passes to the player seated longest.
            host = seats.first?.name
            if let host { lines.append(.host(host)) }
        }
        if creator == session.name {
            // The creator's right to set the password is the seat's, never the name's: it passes with the
            // host, so whoever says the same name later gets nothing (an empty room's next player is its
            // creator again).
            creator = host ?? ""
        }
        broadcast(lines)
        startIfAllReady()
        tellProposal()
    }

    /// Shows `session` online or away, as its connection now says.
    func presenceChanged(_ session: Session) {
        record(.presence(room: name, name: session.name, isOnline: session.isOnline))
        let turn = applyPresence(session.name, isOnline: session.isOnline)
        broadcast([playerLine(session)] + (turn.map { [$0] } ?? []), except: session.connection)
        if !session.isOnline {
            startIfAllReady()
            if !votes.isEmpty { isRecountDue = true }
            if !rematchOffers.isEmpty { isRematchCheckDue = true }
        }
        tellProposal(except: session.connection)
    }

    /// The seated player `name` dropped (`false`) or came back: the one place presence changes, live and
    /// in replay. A player who drops takes back their vote, unless the server is what went away
    /// (`keepingVote`, at a restart). Returns the `TURN` line if the turn moved.
    @discardableResult
    func applyPresence(_ name: String, isOnline: Bool, keepingVote: Bool = false) -> ServerLine? {
        guard seats.contains(where: { $0.name == name }) else { return nil }
        for seat in seats where seat.name == name { seat.isPresent = isOnline }
        if !isOnline && !keepingVote { votes[name] = nil }
        return setPresence(name, isOnline)
    }

    /// Tells a Matchismo game who is present (or who left the room for good); returns the `TURN` line if
    /// the turn moved.
    private func setPresence(_ name: String, _ isPresent: Bool, hasLeft: Bool = false) -> ServerLine? {
        guard let before = matchismoGame.map({ $0.turn }) else { return nil }
        updateMatchismo { hasLeft ? $0.removeFromTurn(name) : $0.setPresent(name, isPresent) }
        return matchismoGame?.turn != before ? turnLine : nil
    }

    func addSpectator(_ client: Client) {
        spectators.insert(client.id)
        listenersChanged()
        client.watching = self
    }

    func removeSpectator(_ client: Client) {
        spectators.remove(client.id)
        listenersChanged()
        client.watching = nil
    }

    // MARK: Lines

    /// The `ROOM` line. Whatever changes it (seats, the game ending or restarting, the options) calls
    /// ``Outbox/roomListChanged()``, so the `ROOMS` listing can be kept between changes.
    var roomLine: ServerLine {
        .room(
            name: name, game: options.game, players: seats.count,
            status: isWaiting ? .waiting : isOver ? .over : .playing)
    }

    func playerLine(_ session: Session) -> ServerLine {
        .player(name: session.name, score: score(of: session.name), isOnline: session.isPresent)
    }

    var boardLine: ServerLine {
        // Nothing is dealt while the room waits: nobody may see a card before the countdown ends.
        if isWaiting { return .board(revision: revision, cards: []) }
        switch game {
        case .set(let game):
            // Memory's cards lie face down: `??`, as Matchismo's face-down cards are sent.
            return .board(
                revision: game.revision,
                cards: game.faceUpBoard.enumerated().map {
                    (SetGame.positionName($0.offset), $0.element?.code ?? "??")
                })
        case .matchismo(let game):
            return .board(
                revision: game.revision,
                cards: game.slots.enumerated().map { offset, slot in
                    let code = slot.isMatched ? "=" + slot.card.code : slot.isFaceUp ? slot.card.code : "??"
                    return (SetGame.positionName(offset), code)
                })
        }
    }

    var deckLine: ServerLine {
        switch game {
        case .set(let game): return .deck(game.deckCount + (isWaiting ? game.board.count : 0))
        case .matchismo(let game): return .deck(game.deckCount + (isWaiting ? game.slots.count : 0))
        }
    }

    /// The codes of the cards a claim can use now: the board, and the chain's in chain mode.
    var visibleCodes: [String] {
        guard let setGame else { return [] }
        return setGame.board.map(\.code) + (setGame.chainCards?.map(\.code) ?? [])
    }

    var turnLine: ServerLine {
        guard case .matchismo(let game) = game else { return .turn("-") }
        return .turn(game.isOver || isWaiting ? "-" : game.turn ?? "-")
    }

    var chainLine: ServerLine? {
        guard case .set(let game) = game, game.options.mode.chainReuse != nil else { return nil }
        return .chain(game.chainCards?.map(\.code) ?? [])
    }

    /// Puzzle's `FOUND` line: the claims found on this board so far and how many it holds; `nil` in the
    /// other modes, and while the room waits (nothing is dealt).
    var foundLine: ServerLine? {
        guard case .set(let game) = game, game.options.mode.isPuzzle, !isWaiting else { return nil }
        let total = game.foundClaims.count + game.possibleClaims.count
        return .found(total: total, claims: game.foundClaims.map { $0.map(\.code) })
    }

    /// `OVER` with the scores of everyone seated, best first, ties in join order.
    var overLine: ServerLine {
        let scores = seats.enumerated().map {
            (index: $0.offset, name: $0.element.name, score: score(of: $0.element.name))
        }
        let ranked = scores.sorted { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        return .over(ranked.map { (name: $0.name, score: $0.score) })
    }

    /// The snapshot: the reply to `JOIN`, `WATCH`, `STATE` and `RESUME`.
    var snapshot: [ServerLine] {
        var lines: [ServerLine] = [roomLine, .options(options.pairs), boardLine, deckLine]
        if let chain = chainLine { lines.append(chain) }
        if let found = foundLine { lines.append(found) }
        if let clock = clockLine { lines.append(clock) }
        if case .matchismo = game { lines.append(turnLine) }
        lines += seats.map(playerLine)
        if let host { lines.append(.host(host)) }
        if let started = startedLine { lines.append(started) }
        if let proposal = proposal { lines.append(.proposal(proposal)) }
        return lines
    }

    /// `STARTED <unix ms>`, once the game is dealt: when it was, so every client's clock agrees.
    var startedLine: ServerLine? {
        isWaiting ? nil : .started(Int((startedAt * 1000).rounded()))
    }

    // MARK: Fan-out

    /// Sends event lines to every online player and spectator, formatting them once for all.
    func broadcast(_ lines: [ServerLine], except skipped: ConnectionID? = nil) {
        guard !lines.isEmpty else { return }
        var bytes: [UInt8] = []
        for line in lines {
            line.append(to: &bytes)
            bytes.append(0x0A)
        }
        broadcast(bytes: bytes, except: skipped)
    }

    /// Sends an event's bytes (whole lines, each ending in LF), made by the caller, to every online
    /// player and spectator.
    func broadcast(bytes: [UInt8], except skipped: ConnectionID? = nil) {
        // The list goes out as it went last time while no one came or went: the same array, not a new
        // one an event, which the engine and the shell recognise and find the connections of once. Kept,
        // not rebuilt to be compared: reading every seat's connection cost a cache miss a seat, each event.
        if !isAudienceCurrent || audience.skipped != skipped {
            var ids: [ConnectionID] = []
            ids.reserveCapacity(seats.count + spectators.count)
            forEachListener(except: skipped) { ids.append($0) }
            // An unchanged list stays the same array, so its receivers are not found again.
            if ids != audience.ids { audience.ids = ids }
            audience.skipped = skipped
            isAudienceCurrent = true
        }
        outbox.broadcast(bytes, to: audience.ids)
    }

    /// Someone came or went, or a seated player's connection changed: the next event's listeners are
    /// found again. Called by whatever changes ``seats``, ``spectators`` or a seat's
    /// ``Session/connection``.
    func listenersChanged() {
        isAudienceCurrent = false
        outbox.noteListenersChanged()
    }

    /// Lets go of the seats' links back to this room, for a core being thrown away (see
    /// ``Session/room``).
    func releaseSeats() {
        for session in seats { session.room = nil }
    }

    /// Calls `body` with every online player's and spectator's connection but `skipped`, in order.
    private func forEachListener(except skipped: ConnectionID?, _ body: (ConnectionID) -> Void) {
        for seat in seats {
            if let id = seat.connection, id != skipped { body(id) }
        }
        for id in spectators where id != skipped { body(id) }
    }

    // MARK: Game life

    /// Records a board change at `now`, for reading positions sent without `@<rev>`.
    func noteBoardChange(from oldRevision: Int, board oldBoard: [Card], at now: Double) {
        if now - lastBoardChangeAt >= Limits.reactionWindow {
            revisionBeforeRecentChanges = oldRevision
            boardBeforeRecentChanges = oldBoard
        }
        lastBoardChangeAt = now
    }

    /// The revision a player who did not say is taken to have seen, for a claim of `positions`: the
    /// current board, unless it changed in the last ``Limits/reactionWindow`` under one of the named
    /// positions — then the board as it was before, so the claim is stale. A person cannot have seen a
    /// card that arrived that recently, but positions whose cards did not change name exactly what they
    /// saw.
    func assumedSeenRevision(forPositions positions: [Int], at now: Double) -> Int {
        guard let board = setGame?.board, now - lastBoardChangeAt < Limits.reactionWindow else {
            return revision
        }
        // A position the earlier board did not have (the deal after a countdown, extra cards) can only
        // have been seen on the new board.
        let unchanged = positions.allSatisfy { position in
            board.indices.contains(position)
                && (!boardBeforeRecentChanges.indices.contains(position)
                    || board[position] == boardBeforeRecentChanges[position])
        }
        return unchanged ? revision : revisionBeforeRecentChanges
    }

    /// Deals the next game with `options`; scores and history start again.
    func restart(
        with options: RoomOptions, index: Int? = nil, firstRevision: Int? = nil, at time: Double,
        uptime: Double? = nil
    ) {
        let (oldRevision, oldBoard) = (revision, setGame?.board ?? [])
        self.options = options
        outbox.roomListChanged()
        gameIndex = index ?? gameIndex + 1
        let first = firstRevision ?? revision + 1
        install(Self.makeGame(options, seed: Self.gameSeed(seed, index: gameIndex), firstRevision: first))
        updateMatchismo { matchismo in
            for seat in seats {
                matchismo.addPlayer(seat.name)
                if !seat.isPresent { matchismo.setPresent(seat.name, false) }
            }
        }
        startedAt = time
        (pausedSeconds, pausedAt) = (0, nil)
        historyTimes = []
        votes = [:]
        toldProposal = nil  // The new game's snapshot says none stands.
        isWaiting = options.startsWhenReady
        readyNames = []
        countdownStartedAt = nil
        isCountdownPending = false
        isCountdownToResume = false
        tally = GameTally()
        recordEvents = []
        recordOmitted = 0
        dealtIn = isWaiting ? [] : seats.map(\.name)
        rematchOffers = []
        isRematchCheckDue = false
        if !isWaiting { tally.noteBoard(visibleCodes, at: time) }
        lastBoardChangeAt = -Double.infinity
        // A claim by position aimed at the last game's board, arriving just after the new deal, is stale.
        if let uptime { noteBoardChange(from: oldRevision, board: oldBoard, at: uptime) }
        let started = JournalRecord.game(
            room: name, index: gameIndex, time: time, firstRevision: first, options: options.journalPairs)
        outbox.record(started)
    }

    /// Keeps the game that just ended in the archive, with its score sheet and its record; `ranked` is
    /// its final scores, best first, and `end` how it ended (the record's `end`).
    func archiveGame(
        ranked: [(name: String, score: Int)], sheet: [ScoreSheetEntry], duration: Int, end: String
    ) {
        outbox.roomListChanged()  // The game is over: its ROOM line says so.
        func seconds(_ i: Int) -> Int { i < historyTimes.count ? Int(historyTimes[i] - startedAt) : 0 }
        var entries: [(seconds: Int, name: String, detail: String)] = []
        switch game {
        case .set(let setGame):
            for (i, taken) in setGame.takenSets.enumerated() {
                entries.append((seconds(i), taken.player, taken.cards.map(\.code).joined(separator: " ")))
            }
        case .matchismo(let matchismo):
            // The latest choices only, as HISTORY lists them while the game runs.
            for (i, choice) in matchismo.history.enumerated().suffix(outbox.gameLogLimit.choices) {
                entries.append((seconds(i), choice.player, "\(choice.points) \(choice.text)"))
            }
        }
        let finished = ArchivedGame(
            startedAt: startedAt, endedAt: historyTimes.last ?? startedAt, password: options.password?.text,
            scores: ranked, entries: entries, sheet: sheet, duration: duration,
            record: makeRecord(ranked: ranked, sheet: sheet, duration: duration, end: end))
        guard !outbox.isReplaying else { return }
        // Written once here: the journal's record now, and every rewrite of the archive later.
        let kept = finished.keepingItsBytes()
        archive.keep(kept, of: name)
        outbox.record(.archive(room: name, game: kept))
    }
}

// MARK: Snapshots

extension Room {
    /// The room's whole state, for a compacted journal.
    var journalSnapshot: RoomSnapshot {
        let state: RoomSnapshot.Game
        switch game {
        case .set(let game): state = .set(game.state)
        case .matchismo(let game): state = .matchismo(game.state)
        }
        return RoomSnapshot(
            name: name, seed: seed, options: journalOptions, gameIndex: gameIndex, startedAt: startedAt,
            historyTimes: historyTimes,
            votes: votes.cast.map { ($0.name, $0.options.journalPairs) }, creator: creator,
            seats: seats.map {
                RoomSnapshot.Seat(name: $0.name, token: "\($0.token)", isOnline: $0.isPresent)
            },
            game: state,
            night: RoomSnapshot.Night(
                isWaiting: isWaiting, ready: Self.sorted(readyNames), host: host, isLocked: isLocked,
                kicked: Self.sorted(kicked),
                bans: bans.isEmpty ? [] : bans.values.sorted { $0.name < $1.name },
                tally: tally,
                isCountingDown: hasCountdownBegun, recordEvents: recordEvents, recordOmitted: recordOmitted,
                dealtIn: dealtIn,
                standings: standings, rematchOffers: rematchOffers, pausedSeconds: pausedSeconds,
                pausedAt: pausedAt))
    }

    /// `names` in order; an empty set (most rooms', at most snapshots) is not sorted, which would make
    /// a new empty list.
    private static func sorted(_ names: Set<String>) -> [String] { names.isEmpty ? [] : names.sorted() }

    /// Rebuilds a room from its snapshot, seating `sessions` (the snapshot's seats, in order).
    convenience init(
        restoring snapshot: RoomSnapshot, sessions: [Session], outbox: Outbox, archive: Archive,
        ratings: RatingBook
    ) throws(JournalFormatError) {
        guard let options = RoomOptions(journalPairs: snapshot.options, room: snapshot.name) else {
            throw JournalFormatError(description: "room \(snapshot.name) has options it cannot have")
        }
        self.init(
            name: snapshot.name, options: options, seed: snapshot.seed, outbox: outbox, archive: archive,
            ratings: ratings, at: snapshot.startedAt)
        do {
            switch (snapshot.game, options.game) {
            case (.set(var state), .set):
                // The snapshot's game keeps the mode and penalty; practice and timing are room options.
                state.options = options.set
                install(.set(try SetGame(state: state)))
            case (.matchismo(let state), .matchismo): install(.matchismo(try MatchismoGame(state: state)))
            default: throw JournalFormatError(description: "room \(name) plays another game than its options")
            }
        } catch let error as SetGame.StateError {
            throw JournalFormatError(description: "room \(name): \(error)")
        } catch {
            throw JournalFormatError(description: "\(error)")
        }
        gameIndex = snapshot.gameIndex
        historyTimes = snapshot.historyTimes
        for vote in snapshot.votes {
            guard let proposal = RoomOptions(journalPairs: vote.options, room: snapshot.name) else {
                throw JournalFormatError(description: "room \(name) has a vote for options it cannot have")
            }
            votes[vote.name] = proposal
        }
        creator = snapshot.creator
        seats = sessions
        listenersChanged()
        let online = Set(snapshot.seats.filter(\.isOnline).map(\.name))
        for session in sessions { session.isPresent = online.contains(session.name) }
        for session in sessions { session.room = self }
        let night = snapshot.night
        isWaiting = night.isWaiting
        isCountdownToResume = night.isWaiting && night.isCountingDown
        readyNames = Set(night.ready)
        // A snapshot from before hosts: the creator if still seated, else the longest seated.
        host = night.host ?? (sessions.contains { $0.name == creator } ? creator : sessions.first?.name)
        // A journal from before creator rights passed with the seat: a creator who left passes them on.
        if !sessions.contains(where: { $0.name == creator }) { creator = host ?? "" }
        isLocked = night.isLocked
        kicked = Set(night.kicked)
        for ban in night.bans { bans[ban.name] = ban }
        tally = night.tally
        recordEvents = night.recordEvents
        recordOmitted = night.recordOmitted
        // A snapshot from a setd before the log's bounds may hold more: the room starts within them.
        let limit = outbox.gameLogLimit.recordEvents
        if recordEvents.count > limit {
            recordOmitted += recordEvents.count - limit
            recordEvents.removeLast(recordEvents.count - limit)
        }
        forgetOldChoices()
        dealtIn = night.dealtIn
        standings = night.standings
        rematchOffers = night.rematchOffers
        (pausedSeconds, pausedAt) = (night.pausedSeconds, night.pausedAt)
        // A snapshot from before score sheets: the cards on the board count as dealt when the game began.
        if snapshot.night == RoomSnapshot.Night(), !isWaiting { tally.noteBoard(visibleCodes, at: startedAt) }
    }
}
