import SetDigest
import SetGame
import SetProtocol

extension Room {
    /// Applies `CHOOSE` from `session`: broadcasts what happened and returns the reply's detail.
    func choose(_ picks: [Command.Pick], revision: Int?, by session: Session, at now: Instant)
        -> Result<OKDetail, ProtocolError>
    {
        guard !isWaiting else {
            return .failure(ProtocolError(.choose, .notStarted, notStartedText))
        }
        // No copy of the game is held while it changes (see ``updateSetGame(_:)``): each move costs the
        // same however long the game has run.
        switch game {
        case .set: return claim(picks, revision: revision, by: session, at: now)
        case .matchismo: return turn(picks, revision: revision, by: session, at: now)
        }
    }

    private func claim(
        _ picks: [Command.Pick], revision: Int?, by session: Session, at now: Instant
    ) -> Result<OKDetail, ProtocolError> {
        var selection = Selection([])
        for pick in picks {
            switch pick {
            case .position(let position):
                selection.picks.append(.position(position))
            case .code(let code):
                switch (setOptions?.mode ?? .normal).card(code: code) {
                case .success(let card): selection.picks.append(.card(card))
                case .failure(let error): return .failure(error)
                }
            }
        }
        let hasPositions = selection.picks.contains { if case .position = $0 { true } else { false } }
        if hasPositions {
            let positions = selection.picks.compactMap { pick -> Int? in
                if case .position(let p) = pick { return p } else { return nil }
            }
            selection.seenRevision = revision ?? assumedSeenRevision(forPositions: positions, at: now.uptime)
        }
        // What the player named, for the WRONG event: read before the board changes.
        let boardBefore = setGame?.board ?? []
        let before = self.revision
        let named = selection.picks.map { pick -> String in
            switch pick {
            case .position(let p): return boardBefore.indices.contains(p) ? boardBefore[p].code : "?"
            case .card(let card): return card.code
            }
        }
        let outcome = updateSetGame { $0.claim(selection, by: session.name) }!
        let penalty = setOptions?.wrongClaimPenalty ?? 0
        switch outcome {
        case .success(let taken):
            noteBoardChange(from: before, board: boardBefore, at: now.uptime)
            let time = now.wall
            // The codes spelled once: the record, the tally, the game's record, the log and the lines.
            let codes = taken.cards.map(\.code)
            historyTimes.append(time)
            record(.claim(room: name, name: session.name, time: time, cards: codes))
            tally.noteSet(by: session.name, cards: codes, at: time)
            tally.noteBoard(visibleCodes, at: time)
            noteClaimForRecord(by: session.name, cards: codes, result: "set", at: time)
            note("set", ("name", session.name), ("cards", codes.joined(separator: " ")))
            var lines: [ServerLine] = [.set(name: session.name, cards: codes)]
            lines += [boardLine, deckLine, playerLine(session)]
            if let chain = chainLine { lines.append(chain) }
            if let found = foundLine { lines.append(found) }
            if isOver { lines += finishGame() }
            broadcast(lines)
            return .success(.choose(cards: codes))
        case .failure(.notSet(let why)):
            record(.claim(room: name, name: session.name, time: now.wall, cards: named))
            tally.noteWrong(by: session.name)
            noteClaimForRecord(by: session.name, cards: named, result: "wrong", at: now.wall)
            note("wrong", ("name", session.name), ("cards", named.joined(separator: " ")))
            var lines: [ServerLine] = [.wrong(name: session.name, penalty: penalty, cards: named, why: why)]
            if penalty > 0 { lines.append(playerLine(session)) }
            broadcast(lines)
            return .failure(ProtocolError(.choose, .notSet, why))
        case .failure(.stale(let why)):
            record(.stale(room: name, name: session.name))
            tally.noteStale(by: session.name)
            noteEvent("claim", name: session.name, at: now.wall, cards: named, result: "stale")
            return .failure(ProtocolError(.choose, .stale, why))
        case .failure(.malformed(let why)):
            return .failure(ProtocolError(.choose, .args, why))
        case .failure(.gameOver):
            return .failure(ProtocolError(.choose, .over, "the game is over; NEW starts another"))
        }
    }

