/// The timings and sizes of RFC 6762 the responder keeps, each with the section it comes from.
public enum ResponderTiming {
    /// The mDNS port: a query from any other port is a legacy one-shot query, answered by unicast
    /// (§6.7); a response from any other port is ignored (§11).
    public static let port: UInt16 = 5353
    /// Probes are sent this far apart, three of them (§8.1).
    public static let probeInterval = 0.25
    /// How many probes go out before a name is taken as ours (§8.1).
    public static let probeCount = 3
    /// The first probe waits a random time up to this, so hosts powered on together do not collide.
    public static let initialProbeDelay = 0.25
    /// Announcements after probing: this many (at least two, §8.3) …
    public static let announceCount = 2
    /// … this far apart.
    public static let announceInterval = 1.0
    /// An answer holding a shared record (a PTR, which many hosts may answer) waits a random time in
    /// this range, so that answers from many hosts spread out and can be merged (§6).
    public static let sharedDelay = 0.020...0.120
    /// A query with the truncated bit has more known answers coming: wait this long for them (§7.2).
    public static let truncatedDelay = 0.400...0.500
    /// A record is multicast on an interface at most once a second (§6) …
    public static let multicastInterval = 1.0
    /// … except in defence of a name a prober asks for, at most every quarter second (§6).
    public static let defenceInterval = 0.25
    /// A prober that loses a simultaneous-probe tiebreak waits this long and probes again (§8.2).
    public static let lostTiebreakDelay = 1.0
    /// After this many conflicts within ``conflictWindow`` seconds, probing waits ``conflictBackoff``
    /// seconds first (§8.1), so two misconfigured hosts do not flood the link with renames.
    public static let conflictBurst = 15
    /// See ``conflictBurst``.
    public static let conflictWindow = 10.0
    /// See ``conflictBurst``.
    public static let conflictBackoff = 5.0
    /// A change of the TXT strings (rooms, players) is announced at most this often. Anyone who asks
    /// gets the current strings at once; the announcement only refreshes caches, and a busy evening
    /// should cost the LAN one small packet every few seconds at most.
    public static let txtUpdateInterval = 5.0
    /// The TTL of records holding a host name or address: SRV, A, AAAA (§10).
    public static let hostTTL: UInt32 = 120
    /// The TTL of the other records: PTR, TXT (§10).
    public static let otherTTL: UInt32 = 4500
    /// The largest TTL in an answer to a legacy unicast query (§6.7).
    public static let legacyTTL: UInt32 = 10
}

/// A multicast DNS / DNS-SD responder for one ``ServiceAdvertisement``, as a state machine without I/O:
/// datagrams and the time go in, packets to send come out, with the time it next wants to be woken.
///
/// It probes for its names (§8.1), takes another on a conflict (`setd (2)`, §9), answers queries on the
/// interface they arrived on with that interface's addresses (§6.2), suppresses answers the querier
/// already knows (§7.1), merges and delays shared answers (§6), announces changes of its TXT strings, and
/// says goodbye with TTL 0 (§10.1). It never answers a packet that did not come from the link: the
/// source must be on the receiving interface's subnet, or the packet must have been sent to the
/// multicast group with IP TTL 255, which no router forwards (§11).
///
/// Ownership rule: one owner calls it, one input at a time, and carries out the packets each call
/// returns before the next. Times are seconds on one monotonic clock; randomness comes from `random`.
public final class Responder {
    /// Where the responder is in its life.
    public enum Phase: Equatable, Sendable {
        /// Not started.
        case idle
        /// Probing for its names; answering nothing yet.
        case probing
        /// Sending its first announcements; answering queries.
        case announcing
        /// Answering queries.
        case running
        /// Said goodbye; silent.
        case stopped
    }

