import SetGame
import SetProtocol

/// Timed games and practice pauses: the play clock, which leaves pauses out, read only from times the
/// journal holds (the deal, and each `clock` record), so a restored room's clock is the live one's.
extension Room {
    /// Seconds of play of the current game at Unix time `now`: from the deal, less the time paused (a
    /// pause under way counts up to its start).
    func playSeconds(at now: Double) -> Double {
        let end = pausedAt ?? now
        return max(0, end - startedAt - pausedSeconds)
    }

    /// Whether the game shows a `CLOCK` line: a timed game or a practice one, once dealt.
    var hasClock: Bool {
        guard let game = setGame, !isWaiting else { return false }
        return game.options.timeLimit != nil || game.options.isPractice
    }

    /// `CLOCK`: while running, the milliseconds paused so far (play time is now − `STARTED` − this);
    /// while paused, the play time at the pause. Both follow from the journal alone, with no clock read.
    var clockLine: ServerLine? {
        guard hasClock else { return nil }
        if let pausedAt {
            return .clock(milliseconds: Int((playSeconds(at: pausedAt) * 1000).rounded()), isRunning: false)
        }
        return .clock(milliseconds: Int((pausedSeconds * 1000).rounded()), isRunning: true)
    }

    /// `PAUSE` (`true`) or `UNPAUSE` from `session`: a practice game stops (claims are `STALE`, nobody
    /// sees a change, its clock stands) or goes on. Saying it twice changes nothing.
    func setPaused(_ pausing: Bool, by session: Session, at now: Instant) -> Result<Void, ProtocolError> {
        let verb: Verb = pausing ? .pause : .unpause
        guard let game = setGame else {
            return .failure(ProtocolError(verb, .denied, "only a practice game of SET may be paused"))
        }
        guard !isWaiting else { return .failure(ProtocolError(verb, .notStarted, notStartedText)) }
        guard game.options.allowsPause else {
            return .failure(
                ProtocolError(verb, .denied, "only a practice game may be paused (NEW practice=on)"))
        }
        guard !game.isOver else {
            return .failure(ProtocolError(verb, .over, "the game is over; NEW starts another"))
        }
        guard game.isPaused != pausing else { return .success(()) }
        let change: ClockChange = pausing ? .pause : .unpause
        record(.clock(room: name, change: change, time: now.wall))
        applyClock(change, at: now.wall)
        note(change.rawValue, ("name", session.name))
        broadcast(clockLine.map { [$0] } ?? [])
        return .success(())
    }

    /// Calls time on a timed game whose minutes of play have passed at `now` (the core's tick): the
    /// journal says so, and the game ends as any game does.
    func callTimeIfDue(at now: Instant) {
        guard let game = setGame, !isWaiting, !game.isOver, !game.isPaused,
            game.isOutOfTime(after: .milliseconds(Int64(playSeconds(at: now.wall) * 1000)))
        else { return }
        record(.clock(room: name, change: .timeUp, time: now.wall))
        applyClock(.timeUp, at: now.wall)
        note("time-up", ("index", "\(gameIndex)"))
        broadcast(finishGame())
    }

    /// Whether the core's tick should look at this room's clock: a timed game under way.
    var isTimed: Bool {
        // Asked of every room every second: only a timed game is looked at (reading it copies it out).
        guard setOptions?.timeLimit != nil, !isWaiting, case .set(let game) = game else { return false }
        return !game.isOver
    }

    /// Replays a `clock` record.
    func replayClock(_ change: ClockChange, at time: Double) throws(JournalFormatError) {
        guard setGame != nil else {
            throw JournalFormatError(description: "a clock record in Matchismo room \(name)")
        }
        applyClock(change, at: time)
        // Time called ends the game: it counts in the night's standings as the live end did (the
        // archive and the ratings have records of their own).
        if change == .timeUp, isOver { addToStandings() }
    }

    /// The one place a clock changes, live and in replay.
    private func applyClock(_ change: ClockChange, at time: Double) {
        switch change {
        case .pause:
            _ = updateSetGame { try? $0.pause() }
            pausedAt = time
        case .unpause:
            _ = updateSetGame { try? $0.resume() }
            if let since = pausedAt { pausedSeconds += max(0, time - since) }
            pausedAt = nil
        case .timeUp:
            updateSetGame { $0.callTime() }
        }
    }
}
