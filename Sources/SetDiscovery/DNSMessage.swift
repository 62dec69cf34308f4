/// A DNS message: the header's fields and its four sections. mDNS (RFC 6762 §18) uses the unicast DNS
/// format with a few bits read differently; this type holds both readings.
public struct DNSMessage: Hashable, Sendable {
    /// The query ID: 0 in multicast mDNS, echoed in answers to legacy unicast queries (RFC 6762 §6.7).
    public var id: UInt16
    /// Whether this is a response (QR).
    public var isResponse: Bool
    /// The operation; mDNS uses only 0 (a standard query) and ignores the others (RFC 6762 §18.3).
    public var opcode: UInt8
    /// Authoritative answer (AA): set in every mDNS response.
    public var isAuthoritative: Bool
    /// Truncated (TC): in an mDNS query, more known answers follow in later packets (RFC 6762 §7.2).
    public var isTruncated: Bool
    /// Recursion desired, available, and the response code; mDNS sends zeros.
    public var recursionDesired: Bool
    /// Recursion available.
    public var recursionAvailable: Bool
    /// The response code (0: no error).
    public var rcode: UInt8
    /// The questions.
    public var questions: [DNSQuestion]
    /// The answers; in an mDNS query, the answers the querier already knows (RFC 6762 §7.1).
    public var answers: [DNSRecord]
    /// The authority records; in an mDNS probe, the records the prober proposes (RFC 6762 §8.2).
    public var authorities: [DNSRecord]
    /// The additional records.
    public var additionals: [DNSRecord]

    /// The largest mDNS message, headers included (RFC 6762 §17): anything larger is refused unread.
    public static let maximumSize = 9000

    /// A message with the given sections and every flag clear.
    public init(
        id: UInt16 = 0, isResponse: Bool, isAuthoritative: Bool = false, isTruncated: Bool = false,
        questions: [DNSQuestion] = [], answers: [DNSRecord] = [], authorities: [DNSRecord] = [],
        additionals: [DNSRecord] = []
    ) {
        self.id = id
        self.isResponse = isResponse
        self.opcode = 0
        self.isAuthoritative = isAuthoritative
        self.isTruncated = isTruncated
        self.recursionDesired = false
        self.recursionAvailable = false
        self.rcode = 0
        self.questions = questions
        self.answers = answers
        self.authorities = authorities
        self.additionals = additionals
    }

    /// Every record of the answer, authority and additional sections, in that order.
    public var records: [DNSRecord] { answers + authorities + additionals }
}

/// Why bytes are not a DNS message.
public enum DNSParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message is larger than ``DNSMessage/maximumSize``.
    case tooLarge(Int)
    /// A field runs past the end of the message (or of its record's data) at this offset.
    case truncated(at: Int)
    /// A compression pointer does not point strictly before the name it is part of (which is what
    /// rules out loops), at this offset.
    case badPointer(at: Int)
    /// A label's length byte has the reserved top bits 01 or 10, at this offset.
    case badLabel(at: Int)
    /// A name is longer than 255 bytes on the wire.
    case nameTooLong(at: Int)
    /// A record's data does not fit its type (an A record of 5 bytes, an SRV with bytes after its
    /// target), at this offset.
    case badData(type: DNSType, at: Int)

    public var description: String {
        switch self {
        case .tooLarge(let size): "message of \(size) bytes, over \(DNSMessage.maximumSize)"
        case .truncated(let offset): "truncated at byte \(offset)"
        case .badPointer(let offset): "compression pointer at byte \(offset) does not point back"
        case .badLabel(let offset): "reserved label type at byte \(offset)"
        case .nameTooLong(let offset): "name at byte \(offset) longer than 255 bytes"
        case .badData(let type, let offset): "\(type) data at byte \(offset) does not fit its type"
        }
    }
}