    /// Where a datagram came from, as the socket layer saw it.
    public struct Source: Hashable, Sendable {
        /// The sender's address.
        public var address: IPAddress
        /// The sender's UDP port.
        public var port: UInt16
        /// The index of the interface it arrived on.
        public var interface: UInt32
        /// Whether it was sent to the multicast group (rather than to one of our addresses).
        public var isToGroup: Bool
        /// The IP TTL (IPv6 hop limit) it arrived with, when the socket reported it.
        public var hopLimit: Int?

        /// Describes a datagram's origin.
        public init(address: IPAddress, port: UInt16, interface: UInt32, isToGroup: Bool, hopLimit: Int?) {
            self.address = address
            self.port = port
            self.interface = interface
            self.isToGroup = isToGroup
            self.hopLimit = hopLimit
        }
    }

    /// Where a packet goes.
    public enum Destination: Hashable, Sendable {
        /// To the mDNS group (224.0.0.251 and ff02::fb, port 5353) on this interface, in every family
        /// the owner has a socket for there.
        case multicast(interface: UInt32)
        /// To one address and port (a legacy or unicast-response query), out of this interface.
        case unicast(IPAddress, port: UInt16, interface: UInt32)
    }

    /// A packet to send.
    public struct Packet: Hashable, Sendable {
        /// Where it goes.
        public var destination: Destination
        /// What it says.
        public var message: DNSMessage
    }

    /// Something the owner may want to log.
    public enum Note: Equatable, Sendable {
        /// Probing for these names started.
        case probing(instance: String, host: String)
        /// Probing succeeded: the names are ours and being announced.
        case announced(instance: String, host: String)
        /// Another host holds `name`; probing goes on with `renamedTo`.
        case conflict(name: String, renamedTo: String)
        /// A simultaneous probe for `name` won the tiebreak; ours probes again in a second.
        case lostTiebreak(name: String)
        /// A packet from off the link was dropped unread.
        case offLink(IPAddress)
    }

    /// What a call asks the owner to do.
    public struct Output: Equatable, Sendable {
        /// Packets to send, in order.
        public var packets: [Packet] = []
        /// Things worth a log line.
        public var notes: [Note] = []
    }

    /// Where the responder is in its life.
    public private(set) var phase = Phase.idle
    /// What is advertised (the TXT strings as last updated).
    public private(set) var advertisement: ServiceAdvertisement
    /// The interfaces served, each with its addresses.
    public let interfaces: [LinkInterface]
    private var instanceConflicts = 0
    private var hostConflicts = 0
    private var probeStep = 0
    private var probeAt: Double?
    private var announceStep = 0
    private var announceAt: Double?
    private var txtAnnounceAt: Double?
    private var lastTXTAnnounce = -Double.infinity
    private var conflictTimes: [Double] = []
    /// Multicast answers waiting for their delay, by interface.
    private var pending: [UInt32: PendingAnswer] = [:]
    /// When each record (TTL and cache-flush bit cleared) was last multicast, by interface.
    private var lastMulticast: [UInt32: [DNSRecord: Double]] = [:]
    private let random: () -> Double

    private struct PendingAnswer {
        var sendAt: Double
        var answers: [DNSRecord]
    }

    /// A responder for `advertisement` on `interfaces`; `random` returns numbers in `0..<1` (inject a
    /// seeded one in tests).
    public init(
        advertisement: ServiceAdvertisement, interfaces: [LinkInterface],
        random: @escaping () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.advertisement = advertisement
        self.interfaces = interfaces
        self.random = random
    }

    // MARK: Names

    /// The instance name in use (after any renames).
    public var instanceName: String {
        ServiceAdvertisement.instanceName(advertisement.instanceName, afterConflicts: instanceConflicts)
    }

    /// The host label in use (after any renames).
    public var hostLabel: String {
        ServiceAdvertisement.hostLabel(advertisement.hostLabel, afterConflicts: hostConflicts)
    }

    /// The host name the SRV records point at, e.g. `setd-myhost.local`.
    public var hostName: DNSName {
        ServiceAdvertisement.local.prepending(hostLabel) ?? ServiceAdvertisement.local
    }

