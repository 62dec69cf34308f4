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
        return claim(name, key: key, on: connection, at: now)
    }

    /// Claims the unclaimed `name` with `key` for `connection` (journaled), or says why not.
    func claim(_ name: String, key: String, on connection: Client, at now: Instant) -> ProtocolError? {
        guard !key.isEmpty, key.utf8.count <= Self.maximumKeyLength else {
            return ProtocolError(.hello, .badOption, "a key is 1-\(Self.maximumKeyLength) bytes")
        }
        let claim = NameClaims.makeClaim(
            key: key, address: connection.addressKey, at: now.wall,
            iterations: configuration.keyHashIterations,
            random: random)
        nameClaims.set(name, claim)
        outbox.record(claim.record(of: name))
        outbox.log(.info, "name-claimed", [("name", name), ("peer", connection.addressKey)])
        return nil
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