    private func turn(
        _ picks: [Command.Pick], revision: Int?, by session: Session, at now: Instant
    ) -> Result<OKDetail, ProtocolError> {
        guard picks.count == 1, let pick = picks.first else {
            return .failure(
                ProtocolError(.choose, .args, "in Matchismo you turn one card at a time: CHOOSE <pos>"))
        }
        let position: Int
        switch pick {
        case .position(let p):
            position = p
        case .code(let code):
            guard let card = PlayingCard(code: code) else {
                let shown = TextRules.sanitized(code.prefix(8))
                return .failure(
                    ProtocolError(.choose, .args, "'\(shown)' is not a position or a card like QD or 10H"))
            }
            // Only a card showing its face can be named: naming a face-down card would turn up a card
            // nobody has seen, and the answer would tell whether it is on the board.
            let slots = matchismoGame?.slots ?? []
            guard let p = slots.firstIndex(where: { $0.card == card && $0.isFaceUp }) else {
                return .failure(
                    ProtocolError(
                        .choose, .args,
                        "no face-up \(card.code) on the board; choose face-down cards by position"))
            }
            position = p
        }
        // Matchismo cards never move, so a position always means the card the player saw: only an explicit
        // revision can make a choice stale.
        let outcome = updateMatchismo { $0.choose(position, by: session.name, seenRevision: revision) }!
        switch outcome {
        case .success(let choice):
            let time = now.wall
            historyTimes.append(time)
            forgetOldChoices()
            record(.choose(room: name, name: session.name, time: time, position: position))
            noteChoice(choice, by: session.name)
            noteChoiceForRecord(choice, position: position, at: time)
            var lines: [ServerLine] = [
                .chose(name: session.name, points: choice.points, text: choice.text), boardLine,
                playerLine(session),
                turnLine,
            ]
            if isOver { lines += finishGame() }
            broadcast(lines)
            return .success(.choose(cards: [matchismoGame?.slots[position].card.code ?? "?"]))
        case .failure(let error):
            let code: ErrorCode
            switch error {
            case .notYourTurn: code = .notYourTurn
            case .stale: code = .stale
            case .gameOver: code = .over
            case .notPlaying: code = .noRoom
            // A choice never changes the match count; only `NEW` does, so nothing is ever locked.
            case .noSuchPosition, .alreadyMatched, .badMatchCount, .modeLocked: code = .args
            }
            return .failure(ProtocolError(.choose, code, error.description))
        }
    }

    /// The `HINT` reply's data line.
    func hint() -> Result<ServerLine, ProtocolError> {
        guard case .set(let setGame) = game else {
            return .failure(ProtocolError(.hint, .noHints, "Matchismo has no hints"))
        }
        guard !isWaiting else { return .failure(ProtocolError(.hint, .notStarted, notStartedText)) }
        // A practice game gives hints whatever the room's `hints` says.
        guard options.hintsEnabled || setGame.options.hintsAreFree else {
            return .failure(ProtocolError(.hint, .noHints, "hints are off in this room"))
        }
        guard !setGame.isOver else {
            return .failure(ProtocolError(.hint, .over, "the game is over; NEW starts another"))
        }
        // Nobody sees a paused board (its claims are STALE): a hint would show one of its cards.
        guard !setGame.isPaused else {
            return .failure(
                ProtocolError(.hint, .noHints, "the game is paused; UNPAUSE shows the board again"))
        }
        // Hint a card that is on the board; in chain mode a claim also holds a card of the previous set.
        guard let claim = setGame.possibleClaims.first,
            let position = claim.lazy.compactMap({ setGame.board.firstIndex(of: $0) }).first
        else { return .failure(ProtocolError(.hint, .over, "no set on the board")) }
        // A face-down card keeps its secret: memory's hint names the position only.
        let card = setGame.options.mode.dealsFaceDown ? "??" : setGame.board[position].code
        return .success(.hint(position: SetGame.positionName(position), card: card))
    }