    /// The full name of the instance of `service`, e.g. `setd._setd._tcp.local`.
    public func instanceName(of service: ServiceAdvertisement.Service) -> DNSName {
        service.type.prepending(instanceName) ?? service.type
    }

    /// The names only this host may hold: the instance of each service, and the host name.
    var uniqueNames: Set<DNSName> {
        Set(advertisement.services.map { instanceName(of: $0) } + [hostName])
    }

    /// Every record the responder holds for `interface`: per service a PTR to the instance, its SRV
    /// and TXT, and its type under `_services._dns-sd._udp.local`; the host's addresses on that
    /// interface only (§6.2: never an address another link cannot reach).
    public func records(on interface: LinkInterface) -> [DNSRecord] {
        var records: [DNSRecord] = []
        for service in advertisement.services {
            let instance = instanceName(of: service)
            records.append(DNSRecord(name: service.type, data: .ptr(instance), ttl: ResponderTiming.otherTTL))
            records.append(
                DNSRecord(
                    name: instance,
                    data: .srv(priority: 0, weight: 0, port: advertisement.port, target: hostName),
                    ttl: ResponderTiming.hostTTL, isCacheFlush: true))
            records.append(
                DNSRecord(
                    name: instance, data: .txt(service.txt.map { Array($0.utf8.prefix(255)) }),
                    ttl: ResponderTiming.otherTTL, isCacheFlush: true))
            records.append(
                DNSRecord(
                    name: ServiceAdvertisement.serviceTypeEnumeration, data: .ptr(service.type),
                    ttl: ResponderTiming.otherTTL))
        }
        for prefixed in interface.addresses {
            let data: DNSRecordData =
                switch prefixed.address {
                case .v4(let bytes): .a(bytes)
                case .v6(let bytes): .aaaa(bytes)
                }
            records.append(
                DNSRecord(name: hostName, data: data, ttl: ResponderTiming.hostTTL, isCacheFlush: true))
        }
        return records
    }

    /// The earliest time the responder wants ``wake(at:)`` called, or `nil` when it waits only for
    /// packets.
    public var nextWake: Double? {
        ([probeAt, announceAt, txtAnnounceAt] + pending.values.map { Optional($0.sendAt) }).compactMap { $0 }
            .min()
    }

    // MARK: Inputs

    /// Starts probing for the names, after a random delay of up to a quarter second (§8.1).
    public func start(at now: Double) -> Output {
        guard phase == .idle else { return Output() }
        var output = Output()
        beginProbing(at: now + random() * ResponderTiming.initialProbeDelay, output: &output)
        return output
    }

    /// Does what is due at `now`: probes, announcements, delayed answers.
    public func wake(at now: Double) -> Output {
        var output = Output()
        if let at = probeAt, at <= now { probe(at: now, output: &output) }
        if let at = announceAt, at <= now { announce(at: now, output: &output) }
        if let at = txtAnnounceAt, at <= now { announceTXT(at: now, output: &output) }
        for (index, answer) in pending where answer.sendAt <= now {
            pending[index] = nil
            sendMulticast(
                answer.answers, on: index, at: now, minimumInterval: ResponderTiming.multicastInterval,
                output: &output)
        }
        return output
    }

    /// Takes new TXT strings (the same services, names and port): answers carry them at once, and an
    /// announcement refreshes caches, at most every ``ResponderTiming/txtUpdateInterval`` seconds.
    public func update(txt services: [ServiceAdvertisement.Service], at now: Double) -> Output {
        guard services.map(\.type) == advertisement.services.map(\.type), services != advertisement.services
        else { return Output() }
        advertisement.services = services
        if phase == .running || phase == .announcing, txtAnnounceAt == nil {
            txtAnnounceAt = max(now, lastTXTAnnounce + ResponderTiming.txtUpdateInterval)
        }
        return wake(at: now)
    }

