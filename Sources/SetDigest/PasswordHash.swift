/// A secret as setd keeps it: PBKDF2-HMAC-SHA-1 of the secret with a random salt, never the secret.
///
/// Written as text, `pbkdf2-sha1$<iterations>$<salt hex>$<digest hex>` (the shape password stores such
/// as Django's and passlib's use), so a stored hash says how it was made and a later setd may raise the
/// iterations without losing the hashes it has.
public struct PasswordHash: Equatable, Hashable, Sendable {
    /// PBKDF2's iteration count this hash was made with.
    public var iterations: Int
    /// The random salt.
    public var salt: [UInt8]
    /// The derived key.
    public var digest: [UInt8]

    /// The text's first part, naming the function.
    public static let scheme = "pbkdf2-sha1"
    /// The most iterations a stored hash may ask for: more would let a damaged or hostile journal make
    /// one check cost minutes.
    public static let maximumIterations = 1_000_000

    /// Hashes `secret` with `salt` and `iterations`.
    public init(secret: String, salt: [UInt8], iterations: Int) {
        self.iterations = iterations
        self.salt = salt
        digest = PBKDF2.sha1(password: Array(secret.utf8), salt: salt, iterations: iterations)
    }

    /// A hash as stored.
    public init(iterations: Int, salt: [UInt8], digest: [UInt8]) {
        self.iterations = iterations
        self.salt = salt
        self.digest = digest
    }

    /// Whether `secret` is the secret this hash was made from (costs one whole hash).
    public func matches(_ secret: String) -> Bool {
        let candidate = PBKDF2.sha1(
            password: Array(secret.utf8), salt: salt, iterations: iterations, length: digest.count)
        return PBKDF2.constantTimeEquals(candidate, digest)
    }

    /// `pbkdf2-sha1$<iterations>$<salt hex>$<digest hex>`.
    public var text: String { "\(Self.scheme)$\(iterations)$\(salt.hexString)$\(digest.hexString)" }

    /// Reads ``text``; `nil` for anything else (another scheme, a count out of range, odd or upper-case
    /// hex, an empty salt or digest). Read on bytes, like every stored field.
    public init?(text: String) {
        let parts = Array(text.utf8).split(separator: UInt8(ascii: "$"), omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].elementsEqual(Self.scheme.utf8),
            parts[1].count <= 8, parts[1].allSatisfy({ (0x30...0x39).contains($0) }),
            let iterations = Int(String(decoding: parts[1], as: UTF8.self)),
            (1...Self.maximumIterations).contains(iterations),
            let salt = Self.bytes(hex: parts[2]), let digest = Self.bytes(hex: parts[3]),
            !salt.isEmpty, (1...64).contains(digest.count)
        else { return nil }
        self.init(iterations: iterations, salt: salt, digest: digest)
    }

    private static func bytes(hex: ArraySlice<UInt8>) -> [UInt8]? {
        bytes(hex: Array(hex))
    }

    /// The bytes of lower-case hex text, `nil` if it is not that.
    static func bytes(hex: [UInt8]) -> [UInt8]? {
        guard hex.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case 0x30...0x39: return digit - 0x30
            case 0x61...0x66: return digit - 0x61 + 10
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(hex.count / 2)
        for index in stride(from: 0, to: hex.count, by: 2) {
            guard let high = value(hex[index]), let low = value(hex[index + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }
}
