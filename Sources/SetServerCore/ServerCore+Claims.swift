import SetDigest
import SetProtocol

/// Claimed names: `HELLO <name> key=<secret>`, checking a key, and replaying claims.
extension ServerCore {
    /// Checks `HELLO <name> [key=<secret>]` against the claimed names: a claimed name needs its key; an
    /// unclaimed one given a key is claimed now (journaled). Called when nothing else can refuse the
    /// `HELLO`, so a claim is never made for a name that was then not taken.
    func checkNameClaim(_ name: String, key: String?, on connection: Client, at now: Instant)
        -> ProtocolError?
    {
        freeIfExpired(name, at: now)
        if let claim = nameClaims[name] {
            guard let key else {
                return ProtocolError(.hello, .denied, "\(name) is claimed; HELLO \(name) key=<its key>")
            }
            if let refusal = guessRefusal(.hello, from: connection, name: name, at: now) { return refusal }
            guard claim.secret.matches(key) else {
                outbox.log(.info, "wrong-claim", [("name", name), ("peer", connection.addressKey)])
                noteWrongGuess(from: connection, name: name, at: now)
                return ProtocolError(.hello, .denied, "\(name) is claimed; HELLO \(name) key=<its key>")
            }
            guesses.byName.forget(name)
            noteUse(of: name, claim, key: key, at: now)
            return nil
        }
        guard let key else { return nil }
        return claim(name, key: key, on: connection, isHolder: false, at: now)
    }

    /// `HELLO <name> key=<secret>` from the connection that plays as `<name>` now (its seat's token is
    /// theirs): claims the name, which is how a name with a rating is claimed. `nil` for anything else,
    /// which is `ALREADY` as before.
    func claimOwnName(_ session: Session, key: String?, on connection: Client, at now: Instant) -> Answer? {
        guard let key else { return nil }
        freeIfExpired(session.name, at: now)
        guard !nameClaims.isClaimed(session.name) else {
            return .failure(
                ProtocolError(.hello, .already, "you are \(session.name), and the name is claimed already"))
        }
        if let refusal = claim(session.name, key: key, on: connection, isHolder: true, at: now) {
            return .failure(refusal)
        }
        return ok(.hello(name: session.name, token: "\(session.token)"))
    }

    /// Claims the unclaimed `name` with `key` for `connection` (journaled), or says why not: a name with
    /// a rating only for the player who plays as it now (`isHolder`), and within the limits on claims
    /// per address and in all.
    private func claim(_ name: String, key: String, on connection: Client, isHolder: Bool, at now: Instant)
        -> ProtocolError?
    {
        guard !key.isEmpty, key.utf8.count <= Self.maximumKeyLength else {
            return ProtocolError(.hello, .badOption, "a key is 1-\(Self.maximumKeyLength) bytes")
        }
        // Whoever played the rated games under a name is the one to claim it, not the first stranger who
        // thinks of it: they claim it while playing as it.
        if !isHolder, ratings.entries[name] != nil {
            return ProtocolError(
                .hello, .denied,
                "\(name) has a rating: only the player playing as \(name) may claim it "
                    + "(HELLO \(name), then HELLO \(name) key=<secret>)")
        }
        if let problem = journalProblem {
            return ProtocolError(
                .hello, .unavailable, "the server cannot save a claim now (\(problem)); try again soon")
        }
        let address = connection.addressKey
        let held = nameClaims.names(heldBy: address)
        if held.count >= ClaimLimits.namesPerAddress {
            return ProtocolError(
                .hello, .tooManyNames,
                "your address holds \(held.count) claimed names, the most it may; play under one of them")
        }
        let hourAgo = now.wall - ClaimLimits.window
        let recent = held.compactMap { nameClaims[$0]?.claimedAt }.filter { $0 > hourAgo }.sorted()
        if recent.count >= ClaimLimits.claimsPerWindow {
            let wait = recent[recent.count - ClaimLimits.claimsPerWindow] + ClaimLimits.window - now.wall
            return ProtocolError(
                .hello, .backoff,
                "\(recent.count) names were claimed from your address in the last hour; try again in "
                    + "\(Self.seconds(wait)) s, or play without a key")
        }
        guard nameClaims.count < configuration.maxClaimedNames else {
            outbox.log(.warn, "claims-full", [("claims", "\(nameClaims.count)")])
            return ProtocolError(
                .hello, .tooManyNames,
                "the server keeps \(configuration.maxClaimedNames) claimed names and has no room for more")
        }
        let claim = NameClaims.makeClaim(
            key: key, address: address, at: now.wall, iterations: configuration.keyHashIterations,
            random: random)
        nameClaims.set(name, claim)
        outbox.record(claim.record(of: name))
        outbox.log(.info, "name-claimed", [("name", name), ("peer", address)])
        return nil
    }

