import SetProtocol

/// Wrong keys and passwords cost the guesser: waits per address and per name (``GuessLimits``).
extension ServerCore {
    /// The `BACKOFF` refusal of a key or password check from `connection` (and for claimed name `name`),
    /// when its address or the name must still wait; the try is counted as refused, never checked.
    func guessRefusal(_ verb: Verb, from connection: Client, name: String?, at now: Instant) -> ProtocolError?
    {
        let address = connection.addressKey
        if let wait = guesses.byAddress.wait(for: address, at: now.uptime) {
            guesses.byAddress.noteRefused(address)
            if let name { guesses.byName.noteRefused(name) }
            return ProtocolError(
                verb, .backoff,
                "too many wrong keys or passwords from your address; try again in \(Self.seconds(wait)) s")
        }
        if let name, let wait = guesses.byName.wait(for: name, at: now.uptime) {
            guesses.byName.noteRefused(name)
            return ProtocolError(
                verb, .backoff,
                "too many wrong keys for \(name); try again in \(Self.seconds(wait)) s (a seated player can RESUME)"
            )
        }
        return nil
    }

    /// Counts a wrong key (for `name`) or room password from `connection`; the failure that uses up an
    /// address's or a name's free tries is logged once (`warn guessing`), and its burst's count when it
    /// ends (`warn guessing-ended`, see ``sweepGuesses(at:)``).
    func noteWrongGuess(from connection: Client, name: String?, at now: Instant) {
        let address = connection.addressKey
        if case .backoffBegins(let wait) = guesses.byAddress.noteFailure(address, at: now.uptime) {
            outbox.log(
                .warn, "guessing",
                [
                    ("scope", "address"), ("peer", address),
                    ("failures", "\(guesses.byAddress.policy.freeTries)"),
                    ("wait", "\(Self.seconds(wait))"),
                ])
        }
        guard let name else { return }
        if case .backoffBegins(let wait) = guesses.byName.noteFailure(name, at: now.uptime) {
            outbox.log(
                .warn, "guessing",
                [
                    ("scope", "name"), ("name", name), ("failures", "\(guesses.byName.policy.freeTries)"),
                    ("wait", "\(Self.seconds(wait))"),
                ])
        }
    }

    /// Forgets addresses and names quiet for an hour (once a minute), logging each burst that had
    /// earned a wait with its counts.
    func sweepGuesses(at now: Instant) {
        guard now.uptime >= guesses.nextSweep else { return }
        guesses.nextSweep = now.uptime + GuessLimits.sweepInterval
        for (address, entry) in guesses.byAddress.sweep(at: now.uptime) {
            outbox.log(
                .warn, "guessing-ended",
                [
                    ("scope", "address"), ("peer", address), ("failures", "\(entry.failures)"),
                    ("refused", "\(entry.refused)"),
                ])
        }
        for (name, entry) in guesses.byName.sweep(at: now.uptime) {
            outbox.log(
                .warn, "guessing-ended",
                [
                    ("scope", "name"), ("name", name), ("failures", "\(entry.failures)"),
                    ("refused", "\(entry.refused)"),
                ])
        }
    }

    /// Whole seconds, rounded up, for a wait a person reads.
    static func seconds(_ wait: Double) -> Int { max(1, Int(wait.rounded(.up))) }
}
