#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call, with the call's name and `errno` turned into words.
public struct SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The system call that failed.
    public var call: String
    /// The `errno` it left.
    public var code: Int32

    /// Captures `errno` for `call`.
    public init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    public var description: String { "\(call): \(String(cStringBytes: strerror(code)))" }
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
