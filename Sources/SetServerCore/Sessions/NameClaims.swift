import SetDigest

/// Names claimed with `HELLO <name> key=<secret>`: nobody else may play under them without the key.
///
/// Only a slow salted hash of each key is kept (PBKDF2-HMAC-SHA1, in memory and in the journal), so a
/// journal read by someone else does not give the keys away, even short ones, in a hurry. Each claim
/// also keeps the address that made it and when it was made and last used, all from journal records,
/// so the limits on claiming and the expiry of unused names read only what the journal holds. Owned by
/// the core.
final class NameClaims {
    /// How a claimed name's key is kept.
    enum Secret: Equatable, Sendable {
        /// PBKDF2-HMAC-SHA1 with a random salt.
        case hash(PasswordHash)
        /// The first form of claims: SHA-1 of a 16-hex-digit salt followed by the key, both hex. Read
        /// from older journals, and replaced by a ``hash(_:)`` the first time the name's key is said.
        case legacySHA1(salt: String, digest: String)

        /// The secret as a `name-key` record keeps it.
        var text: String {
            switch self {
            case .hash(let hash): return hash.text
            case .legacySHA1(let salt, let digest): return "sha1$\(salt)$\(digest)"
            }
        }

        /// Reads ``text``; `nil` for anything else.
        init?(text: String) {
            if let hash = PasswordHash(text: text) {
                self = .hash(hash)
                return
            }
            let parts = text.utf8.split(separator: UInt8(ascii: "$"), omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].elementsEqual("sha1".utf8) else { return nil }
            self = .legacySHA1(
                salt: String(decoding: parts[1], as: UTF8.self),
                digest: String(decoding: parts[2], as: UTF8.self))
        }

        /// Whether `key` is the key this secret was made from (a ``hash(_:)`` costs one whole hash).
        func matches(_ key: String) -> Bool {
            switch self {
            case .hash(let hash): return hash.matches(key)
            case .legacySHA1(let salt, let digest):
                let candidate = SHA1.digest(Array(salt.utf8) + Array(key.utf8)).hexString
                return PBKDF2.constantTimeEquals(Array(candidate.utf8), Array(digest.utf8))
            }
        }
    }

    /// One claimed name.
    struct Claim: Equatable, Sendable {
        var secret: Secret
        /// The address (an IPv6 address by its /64) that claimed it; empty for a claim of the first form.
        var address: String
        /// Unix seconds when it was claimed (0 for a claim of the first form).
        var claimedAt: Double
        /// Unix seconds when its key was last said; `nil` for a claim of the first form until the first
        /// restart that reads it (its use is counted from then).
        var usedAt: Double?

        /// The `name-key` record that restores this claim.
        func record(of name: String) -> JournalRecord {
            .nameKey(
                name: name, secret: secret.text, address: address, claimedAt: claimedAt,
                usedAt: usedAt ?? claimedAt)
        }
    }

    private(set) var claims: [String: Claim] = [:]
    /// When unused claims are next looked for (uptime; memory only: what it frees is journaled).
    var nextExpirySweep = 0.0
    /// The names each address holds, for the per-address cap.
    private var namesByAddress: [String: Set<String>] = [:]

    /// The number of claimed names.
    var count: Int { claims.count }

    /// `name`'s claim, if it has one.
    subscript(name: String) -> Claim? { claims[name] }

    /// Whether `name` is claimed.
    func isClaimed(_ name: String) -> Bool { claims[name] != nil }

    /// Whether `key` is `name`'s key (`false` for an unclaimed name).
    func matches(_ name: String, key: String) -> Bool {
        claims[name]?.secret.matches(key) ?? false
    }

    /// The names `address` holds.
    func names(heldBy address: String) -> Set<String> { namesByAddress[address] ?? [] }

    /// Claims `name` (or replaces its claim).
    func set(_ name: String, _ claim: Claim) {
        remove(name)
        claims[name] = claim
        if !claim.address.isEmpty { namesByAddress[claim.address, default: []].insert(name) }
    }

    /// Frees `name`.
    func remove(_ name: String) {
        guard let old = claims.removeValue(forKey: name) else { return }
        namesByAddress[old.address]?.remove(name)
        if namesByAddress[old.address]?.isEmpty == true { namesByAddress[old.address] = nil }
    }

    /// Notes that `name`'s key was said at `time`.
    func noteUse(of name: String, at time: Double) {
        claims[name]?.usedAt = time
    }

    /// A restart at `time`: claims of the first form, which never said when they were used, count as
    /// used then, so their expiry runs from the first start that knew about expiry.
    func noteRestart(at time: Double) {
        for (name, claim) in claims where claim.usedAt == nil { claims[name]?.usedAt = time }
    }

    /// The names whose claims were last used before `cutoff`, in name order.
    func names(unusedSince cutoff: Double) -> [String] {
        claims.filter { ($0.value.usedAt ?? .infinity) < cutoff }.keys.sorted()
    }

    /// A new claim of `key` made from `address` at `time`, with a 16-byte salt from `random`.
    static func makeClaim(key: String, address: String, at time: Double, iterations: Int, random: Randomness)
        -> Claim
    {
        let salt = random.bytes(16)
        return Claim(
            secret: .hash(PasswordHash(secret: key, salt: salt, iterations: iterations)), address: address,
            claimedAt: time, usedAt: time)
    }
}
