// libFuzzer target for multicast DNS: the DNS message parser and encoder, the responder that answers what
// the LAN sends, and the finder that reads answers.
//
// Input layout: byte 0 picks how the datagram arrives (bit 0: from port 5353 or from an ordinary port,
// a legacy query; bit 1: to the group with TTL 255, or to our address from off the link; bit 2: while
// the responder probes or once it runs); the rest is the datagram.
//
// Compiled with Sources/SetDiscovery/*.swift into the module SetDiscovery (as the game target is with
// SetGame): `swiftc -sanitize=fuzzer,address -parse-as-library -module-name SetDiscovery
// Fuzz/FuzzSupport.swift Fuzz/DNSFuzzer.swift Sources/SetDiscovery/*.swift -o fuzz-dns`, seeds in
// Fuzz/corpus-seeds/dns, dictionary Fuzz/dns.dict, -max_len=9100 (past the 9000-byte cap).

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func dnsFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    DNSFuzzer.run(fuzzBytes(data, size))
    return 0
}

enum DNSFuzzer {
    static let lan = LinkInterface(
        index: 2, name: "eth0", addresses: [.init(.v4([192, 168, 1, 20]), prefixLength: 24)])
    static let advertisement = ServiceAdvertisement(
        instanceName: "setd", hostLabel: "setd-box", port: 7777,
        services: DiscoveryTXT.services(version: "1.1.0", protocolVersion: 1, rooms: 1, players: 2, isHTTPEnabled: true))

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
        // RFC 6762 allows; from off the link it sends nothing at all.
        let responder = Responder(advertisement: advertisement, interfaces: [lan], random: { 0.5 })
        _ = responder.start(at: 0)
        if mode & 4 != 0 {
            while let wake = responder.nextWake, wake <= 5 { _ = responder.wake(at: wake) }
        } else {
            _ = responder.wake(at: 0.125)
        }
        let isOnLink = mode & 2 != 0
        let source = Responder.Source(
            address: isOnLink ? .v4([192, 168, 1, 31]) : .v4([10, 9, 9, 9]), port: mode & 1 != 0 ? 5353 : 40000,
            interface: 2, isToGroup: isOnLink, hopLimit: isOnLink ? 255 : 64)
        var packets = responder.received(datagram, from: source, at: 6).packets
        while let wake = responder.nextWake, wake <= 8 { packets += responder.wake(at: wake).packets }
        packets += responder.stop(at: 9).packets
        for packet in packets {
            let bytes = packet.message.encoded
            require(bytes.count <= DNSMessage.maximumSize, "a packet of \(bytes.count) bytes")
            require((try? DNSMessage(parsing: bytes)) == packet.message, "a packet that does not read back")
            if case .unicast(let address, _, _) = packet.destination {
                require(isOnLink && address == source.address, "a unicast answer to \(address)")
            }
        }
        if !isOnLink { require(packets.allSatisfy { $0.message.answers.allSatisfy { $0.ttl == 0 } }, "answered off-link") }

        // The finder: reads any answer without trouble.
        var finder = ServiceFinder()
        finder.receive(datagram, from: .v4([192, 168, 1, 31]))
        for server in finder.servers { require(!server.addresses.isEmpty, "a server without an address") }
    }
}
