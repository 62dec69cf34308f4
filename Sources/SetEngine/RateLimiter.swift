/// The rate and burst of a token bucket (`--rate-limit`): one for every connection, kept once by the
/// engine rather than in each connection's bucket.
struct RateLimit {
    /// Tokens added a second; 0 turns the limit off (a trusted LAN, a benchmark).
    let rate: Double
    /// Tokens a full bucket holds.
    let burst: Double
}

/// A token bucket: `burst` tokens, refilled at `rate` a second (`--rate-limit`); a rate of 0 admits
/// everything. Every kind of input pays it: commands, blank lines, WebSocket frames, HTTP requests.
///
/// The bucket holds only its state; its ``RateLimit`` is passed to each call, so that every idle
/// connection does not carry the configuration.
struct RateLimiter {
    private var tokens: Double
    /// When it was last refilled; −∞ before the first input, which finds the bucket full.
    private var refilledAt = -Double.infinity
    private var lastRefusalAt = -Double.infinity
    /// Inputs refused since the flood began; a flood that never lets up is disconnected. A flood at
    /// many times the rate still earns a token now and then, so a pause in the refusals ends the flood,
    /// not an accepted input.
    private(set) var refusedInFlood = 0

    /// A full bucket of `limit`'s burst.
    init(_ limit: RateLimit) {
        tokens = limit.burst
    }

    /// Takes `cost` tokens for an input at time `now` under `limit`; `false` means the input must be
    /// refused.
    mutating func admit(at now: Double, cost: Double = 1, under limit: RateLimit) -> Bool {
        guard limit.rate > 0 else { return true }
        if refilledAt > -Double.infinity {
            tokens = min(limit.burst, tokens + (now - refilledAt) * limit.rate)
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

    /// Whether the bucket would be full again by `now` under `limit`: one that is can be forgotten, since
    /// a new one starts full.
    func isFull(at now: Double, under limit: RateLimit) -> Bool {
        guard limit.rate > 0 else { return true }
        let refilled = refilledAt > -Double.infinity ? tokens + (now - refilledAt) * limit.rate : tokens
        return refilled >= limit.burst
    }

    /// Whether the flood has gone on long enough to disconnect.
    var isFlooding: Bool { refusedInFlood >= EngineLimits.floodDisconnectAfter }
}
