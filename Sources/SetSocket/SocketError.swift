#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call, with the call's name and `errno` (or a name lookup's own status) turned into
/// words.
public struct SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The system call that failed.
    public var call: String
    /// The `errno` it left.
    public var code: Int32
    /// The status `getaddrinfo` returned (`EAI_NONAME` …), when a name lookup failed by itself rather
    /// than in a system call: its words come from `gai_strerror`, not `strerror`.
    public var lookupStatus: Int32?

    /// Captures `errno` for `call`.
    public init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    /// A failed `getaddrinfo` of `host`: with `EAI_SYSTEM` the reason is in `errno`, otherwise in the
    /// status itself.
    static func lookup(_ host: String, status: Int32) -> SocketError {
        let savedErrno = errno
        var error = SocketError("getaddrinfo \(host)", code: status == EAI_SYSTEM ? savedErrno : 0)
        if status != EAI_SYSTEM { error.lookupStatus = status }
        return error
    }

    /// Whether the process (`EMFILE`) or the system (`ENFILE`) is out of descriptors.
    public var isOutOfDescriptors: Bool { code == EMFILE || code == ENFILE }

    public var description: String {
        if let lookupStatus { return "\(call): \(String(cStringBytes: gai_strerror(lookupStatus)))" }
        return "\(call): \(String(cStringBytes: strerror(code)))"
    }
}

extension String {
    /// Decodes a NUL-terminated C string.
    init(cStringBytes pointer: UnsafePointer<CChar>) {
        let length = strlen(pointer)
        self = pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// Decodes a NUL-terminated C string held in an array.
    init(cStringArray array: [CChar]) {
        self = String(decoding: array.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
