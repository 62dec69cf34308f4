// libFuzzer target for multicast DNS: the DNS message parser and encoder, the responder that answers what
// the LAN sends, and the finder that reads answers.
//
// Input layout: byte 0 picks how the datagram arrives (bit 0: from port 5353 or from an ordinary port,
// a legacy query; bit 1: to the group with TTL 255, or to our address from off the link; bit 2: while
// the responder probes or once it runs); the rest is the datagram.
//
// Built and run by `scripts/fuzz.sh dns` (SetDiscovery with coverage, this harness plain), seeds in
// Fuzz/corpus-seeds/dns, dictionary Fuzz/dns.dict, -max_len=9100 (past the 9000-byte cap).

import SetDiscovery

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func dnsFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // SetDiscovery is built with gated comparison tracing, as the engine target's libraries are
    // (scripts/fuzz.sh, Fuzz/TraceGate.h): on for the whole input.
    fuzzTraceComparisons(1)
    DNSFuzzer.run(fuzzBytes(data, size))
    return 0
}

enum DNSFuzzer {
    static let lan = LinkInterface(
        index: 2, name: "eth0", addresses: [.init(.v4([192, 168, 1, 20]), prefixLength: 24)])
    static let advertisement = ServiceAdvertisement(
        instanceName: "setd", hostLabel: "setd-box", port: 7777,
        services: DiscoveryTXT.services(
            version: "1.1.0", protocolVersion: 1, rooms: 1, players: 2, isHTTPEnabled: true))

    static func run(_ input: [UInt8]) {
        var reader = FuzzInput(input)
        let mode = reader.byte()
        let datagram = Array(reader.remaining)

        // The parser: refuses or reads; what it reads encodes and reads back as the same message.
        if let message = try? DNSMessage(parsing: datagram) {
            let encoded = message.encoded
            // An NSEC's next name is written uncompressed, so a message can grow past the cap.
            if encoded.count <= DNSMessage.maximumSize {
                let again = try? DNSMessage(parsing: encoded)
                require(again == message, "a parsed message does not read back the same after encoding")
            }
            for record in message.records {
                require(record.name.wireLength <= DNSName.maximumWireLength, "a name over 255 bytes")
            }
        }

        // The responder: whatever arrives, what it sends parses, fits the cap, and goes only where
        // RFC 6762 allows; a datagram from off the link is dropped unread (§11), so the responder sends
        // exactly what the same responder sends when nothing arrives.
        let isOnLink = mode & 2 != 0
        let source = Responder.Source(
            address: isOnLink ? .v4([192, 168, 1, 31]) : .v4([10, 9, 9, 9]),
            port: mode & 1 != 0 ? 5353 : 40000,
            interface: 2, isToGroup: isOnLink, hopLimit: isOnLink ? 255 : 64)
        let responder = startedResponder(mode: mode)
        let reply = responder.received(datagram, from: source, at: 6)
        let packets = reply.packets + packetsUntilStopped(responder)
        for packet in packets {
            if case .unicast(let address, _, _) = packet.destination {
                require(isOnLink && address == source.address, "a unicast answer to \(address)")
            }
            // Most packets are the responder's own probes, announcements and goodbyes, the same for
            // every input: each distinct packet is encoded and read back once per process.
            guard checked.isNew(packet) else { continue }
            let bytes = packet.message.encoded
            require(bytes.count <= DNSMessage.maximumSize, "a packet of \(bytes.count) bytes")
            require((try? DNSMessage(parsing: bytes)) == packet.message, "a packet that does not read back")
        }
        if !isOnLink {
            require(
                reply.packets.isEmpty && reply.notes == [.offLink(source.address)], "read from off the link")
            require(packets == quietPackets(mode: mode), "a datagram from off the link changed what is sent")
        }

        // The finder: reads any answer without trouble.
        var finder = ServiceFinder()
        finder.receive(datagram, from: .v4([192, 168, 1, 31]))
        for server in finder.servers { require(!server.addresses.isEmpty, "a server without an address") }
    }

    /// A responder started at 0 and woken until 5 s (bit 2 of the mode: it has probed and announced) or
    /// only at 0.125 s (it is still probing).
    static func startedResponder(mode: UInt8) -> Responder {
        let responder = Responder(advertisement: advertisement, interfaces: [lan], random: { 0.5 })
        _ = responder.start(at: 0)
        if mode & 4 != 0 {
            while let wake = responder.nextWake, wake <= 5 { _ = responder.wake(at: wake) }
        } else {
            _ = responder.wake(at: 0.125)
        }
        return responder
    }

    /// What a responder started as `mode` sends from 6 s until it stops when nothing arrives: a
    /// pure function of the mode's phase bit, made once per process for each.
    static func quietPackets(mode: UInt8) -> [Responder.Packet] {
        let phase = mode & 4
        if cachesAreEnabled, let packets = quiet[phase] { return packets }
        let packets = packetsUntilStopped(startedResponder(mode: phase))
        if cachesAreEnabled { quiet[phase] = packets }
        return packets
    }

    /// `quietPackets`' lists, by the mode's phase bit.
    nonisolated(unsafe) static var quiet: [UInt8: [Responder.Packet]] = [:]

    /// The responder's packets already encoded and read back in this process.
    nonisolated(unsafe) static var checked = CheckedOnce<Responder.Packet>(capacity: 1 << 12)

    /// What `responder` sends when woken until 8 s and stopped at 9 s.
    static func packetsUntilStopped(_ responder: Responder) -> [Responder.Packet] {
        var packets: [Responder.Packet] = []
        while let wake = responder.nextWake, wake <= 8 { packets += responder.wake(at: wake).packets }
        return packets + responder.stop(at: 9).packets
    }
}