    /// Handles `NEW`: restarts at once when the game is over or the asker is alone online, otherwise
    /// counts a vote and restarts on a majority of the online players. `NEW` without options while a
    /// proposal stands agrees with it: a vote for the same options, not a rival proposal.
    func requestNewGame(
        by session: Session, options requested: [String: String], at now: Instant,
        sealing: @escaping (String) -> PasswordHash
    ) -> Result<OKDetail, ProtocolError> {
        let newOptions: RoomOptions
        if requested.isEmpty, let standing = votes.standing {
            // Its password, if any, is its proposer's (only the creator may set one): agreeing adds none.
            newOptions = standing.options
        } else {
            switch options.applying(requested, verb: .new, sealing: sealing) {
            case .success(let applied): newOptions = applied
            case .failure(let error): return .failure(error)
            }
            if newOptions.password != options.password && session.name != creator {
                return .failure(
                    ProtocolError(
                        .new, .denied, "only \(creator), who made \(name), may set or change its password"))
            }
        }
        // A vote is for a proposal, a whole set of options: only votes for the same one count, so the
        // last voter cannot impose options the others did not vote for.
        let online = onlineCount
        votes[session.name] = newOptions
        noteEvent(
            "vote", name: session.name, at: now.wall,
            options: Dictionary(Self.shown(newOptions), uniquingKeysWith: { _, last in last }))
        let inFavour = votes.count(for: newOptions)
        let needed = online / 2 + 1
        // Between games (over, or waiting for the players) the host's options apply at once.
        let isBetweenGames = isOver || isWaiting
        guard isOver || online <= 1 || inFavour >= needed || (isBetweenGames && session.name == host) else {
            record(.vote(room: name, name: session.name, options: newOptions.journalPairs))
            broadcast([
                .vote(name: session.name, votes: inFavour, needed: needed, options: Self.shown(newOptions))
            ])
            tellProposal()
            return .success(.new(.voted(votes: inFavour, needed: needed)))
        }
        abandonGame()
        restart(with: newOptions, at: now.wall, uptime: now.uptime)
        note("new-game", ("name", session.name), ("index", "\(gameIndex)"))
        broadcast([.newGame(session.name)] + snapshot)
        return .success(.new(.started))
    }

    /// Counts the standing proposal's votes again, once a player left or dropped (not after a restart,
    /// when everyone is away until they come back), against the players online now: one who left or
    /// dropped no longer needs convincing, so a vote that now has its majority passes, as if its last
    /// `NEW` had come now. `NEWGAME` names its first voter. The core's tick calls it (the time comes from
    /// there); a game already over waits for anyone's `NEW`, which starts it at once.
    func recountVotes(at now: Instant) {
        guard isRecountDue else { return }
        isRecountDue = false
        guard !isOver, !outbox.isReplaying, let standing = votes.standing else { return }
        let online = onlineCount
        guard online > 0, standing.voters.count >= online / 2 + 1 else { return }
        abandonGame()
        restart(with: standing.options, at: now.wall, uptime: now.uptime)
        note("new-game", ("name", standing.voters[0]), ("index", "\(gameIndex)"), ("by", "recount"))
        broadcast([.newGame(standing.voters[0])] + snapshot)
    }

    /// A proposal's options as `VOTE` and `PROPOSAL` show them: as `OPTIONS` lists them, and
    /// `private=yes` if it sets a password (never the password).
    static func shown(_ options: RoomOptions) -> [(String, String)] {
        options.pairs + (options.password != nil ? [("private", "yes")] : [])
    }

    /// The standing proposal as `PROPOSAL` shows it, `nil` while nobody voted.
    var proposal: Proposal? {
        votes.standing.map { standing in
            Proposal(
                votes: standing.voters.count, needed: onlineCount / 2 + 1, voters: standing.voters,
                options: Self.shown(standing.options))
        }
    }

