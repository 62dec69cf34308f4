import Testing

@testable import SetDiscovery

/// The responder as a state machine with a virtual clock: probing, announcing, answering, conflicts,
/// the link check and goodbyes, each against what RFC 6762 asks.
@Suite struct ResponderTests {
    static let lo = LinkInterface(
        index: 1, name: "lo",
        addresses: [
            .init(.v4([127, 0, 0, 1]), prefixLength: 8),
            .init(.v6([UInt8](repeating: 0, count: 15) + [1]), prefixLength: 128),
        ])
    static let lan = LinkInterface(
        index: 2, name: "eth0", addresses: [.init(.v4([192, 168, 1, 20]), prefixLength: 24)])
    static let setd = ServiceFinder.setdType

    static func advertisement(rooms: Int = 2, players: Int = 5) -> ServiceAdvertisement {
        ServiceAdvertisement(
            instanceName: "setd", hostLabel: "setd-box", port: 7777,
            services: DiscoveryTXT.services(
                version: "1.1.0", protocolVersion: 1, rooms: rooms, players: players, isHTTPEnabled: true))
    }

    /// A responder whose random numbers are all `value`.
    static func responder(_ interfaces: [LinkInterface] = [lan], random: Double = 0.5) -> Responder {
        Responder(advertisement: advertisement(), interfaces: interfaces, random: { random })
    }

    /// Runs the responder's timers until `time`, collecting what it sends.
    static func run(_ responder: Responder, until time: Double) -> [(Double, Responder.Packet)] {
        var sent: [(Double, Responder.Packet)] = []
        while let wake = responder.nextWake, wake <= time {
            for packet in responder.wake(at: wake).packets { sent.append((wake, packet)) }
        }
        return sent
    }

    /// A responder that has probed and announced, at time 10.
    static func running(_ interfaces: [LinkInterface] = [lan]) -> Responder {
        let responder = responder(interfaces)
        _ = responder.start(at: 0)
        _ = run(responder, until: 10)
        #expect(responder.phase == .running)
        return responder
    }

    static func fromLAN(port: UInt16 = 5353, address: IPAddress = .v4([192, 168, 1, 31])) -> Responder.Source
    {
        Responder.Source(address: address, port: port, interface: 2, isToGroup: true, hopLimit: 255)
    }

    static func ptrQuery(
        id: UInt16 = 0, known: [DNSRecord] = [], unicast: Bool = false, truncated: Bool = false
    )
        -> [UInt8]
    {
        DNSMessage(
            id: id, isResponse: false, isTruncated: truncated,
            questions: [DNSQuestion(name: setd, type: .ptr, wantsUnicastResponse: unicast)], answers: known
        ).encoded
    }

