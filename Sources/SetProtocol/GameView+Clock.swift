/// Timed and practice games as the room's lines describe them (protocol.md: the room options `sets=`,
/// `minutes=` and `practice=`, and the `CLOCK` line), read the same way by every client.
extension GameView {
    /// The first-to-N target (`sets=N`), or `nil` when the game has none.
    public var setsToWin: Int? { options["sets"].flatMap { Int($0) } }

    /// The time limit in minutes (`minutes=M`), or `nil` when the game has none.
    public var minutesOfPlay: Int? { options["minutes"].flatMap { Int($0) } }

    /// Whether the room plays practice games (`practice=on`): unrated, free hints, `PAUSE` allowed.
    public var isPractice: Bool { options["practice"] == "on" }

    /// Whether the last `CLOCK` line said the game is paused.
    public var isPaused: Bool { clock.map { !$0.isRunning } ?? false }

    /// The play time in milliseconds at Unix time `now` (pauses left out), from `CLOCK` and `STARTED`:
    /// while running, `CLOCK`'s number is the time paused so far; while paused, the play time at the
    /// pause, which stands. `nil` without a `CLOCK` line, or running before a `STARTED`.
    public func playMilliseconds(atUnixMilliseconds now: Int) -> Int? {
        guard let clock else { return nil }
        guard clock.isRunning else { return clock.milliseconds }
        guard let startedAt else { return nil }
        return max(0, now - startedAt - clock.milliseconds)
    }

    /// The play time left of a game with `minutes=` at Unix time `now`, never below 0 (the server calls
    /// time at its next tick); `nil` for a game without a time limit or without a clock yet.
    public func remainingMilliseconds(atUnixMilliseconds now: Int) -> Int? {
        guard let minutes = minutesOfPlay, let played = playMilliseconds(atUnixMilliseconds: now) else {
            return nil
        }
        return max(0, minutes * 60_000 - played)
    }
}
