/// A moment, as the shell's clock (or a test's virtual clock) reads it: the core never reads a clock.
public struct Instant: Equatable, Sendable {
    /// Monotonic seconds since an arbitrary start, for timeouts, grace periods and rate limits.
    public var uptime: Double
    /// Unix time in seconds, for history and the journal, which must make sense across restarts.
    public var wall: Double

    /// Creates an instant from both clocks' readings.
    public init(uptime: Double, wall: Double) {
        self.uptime = uptime
        self.wall = wall
    }

    /// The instant `seconds` later on both clocks.
    public func advanced(by seconds: Double) -> Instant {
        Instant(uptime: uptime + seconds, wall: wall + seconds)
    }
}
