/// A token bucket: ``Limits/commandBurst`` tokens, refilled at ``Limits/commandsPerSecond``.
struct RateLimiter {
    private var tokens = Limits.commandBurst
    private var refilledAt: Double?
    /// Commands refused since the flood began; a flood that never lets up is disconnected. A flood at
    /// many times the rate still earns a token now and then, so a pause in the refusals ends the flood,
    /// not an accepted command.
    private(set) var refusedInFlood = 0
    private var lastRefusalAt = -Double.infinity

    /// Takes `cost` tokens for a command at time `now`; `false` means the command must be refused.
    mutating func admit(at now: Double, cost: Double = 1) -> Bool {
        if let last = refilledAt {
            tokens = min(Limits.commandBurst, tokens + (now - last) * Limits.commandsPerSecond)
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
