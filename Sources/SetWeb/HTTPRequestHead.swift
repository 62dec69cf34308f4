/// An HTTP/1.x request line and its header fields, as bytes: names compare without case, values are
/// kept as sent (without the whitespace around them).
public struct HTTPRequestHead: Sendable, Equatable {
    /// The method, e.g. `GET`.
    public var method: [UInt8]
    /// The request target as sent, e.g. `/?room=fun`.
    public var target: [UInt8]
    /// The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    public var minorVersion: Int
    /// The header fields in order, names as sent.
    public var fields: [(name: [UInt8], value: [UInt8])]

    /// Creates a head from its parts.
    public init(
        method: [UInt8], target: [UInt8], minorVersion: Int, fields: [(name: [UInt8], value: [UInt8])]
    ) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.fields = fields
    }

    /// The target's path: everything before a `?`.
    public var path: [UInt8] { Array(target.prefix { $0 != UInt8(ascii: "?") }) }

    /// The values of every field called `name` (compared without case), in order.
    public func values(_ name: String) -> [[UInt8]] {
        let wanted = Array(name.utf8)
        return fields.filter { HTTPBytes.equalIgnoringCase($0.name, wanted) }.map(\.value)
    }

    /// The value of the field called `name` if it appears exactly once.
    public func value(_ name: String) -> [UInt8]? {
        let found = values(name)
        return found.count == 1 ? found[0] : nil
    }

    /// Whether a comma-separated list field (`Connection`, `Upgrade`), over all its lines, holds `token`
    /// (compared without case). A token with a `/version` (`websocket/13`) does not match `websocket`.
    public func listContains(_ name: String, _ token: String) -> Bool {
        let wanted = Array(token.utf8)
        return values(name).contains { value in
            value.split(separator: UInt8(ascii: ",")).contains {
                HTTPBytes.equalIgnoringCase(HTTPBytes.trimmed($0), wanted)
            }
        }
    }

    public static func == (lhs: HTTPRequestHead, rhs: HTTPRequestHead) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.minorVersion == rhs.minorVersion
            && lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

/// Small byte helpers for HTTP's ASCII grammar.
enum HTTPBytes {
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    static func equalIgnoringCase<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { lowercased($0) == lowercased($1) }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// Without the spaces and tabs around it (HTTP's optional whitespace).
    static func trimmed<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bytes.SubSequence {
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }

    /// RFC 9110's `tchar`: the bytes of a method or a field name.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
