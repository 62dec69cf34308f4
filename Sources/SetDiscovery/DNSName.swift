/// A domain name as its labels, each the raw bytes of one label (DNS-SD instance names are UTF-8 and
/// may hold dots and spaces, so a name is never a dotted string inside the codec).
///
/// Names compare and hash without regard to ASCII case, as RFC 1035 §2.3.3 and RFC 6762 §16 require:
/// `_setd._tcp.local` and `_SETD._TCP.LOCAL` are one name, while bytes outside ASCII compare exactly.
public struct DNSName: Hashable, Sendable, CustomStringConvertible {
    /// The labels, most specific first, without the empty root label.
    public let labels: [[UInt8]]

    /// The longest label a name may have (RFC 1035 §2.3.4).
    public static let maximumLabelLength = 63
    /// The longest name in wire form, length bytes and the root included (RFC 1035 §2.3.4).
    public static let maximumWireLength = 255

    /// A name from its labels; `nil` if a label is empty or too long, or the name too long on the wire.
    public init?(labels: [[UInt8]]) {
        guard labels.allSatisfy({ !$0.isEmpty && $0.count <= Self.maximumLabelLength }),
            labels.reduce(1, { $0 + 1 + $1.count }) <= Self.maximumWireLength
        else { return nil }
        self.labels = labels
    }

    /// A name from dotted text such as `_setd._tcp.local` (no escapes: a label with a dot in it is
    /// made with ``init(labels:)`` or ``prepending(_:)``).
    public init?(_ dotted: String) {
        let parts = dotted.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let labels = dotted.isEmpty ? [] : parts.map { Array($0) }
        self.init(labels: labels)
    }

    /// This name with `label` put in front (`setd` before `_setd._tcp.local`); `nil` if it would be too
    /// long.
    public func prepending(_ label: [UInt8]) -> DNSName? { DNSName(labels: [label] + labels) }

    /// This name with `label` (UTF-8) put in front.
    public func prepending(_ label: String) -> DNSName? { prepending(Array(label.utf8)) }

    /// The name without its first label (the service type of an instance name); `nil` for the root.
    public var parent: DNSName? { labels.isEmpty ? nil : DNSName(labels: Array(labels.dropFirst())) }

    /// The bytes of the name on the wire without compression.
    public var wireLength: Int { labels.reduce(1) { $0 + 1 + $1.count } }

    /// The labels in ASCII lower case: what equality and hashing read.
    var folded: [[UInt8]] { labels.map { $0.map(Self.lowercased) } }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    public static func == (lhs: DNSName, rhs: DNSName) -> Bool {
        guard lhs.labels.count == rhs.labels.count else { return false }
        for (a, b) in zip(lhs.labels, rhs.labels) {
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) where lowercased(x) != lowercased(y) { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        for label in labels {
            hasher.combine(label.count)
            for byte in label { hasher.combine(Self.lowercased(byte)) }
        }
    }

    /// The first label as text, for an instance name shown to a person.
    public var firstLabel: String { labels.first.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// Dotted text, with a dot or backslash inside a label escaped by a backslash (RFC 6763 §4.3).
    public var description: String {
        guard !labels.isEmpty else { return "." }
        return labels.map { label in
            var text = ""
            for scalar in String(decoding: label, as: UTF8.self).unicodeScalars {
                if scalar == "." || scalar == "\\" { text.append("\\") }
                text.unicodeScalars.append(scalar)
            }
            return text
        }.joined(separator: ".")
    }
}
