/// What a responder announces: one instance of one or more service types on one port, its host name,
/// and the TXT strings of each type.
public struct ServiceAdvertisement: Hashable, Sendable {
    /// One service type and the TXT strings its instance carries.
    public struct Service: Hashable, Sendable {
        /// The type, e.g. `_setd._tcp.local`.
        public var type: DNSName
        /// The TXT strings, `key=value` (RFC 6763 §6).
        public var txt: [String]

        /// Describes a service type and its TXT strings.
        public init(type: DNSName, txt: [String]) {
            self.type = type
            self.txt = txt
        }
    }

    /// The instance's name as a person reads it (`setd`), before any renaming after a conflict.
    public var instanceName: String
    /// The first label of the host name the SRV records point at (`setd-myhost`, under `.local`).
    public var hostLabel: String
    /// The TCP port of every service.
    public var port: UInt16
    /// The service types, each with its TXT strings.
    public var services: [Service]

    /// Describes an advertisement.
    public init(instanceName: String, hostLabel: String, port: UInt16, services: [Service]) {
        self.instanceName = instanceName
        self.hostLabel = hostLabel
        self.port = port
        self.services = services
    }

    /// The `local.` domain every mDNS name ends in.
    public static let local = DNSName("local")!
    /// `_services._dns-sd._udp.local`, under which a responder lists its service types (RFC 6763 §9).
    public static let serviceTypeEnumeration = DNSName("_services._dns-sd._udp.local")!

    /// A host label made from a machine's host name: its first label, with anything but letters,
    /// digits and hyphens dropped, after `setd-` — a name of our own, so that we never claim (and so
    /// never fight over) the name the machine's own mDNS responder (Avahi, Bonjour) holds.
    public static func hostLabel(fromHostName hostName: String) -> String {
        let first = hostName.split(separator: ".").first.map(String.init) ?? ""
        let kept = first.unicodeScalars.filter {
            $0.isASCII
                && (("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || $0 == "-")
        }
        let label = String(String.UnicodeScalarView(kept)).lowercased()
        return label.isEmpty ? "setd" : String("setd-\(label)".prefix(DNSName.maximumLabelLength - 4))
    }

    /// The instance name after `conflicts` renames: `setd`, `setd (2)`, `setd (3)`, … (RFC 6763 §9's
    /// advice for names a person chose).
    public static func instanceName(_ base: String, afterConflicts conflicts: Int) -> String {
        guard conflicts > 0 else { return base }
        let suffix = " (\(conflicts + 1))"
        var trimmed = base
        while trimmed.utf8.count > DNSName.maximumLabelLength - suffix.utf8.count { trimmed.removeLast() }
        return trimmed + suffix
    }

    /// The host label after `conflicts` renames: `setd-myhost`, `setd-myhost-2`, ….
    public static func hostLabel(_ base: String, afterConflicts conflicts: Int) -> String {
        guard conflicts > 0 else { return base }
        let suffix = "-\(conflicts + 1)"
        return String(base.prefix(DNSName.maximumLabelLength - suffix.count)) + suffix
    }
}