    /// Tells the room the standing proposal when it changed (a vote, a voter gone, the number online
    /// and so the votes needed): `PROPOSAL …`, or `PROPOSAL -` once none stands. `skipped` is a player
    /// who arrived and reads it in their snapshot.
    func tellProposal(except skipped: ConnectionID? = nil) {
        let told = proposal.map { ServerLine.proposal($0).text }
        guard told != toldProposal else { return }
        toldProposal = told
        broadcast([.proposal(proposal)], except: skipped)
    }

    /// The `HISTORY` data lines for the current game; none once it is over, when it is in the archive.
    func historyLines() -> [ServerLine] {
        guard !isOver else { return [] }
        func seconds(_ i: Int) -> Int { i < historyTimes.count ? Int(historyTimes[i] - startedAt) : 0 }
        switch game {
        case .set(let setGame):
            return setGame.takenSets.enumerated().map { i, taken in
                .history((["\(seconds(i))", taken.player] + taken.cards.map(\.code)).joined(separator: " "))
            }
        case .matchismo(let matchismo):
            return matchismo.history.enumerated().suffix(outbox.gameLogLimit.choices).map { i, choice in
                .history("\(seconds(i)) \(choice.player) \(choice.points) \(choice.text)")
            }
        }
    }

    /// Keeps a Matchismo game's log bounded: past twice the limit of choices, the oldest go (with their
    /// times), down to the limit, so the work is a copy of `limit` entries once every `limit` choices.
    /// Live play and the journal's replay both call it after every choice: they forget alike.
    func forgetOldChoices() {
        let limit = outbox.gameLogLimit.choices
        guard let kept = matchismoGame?.history.count, kept > 2 * limit else { return }
        updateMatchismo { $0.forgetChoices(keepingLast: limit) }
        // The times run alongside the history; a room restored from an older setd may hold fewer.
        historyTimes.removeFirst(min(kept - limit, historyTimes.count))
    }
}

extension Room {
    /// Re-applies a journaled SET claim while restoring; the rules judge it exactly as they did then.
    func replayClaim(by player: String, cards: [Card], at time: Double) throws(JournalFormatError) {
        // Memory's face-down cards are turned over where they lie: the claim names their positions.
        let selection: Selection
        if setOptions?.mode.dealsFaceDown == true, let game = setGame {
            selection = Selection(
                cards.map { card in
                    game.board.firstIndex(of: card).map(Selection.Pick.position) ?? .card(card)
                })
        } else {
            selection = .cards(cards)
        }
        guard let outcome = updateSetGame({ $0.claim(selection, by: player) }) else {
            throw JournalFormatError(description: "a SET claim in Matchismo room \(name)")
        }
        let codes = cards.map(\.code)
        switch outcome {
        case .success:
            historyTimes.append(time)
            tally.noteSet(by: player, cards: codes, at: time)
            tally.noteBoard(visibleCodes, at: time)
            noteClaimForRecord(by: player, cards: codes, result: "set", at: time)
            if isOver { addToStandings() }
        case .failure(.notSet):
            tally.noteWrong(by: player)
            noteClaimForRecord(by: player, cards: codes, result: "wrong", at: time)
        case .failure(let error):
            throw JournalFormatError(
                description: "the claim of \(player) in \(name) does not replay: \(error)")
        }
    }

    /// Re-applies a journaled Matchismo choice while restoring.
    func replayChoice(by player: String, position: Int, at time: Double) throws(JournalFormatError) {
        guard let outcome = updateMatchismo({ $0.choose(position, by: player) }) else {
            throw JournalFormatError(description: "a Matchismo choice in SET room \(name)")
        }
        guard case .success(let choice) = outcome else {
            throw JournalFormatError(
                description: "the choice of \(player) in \(name) does not replay: \(outcome)")
        }
        noteChoice(choice, by: player)
        noteChoiceForRecord(choice, position: position, at: time)
        historyTimes.append(time)
        forgetOldChoices()
        if isOver { addToStandings() }
    }
}