    @Test func itProbesThreeTimesThenAnnouncesTwice() throws {
        let responder = Self.responder(random: 0.4)
        let start = responder.start(at: 0)
        #expect(start.notes == [.probing(instance: "setd", host: "setd-box.local")])
        let sent = Self.run(responder, until: 10)
        let times = sent.map(\.0)
        #expect(times == [0.1, 0.35, 0.6, 0.85, 1.85])
        let probes = sent.prefix(3).map(\.1.message)
        for (i, probe) in probes.enumerated() {
            #expect(!probe.isResponse)
            #expect(
                Set(probe.questions.map(\.name)) == [
                    DNSName("setd-box.local")!, DNSName("setd._setd._tcp.local")!,
                    DNSName("setd._http._tcp.local")!,
                ])
            #expect(probe.questions.allSatisfy { $0.type == .any && $0.wantsUnicastResponse == (i == 0) })
            #expect(Set(probe.authorities.map(\.type)) == [.srv, .txt, .a])
        }
        let announcement = try #require(sent.last?.1.message)
        #expect(announcement.isResponse && announcement.isAuthoritative)
        #expect(
            announcement.answers.contains {
                $0.data == .srv(priority: 0, weight: 0, port: 7777, target: DNSName("setd-box.local")!)
            })
        #expect(announcement.answers.contains { $0.data == .a([192, 168, 1, 20]) && $0.isCacheFlush })
        #expect(announcement.answers.contains { $0.name == Self.setd && !$0.isCacheFlush })
        #expect(responder.phase == .running)
        #expect(responder.nextWake == nil)
    }

    @Test func itAnswersNothingWhileProbing() {
        let responder = Self.responder()
        _ = responder.start(at: 0)
        _ = responder.wake(at: 0.125)
        let output = responder.received(Self.ptrQuery(), from: Self.fromLAN(), at: 0.2)
        #expect(output.packets.isEmpty)
    }

    @Test func aPTRQueryIsAnsweredAfterAShortRandomDelayWithWhatResolvesIt() throws {
        let responder = Self.running()
        #expect(responder.received(Self.ptrQuery(), from: Self.fromLAN(), at: 20).packets.isEmpty)
        let wake = try #require(responder.nextWake)
        #expect(wake >= 20.02 && wake <= 20.12)
        let packets = responder.wake(at: wake).packets
        #expect(packets.count == 1)
        let packet = try #require(packets.first)
        #expect(packet.destination == .multicast(interface: 2))
        let message = try DNSMessage(parsing: packet.message.encoded)
        #expect(message.answers.map(\.data) == [.ptr(DNSName("setd._setd._tcp.local")!)])
        #expect(Set(message.additionals.map(\.type)) == [.srv, .txt, .a])
        let txt = message.additionals.first { $0.type == .txt }
        #expect(
            txt?.data
                == .txt(
                    ["txtvers=1", "version=1.1.0", "protocol=1", "rooms=2", "players=5"].map {
                        Array($0.utf8)
                    }))
    }

    @Test func uniqueRecordsAreAnsweredAtOnce() throws {
        let responder = Self.running()
        let query = DNSMessage(
            isResponse: false, questions: [DNSQuestion(name: DNSName("setd-box.local")!, type: .a)])
        let packets = responder.received(query.encoded, from: Self.fromLAN(), at: 20).packets
        #expect(packets.first?.message.answers.map(\.data) == [.a([192, 168, 1, 20])])
    }

    @Test func knownAnswersWithHalfTheirTTLLeftAreNotSentAgain() {
        let responder = Self.running()
        let ptr = DNSRecord(name: Self.setd, data: .ptr(DNSName("setd._setd._tcp.local")!), ttl: 2250)
        _ = responder.received(Self.ptrQuery(known: [ptr]), from: Self.fromLAN(), at: 20)
        #expect(responder.nextWake == nil)
        var stale = ptr
        stale.ttl = 2249
        _ = responder.received(Self.ptrQuery(known: [stale]), from: Self.fromLAN(), at: 30)
        #expect(responder.nextWake != nil)
    }

    @Test func aKnownAnswerInALaterPacketCancelsAWaitingAnswer() {
        let responder = Self.running()
        _ = responder.received(Self.ptrQuery(truncated: true), from: Self.fromLAN(), at: 20)
        let wake = responder.nextWake ?? 0
        #expect(wake >= 20.4 && wake <= 20.5)
        let ptr = DNSRecord(name: Self.setd, data: .ptr(DNSName("setd._setd._tcp.local")!), ttl: 4500)
        let more = DNSMessage(isResponse: false, answers: [ptr]).encoded
        _ = responder.received(more, from: Self.fromLAN(), at: 20.1)
        #expect(responder.nextWake == nil)
    }

    @Test func aRecordIsMulticastAtMostOnceASecond() {
        let responder = Self.running()
        let query = DNSMessage(
            isResponse: false, questions: [DNSQuestion(name: DNSName("setd-box.local")!, type: .a)])
        #expect(responder.received(query.encoded, from: Self.fromLAN(), at: 20).packets.count == 1)
        #expect(responder.received(query.encoded, from: Self.fromLAN(), at: 20.5).packets.isEmpty)
        #expect(responder.received(query.encoded, from: Self.fromLAN(), at: 21.1).packets.count == 1)
    }

    @Test func aLegacyQueryIsAnsweredByUnicastWithItsIDAndShortTTLs() throws {
        let responder = Self.running()
        let packets = responder.received(Self.ptrQuery(id: 0x4242), from: Self.fromLAN(port: 40000), at: 20)
            .packets
        let packet = try #require(packets.first)
        #expect(packet.destination == .unicast(.v4([192, 168, 1, 31]), port: 40000, interface: 2))
        let message = packet.message
        #expect(message.id == 0x4242)
        #expect(message.questions == [DNSQuestion(name: Self.setd, type: .ptr)])
        #expect(message.records.allSatisfy { $0.ttl <= 10 && !$0.isCacheFlush })
        #expect(
            message.additionals.contains {
                $0.data == .srv(priority: 0, weight: 0, port: 7777, target: DNSName("setd-box.local")!)
            })
    }

    @Test func aUnicastQuestionGetsAUnicastAnswerOnlyAfterARecentMulticast() throws {
        let responder = Self.running()
        let query = DNSMessage(
            isResponse: false,
            questions: [DNSQuestion(name: DNSName("setd-box.local")!, type: .a, wantsUnicastResponse: true)])
        // Announced at about 1.85: within a quarter of the A record's 120 s, so unicast.
        let first = responder.received(query.encoded, from: Self.fromLAN(), at: 20).packets
        #expect(first.map(\.destination) == [.unicast(.v4([192, 168, 1, 31]), port: 5353, interface: 2)])
        // A long time after: everyone's cache gains from a multicast answer.
        let later = responder.received(query.encoded, from: Self.fromLAN(), at: 100).packets
        #expect(later.map(\.destination) == [.multicast(interface: 2)])
    }

    @Test func packetsFromOffTheLinkAreDropped() {
        let responder = Self.running()
        // Off the subnet and sent to our unicast address: dropped.
        let offLink = Responder.Source(
            address: .v4([10, 9, 9, 9]), port: 40000, interface: 2, isToGroup: false, hopLimit: 64)
        let dropped = responder.received(Self.ptrQuery(), from: offLink, at: 20)
        #expect(dropped.packets.isEmpty)
        #expect(dropped.notes == [.offLink(.v4([10, 9, 9, 9]))])
        // Off the subnet, to the group, but routed (TTL below 255): dropped.
        var routed = offLink
        routed.isToGroup = true
        routed.hopLimit = 254
        #expect(
            responder.received(Self.ptrQuery(), from: routed, at: 20).notes == [.offLink(.v4([10, 9, 9, 9]))])
        // Off the subnet but sent on this link to the group with TTL 255 (a misconfigured neighbour):
        // answered, as RFC 6762 §11 says.
        routed.hopLimit = 255
        #expect(responder.received(Self.ptrQuery(), from: routed, at: 20).notes.isEmpty)
        // From an interface we do not serve: ignored.
        var elsewhere = Self.fromLAN(port: 40000)
        elsewhere.interface = 9
        #expect(responder.received(Self.ptrQuery(), from: elsewhere, at: 20).packets.isEmpty)
    }

    @Test func aConflictWhileProbingRenamesTheInstance() throws {
        let responder = Self.responder()
        _ = responder.start(at: 0)
        _ = responder.wake(at: 0.125)
        let theirs = DNSMessage(
            isResponse: true, isAuthoritative: true,
            answers: [
                DNSRecord(
                    name: DNSName("setd._setd._tcp.local")!,
                    data: .srv(priority: 0, weight: 0, port: 9999, target: DNSName("other.local")!), ttl: 120,
                    isCacheFlush: true)
            ])
        let output = responder.received(theirs.encoded, from: Self.fromLAN(), at: 0.2)
        #expect(output.notes.contains(.conflict(name: "setd", renamedTo: "setd (2)")))
        #expect(responder.instanceName == "setd (2)")
        let sent = Self.run(responder, until: 10)
        #expect(
            sent.first?.1.message.questions.contains { $0.name == DNSName("setd (2)._setd._tcp.local")! }
                == true)
        #expect(responder.phase == .running)
        // The second conflict makes it `setd (3)`.
        let again = Self.responder()
        _ = again.start(at: 0)
        _ = again.received(theirs.encoded, from: Self.fromLAN(), at: 0.2)
        var theirs2 = theirs
        theirs2.answers[0].name = DNSName("setd (2)._setd._tcp.local")!
        _ = again.received(theirs2.encoded, from: Self.fromLAN(), at: 0.3)
        #expect(again.instanceName == "setd (3)")
    }

    @Test func aConflictOverTheHostNameRenamesTheHost() {
        let responder = Self.responder()
        _ = responder.start(at: 0)
        let theirs = DNSMessage(
            isResponse: true,
            answers: [
                DNSRecord(
                    name: DNSName("setd-box.local")!, data: .a([192, 168, 1, 77]), ttl: 120,
                    isCacheFlush: true)
            ])
        let output = responder.received(theirs.encoded, from: Self.fromLAN(), at: 0.2)
        #expect(output.notes.contains(.conflict(name: "setd-box", renamedTo: "setd-box-2")))
        #expect(responder.hostName == DNSName("setd-box-2.local"))
        #expect(responder.instanceName == "setd")
    }

    @Test func ourOwnPacketsComingBackAreNoConflict() {
        let responder = Self.responder([Self.lo, Self.lan])
        _ = responder.start(at: 0)
        let loSource = Responder.Source(
            address: .v4([127, 0, 0, 1]), port: 5353, interface: 1, isToGroup: true, hopLimit: 255)
        var time = 0.0
        while let wake = responder.nextWake, wake <= 10 {
            time = wake
            for packet in responder.wake(at: wake).packets {
                // Multicast loops back to its sender, on every interface it went out of.
                let output = responder.received(packet.message.encoded, from: loSource, at: time)
                #expect(output.notes.isEmpty)
            }
        }
        #expect(responder.phase == .running)
        #expect(responder.instanceName == "setd")
        #expect(responder.hostLabel == "setd-box")
    }

    @Test func aSimultaneousProbeWithLaterRecordsWinsAndOursProbesAgainASecondLater() {
        let responder = Self.responder()
        _ = responder.start(at: 0)
        _ = responder.wake(at: 0.125)
        let name = DNSName("setd._setd._tcp.local")!
        let ours = responder.records(on: Self.lan).first { $0.type == .txt }!
        func probe(port: UInt16) -> [UInt8] {
            DNSMessage(
                isResponse: false, questions: [DNSQuestion(name: name, type: .any)],
                authorities: [
                    DNSRecord(
                        name: name,
                        data: .srv(priority: 0, weight: 0, port: port, target: DNSName("setd-box.local")!),
                        ttl: 120),
                    ours,
                ]
            ).encoded
        }
        // Records compare by class, then type, then data: the TXTs are the same, so the SRVs decide.
        // Port 7000 sorts before our 7777: we win and go on.
        #expect(responder.received(probe(port: 7000), from: Self.fromLAN(), at: 0.2).notes.isEmpty)
        // Port 9000 sorts after: we lose, and probe the same name again a second later.
        let lost = responder.received(probe(port: 9000), from: Self.fromLAN(), at: 0.3)
        #expect(lost.notes.contains(.lostTiebreak(name: "setd")))
        #expect(responder.nextWake == 1.3)
        #expect(responder.instanceName == "setd")
    }

    @Test func aProbeForOurNameIsDefendedAtOnce() throws {
        let responder = Self.running()
        let name = DNSName("setd._setd._tcp.local")!
        let probe = DNSMessage(
            isResponse: false, questions: [DNSQuestion(name: name, type: .any, wantsUnicastResponse: true)],
            authorities: [
                DNSRecord(
                    name: name, data: .srv(priority: 0, weight: 0, port: 1, target: DNSName("x.local")!),
                    ttl: 120)
            ])
        let packets = responder.received(probe.encoded, from: Self.fromLAN(), at: 3.0).packets
        let defence = try #require(packets.first)
        #expect(defence.destination == .multicast(interface: 2))
        #expect(Set(defence.message.answers.map(\.type)) == [.srv, .txt])
    }

    @Test func aContradictingRecordAfterAnnouncingSendsItBackToProbing() {
        let responder = Self.running()
        let theirs = DNSMessage(
            isResponse: true,
            answers: [
                DNSRecord(
                    name: DNSName("setd._setd._tcp.local")!, data: .txt([Array("rooms=9".utf8)]), ttl: 4500,
                    isCacheFlush: true)
            ])
        _ = responder.received(theirs.encoded, from: Self.fromLAN(), at: 20)
        #expect(responder.phase == .probing)
        // A response from a port other than 5353 is no mDNS response, and changes nothing.
        let other = Self.running()
        _ = other.received(theirs.encoded, from: Self.fromLAN(port: 40000), at: 20)
        #expect(other.phase == .running)
    }

    @Test func newTXTStringsAreAnnouncedAtMostEveryFiveSeconds() throws {
        let responder = Self.running()
        let first = responder.update(
            txt: DiscoveryTXT.services(
                version: "1.1.0", protocolVersion: 1, rooms: 3, players: 6, isHTTPEnabled: true),
            at: 20)
        let packet = try #require(first.packets.first)
        #expect(packet.message.answers.allSatisfy { $0.type == .txt && $0.isCacheFlush })
        #expect(
            packet.message.answers.first?.data
                == .txt(
                    ["txtvers=1", "version=1.1.0", "protocol=1", "rooms=3", "players=6"].map {
                        Array($0.utf8)
                    }))
        let second = responder.update(
            txt: DiscoveryTXT.services(
                version: "1.1.0", protocolVersion: 1, rooms: 4, players: 6, isHTTPEnabled: true),
            at: 21)
        #expect(second.packets.isEmpty)
        #expect(responder.nextWake == 25)
        #expect(responder.wake(at: 25).packets.count == 1)
        // The same strings again: nothing to say.
        let same = responder.update(
            txt: DiscoveryTXT.services(
                version: "1.1.0", protocolVersion: 1, rooms: 4, players: 6, isHTTPEnabled: true),
            at: 40)
        #expect(same.packets.isEmpty)
    }

    @Test func stoppingSaysGoodbyeWithTTLZeroOnEveryInterface() {
        let responder = Self.running([Self.lo, Self.lan])
        let packets = responder.stop(at: 30).packets
        #expect(packets.map(\.destination) == [.multicast(interface: 1), .multicast(interface: 2)])
        #expect(packets.allSatisfy { $0.message.answers.allSatisfy { $0.ttl == 0 } })
        #expect(packets[0].message.answers.contains { $0.data == .a([127, 0, 0, 1]) })
        #expect(!packets[1].message.answers.contains { $0.data == .a([127, 0, 0, 1]) })
        #expect(responder.phase == .stopped)
        #expect(responder.received(Self.ptrQuery(), from: Self.fromLAN(port: 40000), at: 31).packets.isEmpty)
        // One that never finished probing has nothing to take back.
        let early = Self.responder()
        _ = early.start(at: 0)
        #expect(early.stop(at: 0.1).packets.isEmpty)
    }

    @Test func fifteenConflictsInTenSecondsSlowProbingDown() {
        let responder = Self.responder(random: 0)
        _ = responder.start(at: 0)
        for i in 0..<15 {
            let name = responder.instanceName(of: responder.advertisement.services[0])
            let theirs = DNSMessage(
                isResponse: true,
                answers: [DNSRecord(name: name, data: .txt([[0x61]]), ttl: 120, isCacheFlush: true)])
            _ = responder.received(theirs.encoded, from: Self.fromLAN(), at: Double(i) * 0.1)
        }
        #expect(responder.instanceName == "setd (16)")
        #expect(responder.nextWake == 1.4 + 5)
    }

    @Test func theFinderReadsWhatTheResponderSends() throws {
        let responder = Self.running([Self.lo])
        let source = Responder.Source(
            address: .v4([127, 0, 0, 1]), port: 41000, interface: 1, isToGroup: true, hopLimit: 255)
        let answer = try #require(
            responder.received(ServiceFinder.query(id: 7), from: source, at: 20).packets.first)
        var finder = ServiceFinder()
        finder.receive(answer.message.encoded, from: .v4([127, 0, 0, 1]))
        let found = finder.servers
        #expect(found.count == 1)
        let server = try #require(found.first)
        #expect(server.instance == "setd")
        #expect(server.host == "setd-box.local")
        #expect(server.port == 7777)
        #expect(server.rooms == 2 && server.players == 5 && server.version == "1.1.0")
        #expect(server.addresses == [.v4([127, 0, 0, 1]), .v6([UInt8](repeating: 0, count: 15) + [1])])
        #expect(server.preferredAddress == .v4([127, 0, 0, 1]))
        // A goodbye takes it away again.
        let goodbye = try #require(responder.stop(at: 30).packets.first)
        finder.receive(goodbye.message.encoded, from: .v4([127, 0, 0, 1]))
        #expect(finder.servers.isEmpty)
    }

    @Test func namesAfterConflictsAndHostLabelsAreValidLabels() {
        #expect(ServiceAdvertisement.hostLabel(fromHostName: "Game-Box.lan") == "setd-game-box")
        #expect(ServiceAdvertisement.hostLabel(fromHostName: "ünï_") == "setd-n")
        #expect(ServiceAdvertisement.hostLabel(fromHostName: "üï_") == "setd")
        #expect(ServiceAdvertisement.instanceName("setd", afterConflicts: 1) == "setd (2)")
        let long = String(repeating: "é", count: 40)
        let renamed = ServiceAdvertisement.instanceName(long, afterConflicts: 11)
        #expect(renamed.utf8.count <= 63 && renamed.hasSuffix(" (12)"))
        #expect(ServiceAdvertisement.hostLabel("setd-box", afterConflicts: 2) == "setd-box-3")
    }
}