    /// Says goodbye: every record announced is sent again with TTL 0 (§10.1), and the responder falls
    /// silent.
    public func stop(at now: Double) -> Output {
        var output = Output()
        if phase == .announcing || phase == .running {
            for interface in interfaces {
                var goodbyes = records(on: interface)
                for i in goodbyes.indices { goodbyes[i].ttl = 0 }
                output.packets.append(
                    Packet(
                        destination: .multicast(interface: interface.index),
                        message: DNSMessage(isResponse: true, isAuthoritative: true, answers: goodbyes)))
            }
        }
        phase = .stopped
        probeAt = nil
        announceAt = nil
        txtAnnounceAt = nil
        pending = [:]
        return output
    }

    /// Handles one datagram that arrived from `source`.
    public func received(_ bytes: [UInt8], from source: Source, at now: Double) -> Output {
        var output = Output()
        guard phase != .idle, phase != .stopped,
            let interface = interfaces.first(where: { $0.index == source.interface })
        else { return output }
        // §11: from the link only. A packet to the group with TTL 255 was sent on this link (a router
        // would have lowered it, and may not forward 224.0.0.251 or ff02::fb at all); anything else must
        // come from one of the interface's subnets.
        let isFromLink =
            interface.isOnLink(source.address) || (source.isToGroup && source.hopLimit == 255)
        guard isFromLink else {
            output.notes.append(.offLink(source.address))
            return output
        }
        // §18.3, §18.11: a message with another opcode or a response code is ignored.
        guard let message = try? DNSMessage(parsing: bytes), message.opcode == 0, message.rcode == 0 else {
            return output
        }
        if message.isResponse {
            // §11: a response not from port 5353 is not an mDNS response.
            guard source.port == ResponderTiming.port else { return output }
            checkConflicts(in: message, at: now, output: &output)
        } else {
            handleQuery(message, from: source, on: interface, at: now, output: &output)
        }
        return output
    }

    // MARK: Probing and announcing

    private func beginProbing(at time: Double, output: inout Output) {
        phase = .probing
        probeStep = 0
        probeAt = time
        announceAt = nil
        txtAnnounceAt = nil
        pending = [:]
        output.notes.append(.probing(instance: instanceName, host: hostName.description))
    }

    private func probe(at now: Double, output: inout Output) {
        let names = [hostName] + advertisement.services.map { instanceName(of: $0) }
        for interface in interfaces {
            // §8.1: a question of type ANY for each name (the first asking for a unicast answer, which
            // a defender may send sooner), the records we propose in the authority section.
            let questions = names.map {
                DNSQuestion(name: $0, type: .any, wantsUnicastResponse: probeStep == 0)
            }
            let proposed = records(on: interface).filter(\.isCacheFlush)
            output.packets.append(
                Packet(
                    destination: .multicast(interface: interface.index),
                    message: DNSMessage(isResponse: false, questions: questions, authorities: proposed)))
        }
        probeStep += 1
        if probeStep < ResponderTiming.probeCount {
            probeAt = now + ResponderTiming.probeInterval
        } else {
            // Nobody objected within a quarter second of the last probe: the names are ours.
            probeAt = nil
            phase = .announcing
            announceStep = 0
            announceAt = now + ResponderTiming.probeInterval
        }
    }

    private func announce(at now: Double, output: inout Output) {
        if announceStep == 0 {
            output.notes.append(.announced(instance: instanceName, host: hostName.description))
        }
        for interface in interfaces {
            let all = records(on: interface)
            output.packets.append(
                Packet(
                    destination: .multicast(interface: interface.index),
                    message: DNSMessage(isResponse: true, isAuthoritative: true, answers: all)))
            for record in all { lastMulticast[interface.index, default: [:]][Self.identity(record)] = now }
        }
        announceStep += 1
        if announceStep < ResponderTiming.announceCount {
            announceAt = now + ResponderTiming.announceInterval
        } else {
            announceAt = nil
            phase = .running
        }
    }

