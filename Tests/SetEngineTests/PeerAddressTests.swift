import SetEngine
import SetServerCore
import SetTestSupport
import Testing

/// A peer is held as its address and port (every connection holds one, so it must be small), yet reads
/// back exactly as the socket layer or a proxy spelled it: the log, the limits and the core see the same
/// text and key as before.
@Suite struct PeerAddressTests {
    @Test(arguments: [
        ("127.0.0.1:40000", "127.0.0.1", "127.0.0.1"),
        ("192.168.100.123:54321", "192.168.100.123", "192.168.100.123"),
        ("[::1]:7777", "::1", "0:0:0:0::/64"),
        ("[2001:db8:1:2:3:4:5:6]:443", "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("203.0.113.9", "203.0.113.9", "203.0.113.9"),
        ("0.0.0.0:1", "0.0.0.0", "0.0.0.0"),
        ("255.255.255.255:65535", "255.255.255.255", "255.255.255.255"),
        ("100.10.1.0:9", "100.10.1.0", "100.10.1.0"),
        ("[2001:db8::9]", "2001:db8::9", "2001:db8:0:0::/64"),
    ])
    func anAddressAndPortReadBackAsGiven(text: String, address: String, key: String) {
        let peer = PeerAddress(text)
        #expect(peer.text == text)
        #expect(peer.description == text)
        #expect(peer.key == key)
        #expect(peer.address == IPAddress(address))
        // An IPv4 peer with a port goes to the core as its address and port, which spell its text and key.
        if let (value, port) = peer.ipv4 {
            let dotted = [24, 16, 8, 0].map { String(value >> $0 & 0xFF) }.joined(separator: ".")
            #expect("\(dotted):\(port)" == text && dotted == key)
        } else {
            #expect(text.hasPrefix("[") || !text.contains(":"))
        }
    }

    /// Text the address does not spell back is kept as it was: an IPv4-mapped peer (the address is its
    /// IPv4 one, the text stays the socket's), a zone, capitals, a name that is no address.
    @Test(
        arguments: [
            ("[::ffff:192.0.2.7]:5000", "192.0.2.7", "192.0.2.7"),
            ("[fe80::1%eth0]:5000", nil, "fe80:0:0:0::/64"),
            ("[2001:DB8::1]:80", "2001:db8::1", "2001:db8:0:0::/64"),
            ("[2001:db8:0:0::1]:80", "2001:db8::1", "2001:db8:0:0::/64"),
            ("unix-socket", nil, "unix-socket"),
            ("10.0.0.1:+5", "10.0.0.1", "10.0.0.1"),
        ] as [(String, String?, String)])
    func otherTextIsKeptAsItWas(text: String, address: String?, key: String) {
        let peer = PeerAddress(text)
        #expect(peer.text == text)
        #expect(peer.key == key)
        #expect(peer.address == address.flatMap { IPAddress($0) })
        // Not handed to the core as an address and port: they would not spell it back.
        #expect(peer.ipv4 == nil)
    }

    @Test func peersAreEqualWhenTheirTextIs() {
        #expect(PeerAddress("127.0.0.1:1") == PeerAddress("127.0.0.1:1"))
        #expect(PeerAddress("127.0.0.1:1") != PeerAddress("127.0.0.1:2"))
        #expect(PeerAddress("127.0.0.1") != PeerAddress("127.0.0.1:1"))
        #expect(PeerAddress("[::ffff:127.0.0.1]:1") != PeerAddress("127.0.0.1:1"))
        #expect(PeerAddress(IPAddress("2001:db8::9")!, port: 4711) == PeerAddress("[2001:db8::9]:4711"))
        #expect(PeerAddress(IPAddress("203.0.113.9")!, port: nil) == PeerAddress("203.0.113.9"))
    }

    /// What an idle player's connection costs: an address in 16 inline bytes, not an array, and a peer
    /// of one address, a port and a reference (not two strings and an array).
    @Test func addressesAndPeersAreSmallValues() {
        #expect(MemoryLayout<IPAddress>.size <= 17)
        #expect(MemoryLayout<PeerAddress>.size <= 32)
        #expect(IPAddress("192.0.2.7")?.bytes == [192, 0, 2, 7])
        #expect(IPAddress("::ffff:192.0.2.7")?.bytes == [192, 0, 2, 7])
        #expect(
            IPAddress("2001:db8::9")?.bytes == [0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 11) + [9]
        )
        #expect(
            IPAddress(bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1]) == IPAddress("10.0.0.1")
        )
        #expect(Set([IPAddress("10.0.0.1"), IPAddress("::ffff:10.0.0.1"), IPAddress("::a00:1")]).count == 2)
    }

    /// Addresses are spelled and keyed from their bytes (at every accept); the text and key are the ones
    /// the plain spelling gives, for addresses full of zero runs, short and long groups and every byte
    /// value, and a peer's text reads back as the address and port it was made of.
    @Test func spellingFromBytesMatchesThePlainSpelling() {
        var random = SystemRandomNumberGenerator()
        // Groups drawn from a few shapes, so that zero runs of every length and place come up.
        let shapes: [UInt16] = [0, 0, 0, 1, 0xa, 0xff, 0x100, 0xabc, 0x1000, 0xffff, 0xdb8]
        for round in 0..<3_000 {
            let bytes: [UInt8]
            if round % 3 == 0 {
                bytes = (0..<4).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                bytes = (0..<8).flatMap { _ -> [UInt8] in
                    let group =
                        Bool.random(using: &random)
                        ? shapes.randomElement(using: &random)!
                        : UInt16.random(in: 0...0xffff, using: &random)
                    return [UInt8(group >> 8), UInt8(group & 0xff)]
                }
            }
            guard let address = IPAddress(bytes: bytes) else {
                Issue.record("\(bytes) is no address")
                continue
            }
            let plain = AddressReference.text(of: address.bytes)
            #expect(address.description == plain)
            #expect(IPAddress(plain) == address)
            let port = UInt16.random(in: 0...65535, using: &random)
            let peer = PeerAddress(address, port: port)
            let text = address.isIPv4 ? "\(plain):\(port)" : "[\(plain)]:\(port)"
            #expect(peer.text == text)
            #expect(peer.key == AddressReference.key(of: address.bytes))
            #expect(peer == PeerAddress(text))
            #expect(peer != PeerAddress(address, port: port &+ 1))
        }
    }

    /// Peers are equal exactly when their texts are, also when one keeps its text verbatim (a mapped
    /// address, capitals) and the other spells it from its address.
    @Test func peersKeptVerbatimAreEqualByText() {
        let texts = [
            "[::ffff:192.0.2.7]:5000", "192.0.2.7:5000", "[2001:DB8::1]:80", "[2001:db8::1]:80",
            "unix-socket",
            "[fe80::1%eth0]:5000", "[fe80::1]:5000", "10.0.0.1:+5", "10.0.0.1:5", "10.0.0.1",
        ]
        for left in texts {
            for right in texts {
                #expect((PeerAddress(left) == PeerAddress(right)) == (left == right), "\(left) \(right)")
            }
        }
    }
}
