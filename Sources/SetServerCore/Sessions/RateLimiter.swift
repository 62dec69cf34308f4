/// A token bucket: `burst` tokens, refilled at `rate` a second (``Limits/commandsPerSecond`` and
/// ``Limits/commandBurst`` unless `--rate-limit` says otherwise); a rate of 0 admits everything.
struct RateLimiter {
    /// Tokens added a second; 0 turns the limit off (a trusted LAN, a benchmark).
    let rate: Double
    private let burst: Double
    private var tokens: Double
    private var refilledAt: Double?
    /// Commands refused since the flood began; a flood that never lets up is disconnected. A flood at
    /// many times the rate still earns a token now and then, so a pause in the refusals ends the flood,
    /// not an accepted command.
    private(set) var refusedInFlood = 0
    private var lastRefusalAt = -Double.infinity

    /// A full bucket of `burst` tokens refilled at `rate` a second.
    init(rate: Double = Limits.commandsPerSecond, burst: Double = Limits.commandBurst) {
        self.rate = rate
        self.burst = burst
        tokens = burst
    }

    /// Takes `cost` tokens for a command at time `now`; `false` means the command must be refused.
    mutating func admit(at now: Double, cost: Double = 1) -> Bool {
        guard rate > 0 else { return true }
        if let last = refilledAt {
            tokens = min(burst, tokens + (now - last) * rate)
        }
        refilledAt = now
        guard tokens >= cost else {
            if now - lastRefusalAt > Limits.floodPause { refusedInFlood = 0 }
            refusedInFlood += 1
            lastRefusalAt = now
            return false
        }
        tokens -= cost
        return true
    }
}
