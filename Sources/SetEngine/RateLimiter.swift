/// A token bucket: `burst` tokens, refilled at `rate` a second (`--rate-limit`); a rate of 0 admits
/// everything. Every kind of input pays it: commands, blank lines, WebSocket frames, HTTP requests.
struct RateLimiter {
    /// Tokens added a second; 0 turns the limit off (a trusted LAN, a benchmark).
    let rate: Double
    private let burst: Double
    private var tokens: Double
    private var refilledAt: Double?
    /// Inputs refused since the flood began; a flood that never lets up is disconnected. A flood at
    /// many times the rate still earns a token now and then, so a pause in the refusals ends the flood,
    /// not an accepted input.
    private(set) var refusedInFlood = 0
    private var lastRefusalAt = -Double.infinity

    /// A full bucket of `burst` tokens refilled at `rate` a second.
    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        tokens = burst
    }

    /// Takes `cost` tokens for an input at time `now`; `false` means the input must be refused.
    mutating func admit(at now: Double, cost: Double = 1) -> Bool {
        guard rate > 0 else { return true }
        if let last = refilledAt {
            tokens = min(burst, tokens + (now - last) * rate)
        }
        refilledAt = now
        guard tokens >= cost else {
            if now - lastRefusalAt > EngineLimits.floodPause { refusedInFlood = 0 }
            refusedInFlood += 1
            lastRefusalAt = now
            return false
        }
        tokens -= cost
        return true
    }

    /// Whether the bucket would be full again by `now`: one that is can be forgotten, since a new one
    /// starts full.
    func isFull(at now: Double) -> Bool {
        rate <= 0 || tokens + (now - (refilledAt ?? now)) * rate >= burst
    }

    /// Whether the flood has gone on long enough to disconnect.
    var isFlooding: Bool { refusedInFlood >= EngineLimits.floodDisconnectAfter }
}
