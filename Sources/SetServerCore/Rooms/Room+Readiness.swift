import SetProtocol

extension Room {
    /// Seconds counted down before the deal: `COUNTDOWN 3`, `2`, `1`, one second apart.
    static let countdownSeconds = 3

    var notStartedText: String {
        "\(name) waits for its players: say READY (or the host, \(host ?? "nobody"), says START)"
    }

    /// `NOTWAITING` for `verb`: the game is dealt, and either running or over.
    func notWaiting(_ verb: Verb) -> ProtocolError {
        ProtocolError(
            verb, .notWaiting,
            isOver
                ? "the game in \(name) is over; NEW starts another"
                : "the game in \(name) has started")
    }

    /// Online seated players, and how many of them said `READY`.
    var readiness: (ready: Int, seated: Int) {
        (seats.count { $0.isPresent && readyNames.contains($0.name) }, onlineCount)
    }

    /// `READY` from `session`: marks them ready, tells the room, and starts the countdown when every
    /// online seated player is ready. Returns the reply's detail.
    func markReady(_ session: Session, at now: Instant) -> Result<OKDetail, ProtocolError> {
        guard isWaiting else { return .failure(notWaiting(.ready)) }
        if readyNames.insert(session.name).inserted { record(.ready(room: name, name: session.name)) }
        let (ready, seated) = readiness
        broadcast([.ready(name: session.name, ready: ready, seated: seated)])
        startIfAllReady(at: now.uptime)
        return .success(.ready(ready: ready, seated: seated))
    }

    /// `START` from `session`, who must be the host: starts the countdown at once.
    func start(by session: Session, at now: Instant) -> Result<OKDetail, ProtocolError> {
        guard session.name == host else {
            return .failure(ProtocolError(.start, .denied, "only the host, \(host ?? "nobody"), may START"))
        }
        guard isWaiting else { return .failure(notWaiting(.start)) }
        startCountdown(at: now.uptime)
        return .success(.plain(.start))
    }

    /// `UNREADY` from `session`: takes back their `READY` and stops a countdown under way (however it
    /// began: a player who is not ready after all stops a host's `START` too), telling the room. Returns
    /// the reply's detail.
    func markUnready(_ session: Session) -> Result<OKDetail, ProtocolError> {
        guard isWaiting else { return .failure(notWaiting(.unready)) }
        let wasReady = readyNames.remove(session.name) != nil
        let stops = hasCountdownBegun || isCountdownPending
        if wasReady || stops { record(.unready(room: name, name: session.name)) }
        let (ready, seated) = readiness
        var lines: [ServerLine] = [.unready(name: session.name, ready: ready, seated: seated)]
        if stops {
            stopCountdown()
            note("countdown-stopped", ("name", session.name))
            lines.append(.countdownStopped)
        }
        broadcast(lines)
        return .success(.unready(ready: ready, seated: seated))
    }

    /// Stops the countdown, live or as the journal's `unready` record says: the room waits again.
    func stopCountdown() {
        countdownStartedAt = nil
        isCountdownPending = false
        isCountdownToResume = false
        countdownShown = 0
    }

    /// Starts the countdown if the room waits and every online seated player (one at least) is ready.
    /// Without a time (a seat given up, a drop: the room is not told the time), it starts at the next
    /// tick.
    func startIfAllReady(at uptime: Double? = nil) {
        let (ready, seated) = readiness
        guard isWaiting, countdownStartedAt == nil, seated > 0, ready == seated, !outbox.isReplaying else {
            return
        }
        if let uptime { startCountdown(at: uptime) } else { isCountdownPending = true }
    }

    /// Whether the core's tick has work here: a countdown running or about to start.
    var isCountingDown: Bool { countdownStartedAt != nil || isCountdownPending || isCountdownToResume }

    /// Whether a countdown is under way, as the journal keeps it: one the journal restored counts down
    /// again from the top at the next tick.
    var hasCountdownBegun: Bool { countdownStartedAt != nil || isCountdownToResume }

    private func startCountdown(at uptime: Double) {
        isCountdownPending = false
        guard countdownStartedAt == nil else { return }
        countdownStartedAt = uptime
        isCountdownToResume = false
        countdownShown = Self.countdownSeconds
        record(.countdown(room: name))
        note("countdown")
        broadcast([.countdown(countdownShown)])
    }

    /// Runs the countdown at `now`: the next `COUNTDOWN` line when its second comes, then the deal.
    func advanceCountdown(at now: Instant) {
        if isCountdownToResume, isWaiting {
            startCountdown(at: now.uptime)
            return
        }
        if isCountdownPending {
            let (ready, seated) = readiness
            isCountdownPending = false
            if isWaiting, seated > 0, ready == seated { startCountdown(at: now.uptime) }
            return
        }
        guard let started = countdownStartedAt else { return }
        let elapsed = now.uptime - started
        var lines: [ServerLine] = []
        while countdownShown > 1, elapsed >= Double(Self.countdownSeconds - countdownShown + 1) {
            countdownShown -= 1
            lines.append(.countdown(countdownShown))
        }
        broadcast(lines)
        guard elapsed >= Double(Self.countdownSeconds) else { return }
        deal(at: now.wall, uptime: now.uptime)
        var dealt: [ServerLine] = [roomLine, boardLine, deckLine]
        if let chain = chainLine { dealt.append(chain) }
        if let found = foundLine { dealt.append(found) }
        if let clock = clockLine { dealt.append(clock) }
        if case .matchismo = game { dealt.append(turnLine) }
        if let started = startedLine { dealt.append(started) }
        broadcast(dealt)
    }

    /// Deals the waiting game at `time`: the same game from the same seed, one revision on, so a claim
    /// aimed at the empty board is stale. Replayed from the journal's `deal` record without an uptime.
    func deal(at time: Double, uptime: Double? = nil) {
        let waitingRevision = revision
        install(
            Self.makeGame(
                options, seed: Self.gameSeed(seed, index: gameIndex), firstRevision: waitingRevision + 1))
        updateMatchismo { matchismo in
            for seat in seats {
                matchismo.addPlayer(seat.name)
                if !seat.isPresent { matchismo.setPresent(seat.name, false) }
            }
        }
        isWaiting = false
        countdownStartedAt = nil
        isCountdownPending = false
        isCountdownToResume = false
        readyNames = []
        startedAt = time
        historyTimes = []
        tally = GameTally()
        recordEvents = []
        recordOmitted = 0
        dealtIn = seats.map(\.name)
        tally.noteBoard(visibleCodes, at: time)
        if let uptime { noteBoardChange(from: waitingRevision, board: [], at: uptime) }
        outbox.roomListChanged()
        record(.deal(room: name, time: time))
        note("deal", ("index", "\(gameIndex)"))
    }
}
