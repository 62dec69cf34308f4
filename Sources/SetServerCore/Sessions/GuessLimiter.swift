/// Wrong keys and passwords, counted per address (an IPv6 address by its /64) or per name: a few free
/// tries, then a wait that doubles with every further failure, as login systems do. A guess refused for
/// the wait is not checked at all, so guessing costs the guesser time and the server nothing.
///
/// Pure: the clock is passed in (the core's uptime). Kept in memory only: it decides whether a key is
/// checked, never what the journal holds, and a restart gives a guesser no more than a few free tries.
struct GuessLimiter {
    /// How one kind of key is limited.
    struct Policy: Sendable {
        /// Failures allowed before the first wait.
        var freeTries: Int
        /// The first wait, in seconds; each failure after it doubles it.
        var firstWait: Double
        /// The longest wait, in seconds.
        var longestWait: Double
        /// A key is forgotten this long after its last failure (once its wait is over): a new burst
        /// starts with its free tries again.
        var forgetAfter: Double
    }

    /// One key's failures since it was last forgotten.
    struct Entry: Equatable, Sendable {
        /// Keys or passwords checked and found wrong.
        var failures = 0
        /// Tries refused for the wait, never checked.
        var refused = 0
        /// No try is checked before this moment.
        var blockedUntil = -Double.infinity
        /// When the last failure happened.
        var lastFailure = -Double.infinity
    }

    /// What a failure did.
    enum Outcome: Equatable {
        /// Still within the free tries.
        case free
        /// The failure that used up the free tries: the first wait starts (worth a log line).
        case backoffBegins(wait: Double)
        /// A later failure: the wait doubles.
        case backoffGrows(wait: Double)
    }

    let policy: Policy
    /// Keys held at most: past it the longest-quiet key is forgotten first (memory stays bounded however
    /// many addresses or names a guesser goes through).
    let capacity: Int
    private(set) var entries: [String: Entry] = [:]

    init(_ policy: Policy, capacity: Int = 50_000) {
        self.policy = policy
        self.capacity = capacity
    }

    /// The seconds `key` must still wait before a try is checked, or `nil` when it may try now.
    func wait(for key: String, at now: Double) -> Double? {
        guard let entry = entries[key], entry.blockedUntil > now else { return nil }
        return entry.blockedUntil - now
    }

    /// Counts a try refused for the wait.
    mutating func noteRefused(_ key: String) {
        entries[key]?.refused += 1
    }

    /// Counts a wrong key or password from `key` at `now`.
    mutating func noteFailure(_ key: String, at now: Double) -> Outcome {
        if entries[key] == nil, entries.count >= capacity { evictQuietest() }
        var entry = entries[key] ?? Entry()
        entry.failures += 1
        entry.lastFailure = now
        let outcome: Outcome
        if entry.failures < policy.freeTries {
            outcome = .free
        } else {
            let doublings = Double(min(entry.failures - policy.freeTries, 40))
            let wait = min(policy.firstWait * Double.pow2(doublings), policy.longestWait)
            entry.blockedUntil = now + wait
            outcome =
                entry.failures == policy.freeTries ? .backoffBegins(wait: wait) : .backoffGrows(wait: wait)
        }
        entries[key] = entry
        return outcome
    }

    /// Forgets `key`'s failures: its key was right (a name's owner said it).
    mutating func forget(_ key: String) {
        entries[key] = nil
    }

    /// Forgets the keys quiet for ``Policy/forgetAfter`` at `now`; returns those that had begun to wait
    /// (a burst worth a closing log line), in key order.
    mutating func sweep(at now: Double) -> [(key: String, entry: Entry)] {
        let quiet = entries.filter { isQuiet($0.value, at: now) }
        for key in quiet.keys { entries[key] = nil }
        return quiet.filter { $0.value.failures >= policy.freeTries }.sorted { $0.key < $1.key }.map {
            ($0.key, $0.value)
        }
    }

    private func isQuiet(_ entry: Entry, at now: Double) -> Bool {
        now - entry.lastFailure > policy.forgetAfter && now >= entry.blockedUntil
    }

    private mutating func evictQuietest() {
        guard
            let quietest = entries.min(by: { ($0.value.lastFailure, $0.key) < ($1.value.lastFailure, $1.key) }
            )
        else { return }
        entries[quietest.key] = nil
    }
}

extension Double {
    /// 2 to the power `exponent` (a whole number from 0 to 40).
    fileprivate static func pow2(_ exponent: Double) -> Double {
        Double(sign: .plus, exponent: Int(exponent), significand: 1)
    }
}

/// Every guess limit of the core, and when they were last swept.
struct GuessLimits {
    /// Wrong keys and room passwords per address: 5 free, then 1 s doubling to 15 minutes. One machine
    /// guessing finds a 4-digit key in weeks, not in the second it took before.
    var byAddress = GuessLimiter(
        GuessLimiter.Policy(freeTries: 5, firstWait: 1, longestWait: 900, forgetAfter: 3_600))
    /// Wrong keys per claimed name, from anywhere: 10 free, then 1 s doubling to 5 minutes. Many machines
    /// guessing together get no more tries at one name than this; the name's owner meanwhile keeps
    /// their seat with `RESUME`.
    var byName = GuessLimiter(
        GuessLimiter.Policy(freeTries: 10, firstWait: 1, longestWait: 300, forgetAfter: 3_600))
    /// When the limits are next swept for quiet keys (uptime).
    var nextSweep = 0.0
    /// How often the sweep runs, in seconds.
    static let sweepInterval = 60.0
}
