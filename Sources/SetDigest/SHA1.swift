/// SHA-1 (FIPS 180-4), written here because setd takes no packages: the WebSocket handshake (RFC 6455)
/// needs it for `Sec-WebSocket-Accept`, and a claimed name's key is stored only as a salted digest.
///
/// SHA-1 is broken for collision resistance; neither use needs that (the handshake is not a security
/// measure, and a name key is a LAN courtesy, not a credential).
public struct SHA1: Sendable {
    /// The digest's size in bytes.
    public static let byteCount = 20

    /// The state after every whole block fed so far (`SHA1Block`'s compression, which PBKDF2 uses too).
    private var state: SHA1Words = SHA1Block.initial
    /// Bytes fed after the last whole block: fewer than 64.
    private var pending: [UInt8] = []
    /// Bytes compressed into `state`.
    private var compressed = 0

    /// A hasher with nothing fed to it yet.
    public init() {}

    /// The digest of `bytes`.
    public static func digest<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = SHA1()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `bytes`: an array needs no buffer, its blocks are compressed where they are (the
    /// WebSocket handshake's digest, a name key's legacy digest, a room password's salt).
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        SHA1Block.bytes(of: SHA1Block.finish(SHA1Block.initial, message: bytes, prefixLength: 0))
    }

    /// Feeds more bytes to the hash.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            pending.append(byte)
            if pending.count == 64 {
                state = SHA1Block.compress(state, bytes: pending)
                compressed += 64
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The digest of everything fed so far (the hasher is used up).
    public consuming func finalize() -> [UInt8] {
        SHA1Block.bytes(of: SHA1Block.finish(state, message: pending, prefixLength: compressed))
    }
}

extension Sequence where Element == UInt8 {
    /// The bytes as lower-case hexadecimal.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
