/// A token bucket: ``Limits/commandBurst`` tokens, refilled at ``Limits/commandsPerSecond``.
struct RateLimiter {
    private var tokens = Limits.commandBurst
    private var refilledAt: Double?
    /// Commands refused in a row; a flood that never lets up is disconnected.
    private(set) var refusedInARow = 0

    /// Takes a token for a command at time `now`; `false` means the command must be refused.
    mutating func admit(at now: Double) -> Bool {
        if let last = refilledAt {
            tokens = min(Limits.commandBurst, tokens + (now - last) * Limits.commandsPerSecond)
        }
        refilledAt = now
        guard tokens >= 1 else {
            refusedInARow += 1
            return false
        }
        tokens -= 1
        refusedInARow = 0
        return true
    }
}
