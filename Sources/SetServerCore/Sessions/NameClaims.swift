import SetDigest

/// Names claimed with `HELLO <name> key=<secret>`: nobody else may play under them without the key.
///
/// Only a salted SHA-1 digest of each key is kept (in memory and in the journal), so a journal read by
/// someone else does not give the keys away. Owned by the core.
final class NameClaims {
    /// A claimed name's salt and the digest of salt + key, both as hex.
    struct Claim: Equatable, Sendable {
        var salt: String
        var digest: String
    }

    private(set) var claims: [String: Claim] = [:]

    /// Whether `name` is claimed.
    func isClaimed(_ name: String) -> Bool { claims[name] != nil }

    /// Whether `key` is `name`'s key (`false` for an unclaimed name).
    func matches(_ name: String, key: String) -> Bool {
        guard let claim = claims[name] else { return false }
        return Self.digest(salt: claim.salt, key: key) == claim.digest
    }

    /// Claims `name` with `key`; returns the claim to journal.
    func claim(_ name: String, key: String, random: Randomness) -> Claim {
        let salt = random.hex(words: 2)
        let claim = Claim(salt: salt, digest: Self.digest(salt: salt, key: key))
        claims[name] = claim
        return claim
    }

    /// Keeps a claim read from the journal.
    func restore(_ name: String, _ claim: Claim) { claims[name] = claim }

    static func digest(salt: String, key: String) -> String {
        SHA1.digest(Array(salt.utf8) + Array(key.utf8)).hexString
    }
}