    private func announceTXT(at now: Double, output: inout Output) {
        txtAnnounceAt = nil
        guard phase == .running || phase == .announcing else { return }
        lastTXTAnnounce = now
        for interface in interfaces {
            let txt = records(on: interface).filter { $0.type == .txt }
            output.packets.append(
                Packet(
                    destination: .multicast(interface: interface.index),
                    message: DNSMessage(isResponse: true, isAuthoritative: true, answers: txt)))
            for record in txt { lastMulticast[interface.index, default: [:]][Self.identity(record)] = now }
        }
    }

    // MARK: Conflicts

    /// Every record we hold on any interface, as identities: a response holding only these is our own
    /// packet come back (multicast loops back to its sender) or a copy of it, never a conflict.
    private var ownIdentities: Set<DNSRecord> {
        Set(interfaces.flatMap { records(on: $0) }.map(Self.identity))
    }

    /// §8.1 and §9: while probing, any record of another host under one of our names is a conflict, and
    /// the name is changed; once announced, a unique record of ours contradicted by one of the same name
    /// and type sends us back to probing (where the other host's answer then renames us).
    private func checkConflicts(in message: DNSMessage, at now: Double, output: inout Output) {
        guard phase == .probing || phase == .announcing || phase == .running else { return }
        let names = uniqueNames
        let own = ownIdentities
        let ownTypes = Set(
            own.filter { names.contains($0.name) }.map { NameAndType(name: $0.name, type: $0.type) })
        for record in message.records where record.ttl > 0 && names.contains(record.name) {
            guard !own.contains(Self.identity(record)) else { continue }
            if phase == .probing {
                rename(record.name, at: now, output: &output)
                return
            }
            if ownTypes.contains(NameAndType(name: record.name, type: record.type)) {
                beginProbing(at: now + random() * ResponderTiming.initialProbeDelay, output: &output)
                return
            }
        }
    }

    private struct NameAndType: Hashable {
        var name: DNSName
        var type: DNSType
    }

    private func rename(_ name: DNSName, at now: Double, output: inout Output) {
        let old = name.firstLabel
        if name == hostName {
            hostConflicts += 1
            output.notes.append(.conflict(name: old, renamedTo: hostLabel))
        } else {
            instanceConflicts += 1
            output.notes.append(.conflict(name: old, renamedTo: instanceName))
        }
        conflictTimes = conflictTimes.filter { now - $0 < ResponderTiming.conflictWindow } + [now]
        let backoff =
            conflictTimes.count >= ResponderTiming.conflictBurst ? ResponderTiming.conflictBackoff : 0
        beginProbing(at: now + backoff + random() * ResponderTiming.initialProbeDelay, output: &output)
    }

    /// §8.2: two hosts probing for one name at once compare their proposed records, sorted, as class,
    /// type and data bytes; the lexicographically later set wins, and the loser waits a second and
    /// probes again. An identical set is our own probe come back.
    private func tiebreak(
        _ message: DNSMessage, on interface: LinkInterface, at now: Double, output: inout Output
    ) {
        let ours = records(on: interface).filter(\.isCacheFlush)
        // Our probe on another interface can come back on this one (a host with two interfaces on one
        // LAN, or multicast looped back): a set equal to what we propose anywhere is ours.
        let everywhere = interfaces.map { records(on: $0).filter(\.isCacheFlush) }
        for name in uniqueNames {
            let theirs = message.authorities.filter { $0.name == name }
            guard !theirs.isEmpty else { continue }
            if everywhere.contains(where: { Self.compareProbes($0.filter { $0.name == name }, theirs) == 0 })
            {
                continue
            }
            let mine = ours.filter { $0.name == name }
            if Self.compareProbes(mine, theirs) < 0 {
                output.notes.append(.lostTiebreak(name: name.firstLabel))
                beginProbing(at: now + ResponderTiming.lostTiebreakDelay, output: &output)
                return
            }
        }
    }

