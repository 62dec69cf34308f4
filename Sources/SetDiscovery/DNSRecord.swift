/// A resource record type: a number, with names for the ones DNS-SD uses.
public struct DNSType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The type's number on the wire.
    public let rawValue: UInt16

    /// Wraps a type number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// An IPv4 address.
    public static let a = DNSType(rawValue: 1)
    /// A pointer to another name: from a service type to its instances.
    public static let ptr = DNSType(rawValue: 12)
    /// Key=value strings about a service instance.
    public static let txt = DNSType(rawValue: 16)
    /// An IPv6 address.
    public static let aaaa = DNSType(rawValue: 28)
    /// A service's host and port.
    public static let srv = DNSType(rawValue: 33)
    /// Which types a name has, so a querier learns that the others do not exist (RFC 6762 §6.1).
    public static let nsec = DNSType(rawValue: 47)
    /// Every type, in a question.
    public static let any = DNSType(rawValue: 255)

    public var description: String {
        switch self {
        case .a: "A"
        case .ptr: "PTR"
        case .txt: "TXT"
        case .aaaa: "AAAA"
        case .srv: "SRV"
        case .nsec: "NSEC"
        case .any: "ANY"
        default: "TYPE\(rawValue)"
        }
    }
}

/// The data of a record, decoded for the types DNS-SD uses and kept as bytes for the others.
public enum DNSRecordData: Hashable, Sendable {
    /// An IPv4 address, 4 bytes.
    case a([UInt8])
    /// An IPv6 address, 16 bytes.
    case aaaa([UInt8])
    /// The name pointed to.
    case ptr(DNSName)
    /// A service's host and port.
    case srv(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
    /// Length-prefixed strings (`key=value` in DNS-SD, RFC 6763 §6).
    case txt([[UInt8]])
    /// The name the NSEC record is about again, and the types that exist for it (RFC 6762 §6.1).
    case nsec(next: DNSName, types: Set<DNSType>)
    /// The data of any other type, undecoded.
    case other(DNSType, [UInt8])

    /// The record type this data belongs to.
    public var type: DNSType {
        switch self {
        case .a: .a
        case .aaaa: .aaaa
        case .ptr: .ptr
        case .srv: .srv
        case .txt: .txt
        case .nsec: .nsec
        case .other(let type, _): type
        }
    }
}

/// A resource record: a name, its data, how long it may be cached, and (mDNS) whether it replaces what
/// caches hold for its name and type.
public struct DNSRecord: Hashable, Sendable {
    /// The name the record is about.
    public var name: DNSName
    /// The record's class without the cache-flush bit; 1 is the Internet.
    public var rrClass: UInt16
    /// mDNS's cache-flush bit, the top bit of the class: this record is the whole set of its name and
    /// type, so caches drop older ones (RFC 6762 §10.2). Set on unique records only, never on PTRs.
    public var isCacheFlush: Bool
    /// Seconds it may be cached; 0 says "forget it" (a goodbye, RFC 6762 §10.1).
    public var ttl: UInt32
    /// The data.
    public var data: DNSRecordData

    /// The Internet class.
    public static let internetClass: UInt16 = 1

    /// A record of the Internet class.
    public init(
        name: DNSName, data: DNSRecordData, ttl: UInt32, isCacheFlush: Bool = false,
        rrClass: UInt16 = DNSRecord.internetClass
    ) {
        self.name = name
        self.data = data
        self.ttl = ttl
        self.isCacheFlush = isCacheFlush
        self.rrClass = rrClass
    }

    /// The record's type.
    public var type: DNSType { data.type }

    /// Whether `other` is the same record apart from its TTL and cache-flush bit: what known-answer
    /// suppression and conflict detection compare.
    public func isSameData(as other: DNSRecord) -> Bool {
        name == other.name && rrClass == other.rrClass && data == other.data
    }
}

/// A question: a name, the type wanted, and (mDNS) whether a unicast answer is asked for.
public struct DNSQuestion: Hashable, Sendable {
    /// The name asked about.
    public var name: DNSName
    /// The type asked for (``DNSType/any`` for all).
    public var type: DNSType
    /// The class without the unicast-response bit.
    public var qClass: UInt16
    /// mDNS's QU bit, the top bit of the class: the querier would like a unicast answer (RFC 6762 §5.4).
    public var wantsUnicastResponse: Bool

    /// A question of the Internet class.
    public init(
        name: DNSName, type: DNSType, wantsUnicastResponse: Bool = false,
        qClass: UInt16 = DNSRecord.internetClass
    ) {
        self.name = name
        self.type = type
        self.qClass = qClass
        self.wantsUnicastResponse = wantsUnicastResponse
    }

    /// Whether `record` answers this question: the same name, a matching type and class.
    public func isAnswered(by record: DNSRecord) -> Bool {
        record.name == name && (type == .any || type == record.type)
            && (qClass == 255 || qClass == record.rrClass)
    }
}
