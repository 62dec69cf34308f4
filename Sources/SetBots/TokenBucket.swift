/// A client-side rate limit: a bot never sends more than `rate` commands per second with bursts of
/// `burst`, so that it stays under the server's limit (100 per second, bursts of 200) and a benchmark
/// measures the server rather than its flood protection.
struct TokenBucket: Sendable {
    /// Commands per second, sustained.
    let rate: Double
    /// Commands that may be sent at once after a quiet spell.
    let burst: Double
    private var tokens: Double
    private var updated: UInt64

    /// Creates a full bucket.
    init(rate: Double, burst: Double, now: UInt64) {
        self.rate = rate
        self.burst = burst
        tokens = burst
        updated = now
    }

    private mutating func refill(_ now: UInt64) {
        guard now > updated else { return }
        tokens = min(burst, tokens + Double(now - updated) * rate / 1e9)
        updated = now
    }

    /// Takes one token if there is one.
    mutating func take(now: UInt64) -> Bool {
        refill(now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Takes one token even when there is none (for answers the server is owed, like `PING`), going
    /// into debt that later commands wait out.
    mutating func force(now: UInt64) {
        refill(now)
        tokens -= 1
    }

    /// When the next token will be there.
    func nextToken(now: UInt64) -> UInt64 {
        let missing = 1 - tokens
        guard missing > 0 else { return now }
        return max(now, updated) + UInt64((missing / rate * 1e9).rounded(.up))
    }
}