    /// Frees `name` if its key has not been said for `--name-expiry-days` (journaled as `name-free`), so
    /// a name is not held for ever by someone who stopped coming. Read from the claim's journaled last
    /// use and the clock passed in; while the journal cannot be written the claim waits.
    private func freeIfExpired(_ name: String, at now: Instant) {
        guard let claim = nameClaims[name], let cutoff = expiryCutoff(at: now), let used = claim.usedAt,
            used < cutoff, journalProblem == nil
        else { return }
        freeClaim(name)
    }

    /// Frees every claim unused past `--name-expiry-days`, at most once an hour (the core's `tick`).
    func sweepExpiredClaims(at now: Instant) {
        guard now.uptime >= nameClaims.nextExpirySweep else { return }
        nameClaims.nextExpirySweep = now.uptime + ClaimLimits.expirySweepInterval
        guard let cutoff = expiryCutoff(at: now) else { return }
        for name in nameClaims.names(unusedSince: cutoff) { freeClaim(name) }
    }

    private func expiryCutoff(at now: Instant) -> Double? {
        configuration.nameExpiryDays > 0 ? now.wall - Double(configuration.nameExpiryDays) * 86_400 : nil
    }

    private func freeClaim(_ name: String) {
        nameClaims.remove(name)
        outbox.record(.nameFree(name: name))
        outbox.log(.info, "name-expired", [("name", name), ("days", "\(configuration.nameExpiryDays)")])
    }

    /// Longest key, like a room's password: it fits comfortably in a command line.
    static let maximumKeyLength = 64

    /// A claimed name's key was said: its use is journaled (at most once a day: expiry counts days), and a
    /// claim of the first form (one SHA-1) is stored again as PBKDF2 now that the key is known. While the
    /// journal cannot be written neither happens, so the state never runs ahead of the journal.
    private func noteUse(of name: String, _ claim: NameClaims.Claim, key: String, at now: Instant) {
        guard journalProblem == nil else { return }
        if case .legacySHA1 = claim.secret {
            var upgraded = NameClaims.makeClaim(
                key: key, address: claim.address, at: claim.claimedAt,
                iterations: configuration.keyHashIterations, random: random)
            upgraded.usedAt = now.wall
            nameClaims.set(name, upgraded)
            outbox.record(upgraded.record(of: name))
            outbox.log(.info, "name-key-rehashed", [("name", name)])
        } else if now.wall - (claim.usedAt ?? 0) >= Self.claimUseResolution {
            nameClaims.noteUse(of: name, at: now.wall)
            outbox.record(.nameUsed(name: name, time: now.wall))
        }
    }

    /// How finely a claim's last use is journaled: a day, as `--name-expiry-days` counts.
    static let claimUseResolution = 86_400.0

    /// Replays a claim record.
    func replayClaim(_ record: JournalRecord) throws(JournalFormatError) {
        switch record {
        case .nameClaim(let name, let salt, let digest):
            nameClaims.set(
                name,
                NameClaims.Claim(
                    secret: .legacySHA1(salt: salt, digest: digest), address: "", claimedAt: 0, usedAt: nil))
        case .nameKey(let name, let text, let address, let claimedAt, let usedAt):
            guard let secret = NameClaims.Secret(text: text) else {
                throw JournalFormatError(description: "the key of \(name) is not a stored key")
            }
            nameClaims.set(
                name, NameClaims.Claim(secret: secret, address: address, claimedAt: claimedAt, usedAt: usedAt)
            )
        // A use or a release of a name not claimed changes nothing: its claim may have been lost to a repair.
        case .nameUsed(let name, let time): nameClaims.noteUse(of: name, at: time)
        case .nameFree(let name): nameClaims.remove(name)
        default: break
        }
    }
}

/// The limits on claiming names, each with what it protects.
enum ClaimLimits {
    /// Claimed names one address (an IPv6 address by its /64) may hold: a household's players, not a
    /// squatter's dictionary.
    static let namesPerAddress = 5
    /// Claims one address may make in ``window``: a few players setting up, not a script.
    static let claimsPerWindow = 3
    /// The window of ``claimsPerWindow``, in seconds.
    static let window = 3_600.0
    /// How often unused claims are looked for, in seconds of uptime.
    static let expirySweepInterval = 3_600.0
}