    /// Negative when `mine` loses to `theirs`, zero when they are the same, positive when it wins.
    static func compareProbes(_ mine: [DNSRecord], _ theirs: [DNSRecord]) -> Int {
        func key(_ record: DNSRecord) -> [UInt8] {
            [
                UInt8(record.rrClass >> 8), UInt8(record.rrClass & 0xFF), UInt8(record.type.rawValue >> 8),
                UInt8(record.type.rawValue & 0xFF),
            ] + record.data.canonicalBytes
        }
        let a = mine.map(key).sorted { $0.lexicographicallyPrecedes($1) }
        let b = theirs.map(key).sorted { $0.lexicographicallyPrecedes($1) }
        for (x, y) in zip(a, b) where x != y { return x.lexicographicallyPrecedes(y) ? -1 : 1 }
        return a.count == b.count ? 0 : a.count < b.count ? -1 : 1
    }

    // MARK: Answers

    private func handleQuery(
        _ message: DNSMessage, from source: Source, on interface: LinkInterface, at now: Double,
        output: inout Output
    ) {
        let names = uniqueNames
        let isProbe = !message.authorities.isEmpty && message.questions.contains { names.contains($0.name) }
        if phase == .probing {
            if isProbe { tiebreak(message, on: interface, at: now, output: &output) }
            return
        }
        let known = message.answers
        // Later packets of a truncated query carry more known answers for what waits (§7.2).
        if var waiting = pending[interface.index] {
            waiting.answers.removeAll { Self.isKnown($0, in: known) }
            pending[interface.index] = waiting.answers.isEmpty ? nil : waiting
        }
        let all = records(on: interface)
        var multicast: [DNSRecord] = []
        var unicast: [DNSRecord] = []
        for question in message.questions {
            let matching = all.filter { question.isAnswered(by: $0) && !Self.isKnown($0, in: known) }
            guard !matching.isEmpty else { continue }
            // §5.4: a unicast answer, as asked, unless the record has not been multicast on this link
            // within a quarter of its TTL (then everyone's cache gains from a multicast one).
            if question.wantsUnicastResponse, !isProbe,
                matching.allSatisfy({
                    wasMulticast($0, on: interface.index, within: Double($0.ttl) / 4, at: now)
                })
            {
                unicast += matching
            } else {
                multicast += matching
            }
        }
        multicast = Self.unique(multicast)
        unicast = Self.unique(unicast)
        if source.port != ResponderTiming.port {
            // §6.7: a legacy one-shot query (not from port 5353) is answered to its sender directly, with
            // its ID and questions, TTLs of at most 10 s and no cache-flush bits.
            let answers = Self.unique(multicast + unicast)
            guard !answers.isEmpty else { return }
            var message = DNSMessage(
                id: message.id, isResponse: true, isAuthoritative: true, questions: message.questions,
                answers: answers.map(Self.legacy),
                additionals: additionals(for: answers, among: all).map(Self.legacy))
            message.questions = message.questions.map {
                var q = $0; q.wantsUnicastResponse = false; return q
            }
            output.packets.append(
                Packet(
                    destination: .unicast(source.address, port: source.port, interface: interface.index),
                    message: message))
            return
        }
        if !unicast.isEmpty {
            output.packets.append(
                Packet(
                    destination: .unicast(source.address, port: source.port, interface: interface.index),
                    message: DNSMessage(
                        isResponse: true, isAuthoritative: true, answers: unicast,
                        additionals: additionals(for: unicast, among: all))))
        }
        guard !multicast.isEmpty else { return }
        if isProbe {
            // Defending a name against a prober: at once, and even a record sent a moment ago (§6, §8.1).
            sendMulticast(
                multicast, on: interface.index, at: now, minimumInterval: ResponderTiming.defenceInterval,
                output: &output)
        } else if multicast.allSatisfy(\.isCacheFlush), !message.isTruncated {
            // Only unique records: nobody else answers them, so no reason to wait (§6).
            sendMulticast(
                multicast, on: interface.index, at: now, minimumInterval: ResponderTiming.multicastInterval,
                output: &output)
        } else {
            let range = message.isTruncated ? ResponderTiming.truncatedDelay : ResponderTiming.sharedDelay
            let sendAt = now + range.lowerBound + random() * (range.upperBound - range.lowerBound)
            var waiting = pending[interface.index] ?? PendingAnswer(sendAt: sendAt, answers: [])
            waiting.answers = Self.unique(waiting.answers + multicast)
            waiting.sendAt = min(waiting.sendAt, sendAt)
            pending[interface.index] = waiting
        }
    }

