/// A setd server heard on the LAN: what `set-cli --find` lists.
public struct FoundServer: Hashable, Sendable {
    /// The instance name, e.g. `setd` or `setd (2)`.
    public var instance: String
    /// The host name its SRV record points at, e.g. `setd-myhost.local`.
    public var host: String
    /// The TCP port.
    public var port: UInt16
    /// Its addresses: from its A and AAAA records, else the address its answer came from.
    public var addresses: [IPAddress]
    /// The TXT strings as `key: value`.
    public var txt: [String: String]

    /// Describes a server.
    public init(instance: String, host: String, port: UInt16, addresses: [IPAddress], txt: [String: String]) {
        self.instance = instance
        self.host = host
        self.port = port
        self.addresses = addresses
        self.txt = txt
    }

    /// The setd version it runs (`version=`).
    public var version: String? { txt[DiscoveryTXT.version] }
    /// Its public rooms (`rooms=`).
    public var rooms: Int? { txt[DiscoveryTXT.rooms].flatMap { Int($0) } }
    /// The players seated in them (`players=`).
    public var players: Int? { txt[DiscoveryTXT.players].flatMap { Int($0) } }

    /// The address to connect to: IPv4 first (any phone or PC can type it), then a global IPv6 one;
    /// a link-local IPv6 address (which needs the interface's scope) or a loopback one only when there
    /// is nothing else.
    public var preferredAddress: IPAddress? {
        addresses.min { rank($0) < rank($1) }
    }

    private func rank(_ address: IPAddress) -> Int {
        switch address {
        case .v4: address.isLoopback ? 2 : 0
        case .v6: address.isLinkLocal ? 4 : address.isLoopback ? 3 : 1
        }
    }
}

/// The TXT keys of `_setd._tcp` (protocol.md, "Finding a server on the LAN").
public enum DiscoveryTXT {
    /// The version of the TXT keys themselves (RFC 6763 §6.7).
    public static let txtVersion = "txtvers"
    /// The setd release, e.g. `1.1.0`.
    public static let version = "version"
    /// The protocol version the greeting names.
    public static let protocolVersion = "protocol"
    /// The rooms `ROOMS` lists (private ones are not counted).
    public static let rooms = "rooms"
    /// The players seated in those rooms.
    public static let players = "players"
    /// `_http._tcp`'s path of the page (RFC 6763 §6, the DNS-SD convention for web pages).
    public static let path = "path"

    /// The two services a setd announces: `_setd._tcp` with its TXT keys, and `_http._tcp` (when the
    /// page is served) so that a browser's or a phone app's service list shows the page too.
    public static func services(
        version: String, protocolVersion: Int, rooms: Int, players: Int, isHTTPEnabled: Bool
    ) -> [ServiceAdvertisement.Service] {
        let common = [
            "\(txtVersion)=1", "\(self.version)=\(version)", "\(self.protocolVersion)=\(protocolVersion)",
            "\(self.rooms)=\(rooms)", "\(self.players)=\(players)",
        ]
        var services = [ServiceAdvertisement.Service(type: ServiceFinder.setdType, txt: common)]
        if isHTTPEnabled {
            services.append(
                ServiceAdvertisement.Service(type: ServiceFinder.httpType, txt: ["\(path)=/"] + common))
        }
        return services
    }
}

/// The asking side of DNS-SD for `set-cli --find`, without I/O: the query to send, and the servers
/// the answers describe.
///
/// The query is a one-shot legacy query (RFC 6762 §5.1, §6.7): sent from an ordinary port, so responders
/// answer straight back to it by unicast. That needs no socket on port 5353, and so never competes with
/// the machine's own mDNS responder for the answers.
public struct ServiceFinder: Sendable {
    /// `_setd._tcp.local`.
    public static let setdType = DNSName("_setd._tcp.local")!
    /// `_http._tcp.local`.
    public static let httpType = DNSName("_http._tcp.local")!

    /// Every record heard, with the address of the answer that held it.
    private var records: [DNSRecord: IPAddress] = [:]

    /// An empty finder.
    public init() {}

    /// The query: the PTR records of `_setd._tcp.local`, with `id` so answers can be told from others.
    public static func query(id: UInt16) -> [UInt8] {
        DNSMessage(id: id, isResponse: false, questions: [DNSQuestion(name: setdType, type: .ptr)]).encoded
    }

    /// Takes one datagram from `source`; anything but a response is ignored.
    public mutating func receive(_ bytes: [UInt8], from source: IPAddress) {
        guard let message = try? DNSMessage(parsing: bytes), message.isResponse, message.rcode == 0 else {
            return
        }
        for record in message.records {
            let key = Responder.identity(record)
            if record.ttl == 0 {
                records[key] = nil
            } else {
                records[key] = source
            }
        }
    }

    /// The servers heard so far, by instance name.
    public var servers: [FoundServer] {
        var found: [FoundServer] = []
        let all = Array(records.keys)
        for record in all where record.name == Self.setdType {
            guard case .ptr(let instance) = record.data else { continue }
            guard let srv = all.first(where: { $0.name == instance && $0.type == .srv }),
                case .srv(_, _, let port, let target) = srv.data
            else { continue }
            var txt: [String: String] = [:]
            if let text = all.first(where: { $0.name == instance && $0.type == .txt }),
                case .txt(let strings) = text.data
            {
                for string in strings {
                    let pair = string.split(
                        separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                    guard let key = pair.first, !key.isEmpty else { continue }
                    txt[String(decoding: key, as: UTF8.self).lowercased()] =
                        pair.count == 2 ? String(decoding: pair[1], as: UTF8.self) : ""
                }
            }
            var addresses: [IPAddress] = []
            for address in all where address.name == target {
                switch address.data {
                case .a(let bytes), .aaaa(let bytes):
                    if let ip = IPAddress(bytes: bytes), !addresses.contains(ip) { addresses.append(ip) }
                default: break
                }
            }
            if addresses.isEmpty, let source = records[srv] { addresses = [source] }
            addresses.sort { $0.description < $1.description }
            found.append(
                FoundServer(
                    instance: instance.firstLabel, host: target.description, port: port, addresses: addresses,
                    txt: txt))
        }
        return found.sorted { ($0.instance, $0.host) < ($1.instance, $1.host) }
    }
}
