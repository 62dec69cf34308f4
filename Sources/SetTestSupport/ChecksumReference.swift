/// The journal's checksum re-derived from protocol.md ("FNV-1a, 32 bits, 8 hex digits, of the text before
/// ` ~`"), for the journal files the server writes to be checked against.
public enum ChecksumReference {
    /// The FNV-1a hash, 32 bits, of `bytes`: start from the offset basis 0x811C9DC5, then for every byte
    /// xor it in and multiply by the FNV prime 0x01000193, modulo 2^32.
    public static func fnv1a32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }

    /// The checksum of a journal record: the FNV-1a 32 hash of its UTF-8 bytes as 8 lower-case hex digits.
    public static func journalChecksum(_ record: String) -> String {
        let hex = String(fnv1a32(record.utf8), radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