    /// Multicasts `answers` on `interface`, leaving out those multicast there within `minimumInterval`
    /// seconds, with the records that help resolve them as additionals.
    private func sendMulticast(
        _ answers: [DNSRecord], on interface: UInt32, at now: Double, minimumInterval: Double,
        output: inout Output
    ) {
        guard let link = interfaces.first(where: { $0.index == interface }) else { return }
        let fresh = answers.filter { !wasMulticast($0, on: interface, within: minimumInterval, at: now) }
        guard !fresh.isEmpty else { return }
        let extra = additionals(for: fresh, among: records(on: link))
        output.packets.append(
            Packet(
                destination: .multicast(interface: interface),
                message: DNSMessage(
                    isResponse: true, isAuthoritative: true, answers: fresh, additionals: extra)))
        for record in fresh + extra { lastMulticast[interface, default: [:]][Self.identity(record)] = now }
    }

    /// What a querier needs next (RFC 6763 §12, RFC 6762 §6.2): for a PTR to an instance, its SRV, TXT
    /// and the host's addresses; for an SRV, the addresses; for an address, the other family's.
    private func additionals(for answers: [DNSRecord], among all: [DNSRecord]) -> [DNSRecord] {
        var extra: [DNSRecord] = []
        for answer in answers {
            switch answer.data {
            case .ptr(let instance) where answer.name != ServiceAdvertisement.serviceTypeEnumeration:
                extra += all.filter { $0.name == instance }
                extra += all.filter { $0.name == hostName }
            case .srv(_, _, _, let target):
                extra += all.filter { $0.name == target }
            case .a, .aaaa:
                extra += all.filter { $0.name == answer.name }
            default:
                break
            }
        }
        let answered = Set(answers.map(Self.identity))
        return Self.unique(extra).filter { !answered.contains(Self.identity($0)) }
    }

    private func wasMulticast(
        _ record: DNSRecord, on interface: UInt32, within interval: Double, at now: Double
    )
        -> Bool
    {
        guard let last = lastMulticast[interface]?[Self.identity(record)] else { return false }
        return now - last < interval
    }

    /// §7.1: an answer the querier lists with at least half its TTL left is not sent.
    static func isKnown(_ record: DNSRecord, in known: [DNSRecord]) -> Bool {
        known.contains { $0.isSameData(as: record) && UInt64($0.ttl) * 2 >= UInt64(record.ttl) }
    }

    /// The record without TTL and cache-flush bit: what "the same record" means.
    static func identity(_ record: DNSRecord) -> DNSRecord {
        DNSRecord(name: record.name, data: record.data, ttl: 0, rrClass: record.rrClass)
    }

    static func legacy(_ record: DNSRecord) -> DNSRecord {
        var record = record
        record.ttl = min(record.ttl, ResponderTiming.legacyTTL)
        record.isCacheFlush = false
        return record
    }

    static func unique(_ records: [DNSRecord]) -> [DNSRecord] {
        var seen = Set<DNSRecord>()
        return records.filter { seen.insert(identity($0)).inserted }
    }
}
