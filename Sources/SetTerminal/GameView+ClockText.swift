import SetProtocol

/// The clock set-cli shows for a timed or practice game.
extension GameView {
    /// A timed or practice game's clock at Unix time `now`: the time left of a `minutes=` game
    /// (`2:13 left`), else the play time (`3:07`), pauses left out either way; `nil` for a game without
    /// a `CLOCK` line, whose clock counts from `STARTED` as before.
    public func clockText(atUnixMilliseconds now: Int) -> String? {
        if let left = remainingMilliseconds(atUnixMilliseconds: now) {
            return GameNight.clock(milliseconds: left) + " left"
        }
        return playMilliseconds(atUnixMilliseconds: now).map { GameNight.clock(milliseconds: $0) }
    }
}
