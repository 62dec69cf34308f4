import SetEngine
import SetGame
import SetServerCore
import SetWeb
import Testing

/// The pure parts of hosting behind a proxy: addresses and `--trust-proxy` ranges, the PROXY protocol
/// header (HAProxy's specification, versions 1 and 2) and the forwarding fields of an HTTP request.
@Suite struct ProxyHeaderTests {
    // MARK: Addresses and ranges

    @Test func addressesReadStrictlyAndPrintCanonically() {
        #expect(IPAddress("192.0.2.7")?.bytes == [192, 0, 2, 7])
        #expect(IPAddress("2001:DB8:0:0:1:0:0:1")?.description == "2001:db8::1:0:0:1")
        #expect(IPAddress("2001:db8::")?.description == "2001:db8::")
        #expect(IPAddress("::1")?.description == "::1")
        #expect(IPAddress("1:0:0:2:0:0:0:3")?.description == "1:0:0:2::3", "the longest zero run")
        #expect(IPAddress("1:0:2:3:4:5:6:7")?.description == "1:0:2:3:4:5:6:7", "one zero group stays")
        // A dual-stack socket's IPv4 peer is its IPv4 address.
        #expect(IPAddress("::ffff:127.0.0.2") == IPAddress("127.0.0.2"))
        #expect(IPAddress("::FFFF:7f00:2") == IPAddress("127.0.0.2"))
        for bad in [
            "", "1.2.3", "1.2.3.4.5", "01.2.3.4", "256.1.1.1", "1.2.3.-4", "1.2.3.4 ", "::1::",
            "1:2:3:4:5:6:7:8:9",
            "12345::", "fe80::1%eth0", "[::1]", "g::1", "1.2.3.4:80", "::+1",
        ] {
            #expect(IPAddress(bad) == nil, "\(bad)")
        }
    }

    @Test func rangesHoldTheirAddressesOfTheirFamilyOnly() throws {
        let loopback = try #require(AddressRange("127.0.0.0/8"))
        #expect(loopback.contains(IPAddress("127.0.0.9")!))
        #expect(!loopback.contains(IPAddress("128.0.0.1")!))
        #expect(loopback.contains(IPAddress("::ffff:127.1.2.3")!), "a mapped address is IPv4")
        let one = try #require(AddressRange("127.0.0.1"))
        #expect(one.description == "127.0.0.1/32")
        #expect(one.contains(IPAddress("127.0.0.1")!) && !one.contains(IPAddress("127.0.0.2")!))
        #expect(AddressRange("10.1.2.3/8")?.description == "10.0.0.0/8", "host bits are cleared")
        #expect(AddressRange("0.0.0.0/0")?.contains(IPAddress("203.0.113.9")!) == true)
        let ula = try #require(AddressRange("fd00::/8"))
        #expect(ula.contains(IPAddress("fd12:3456::1")!) && !ula.contains(IPAddress("fe80::1")!))
        #expect(!ula.contains(IPAddress("10.0.0.1")!))
        #expect(AddressRange("2001:db8::/127")?.contains(IPAddress("2001:db8::1")!) == true)
        for bad in [
            "127.0.0.1/33", "::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8/8", "example.org", "/8",
        ] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
    }

    // MARK: Version 1

    private static func v1(_ text: String) -> ProxyHeader.Parse { ProxyHeader.parse(Array(text.utf8)) }

    @Test func version1NamesTheClientAndIsFollowedByItsBytes() {
        let line = "PROXY TCP4 203.0.113.9 192.0.2.1 51234 7778\r\n"
        #expect(
            Self.v1(line + "HELLO ann\n")
                == .header(
                    ProxyHeader(source: PeerAddress("203.0.113.9:51234"), version: 1), length: line.utf8.count
                ))
        let six = "PROXY TCP6 2001:db8::9 2001:db8::1 4711 443\r\n"
        #expect(
            Self.v1(six)
                == .header(ProxyHeader(source: PeerAddress("[2001:db8::9]:4711"), version: 1), length: 45))
        // UNKNOWN: the connection is the proxy's own, whatever follows on the line.
        #expect(Self.v1("PROXY UNKNOWN\r\n") == .header(ProxyHeader(source: nil, version: 1), length: 15))
        #expect(
            Self.v1("PROXY UNKNOWN ffff:f::1 whatever\r\n")
                == .header(ProxyHeader(source: nil, version: 1), length: 34))
    }

    @Test func version1WaitsForItsCRLFWithin107Bytes() {
        #expect(Self.v1("P") == .incomplete)
        #expect(Self.v1("PROXY") == .incomplete)
        #expect(Self.v1("PROXY TCP4 203.0.113.9 192.0.2.1 51234 7778") == .incomplete)
        #expect(Self.v1("PROXY TCP4 203.0.113.9 192.0.2.1 51234 7778\r") == .incomplete)
        // The specification's longest line is 107 bytes with its CRLF.
        let longest = "PROXY UNKNOWN " + Array(repeating: "f", count: 91).joined() + "\r\n"
        #expect(longest.utf8.count == 107)
        #expect(Self.v1(longest) == .header(ProxyHeader(source: nil, version: 1), length: 107))
        let over = "PROXY UNKNOWN " + Array(repeating: "f", count: 92).joined() + "\r\n"
        guard case .invalid = Self.v1(over) else {
            Issue.record("a 108-byte line is refused")
            return
        }
        guard case .invalid = Self.v1("PROXY UNKNOWN " + Array(repeating: "f", count: 200).joined()) else {
            Issue.record("107 bytes without a CRLF are refused at once")
            return
        }
    }

    @Test func version1RefusesAnythingButTheExactGrammar() {
        for bad in [
            "PROXY TCP4 203.0.113.9 192.0.2.1 51234 7778\n",  // a bare LF
            "PROXY TCP4 203.0.113.9 192.0.2.1 51234 7778\rX",  // a CR without its LF
            "PROXY TCP4  203.0.113.9 192.0.2.1 51234 7778\r\n",  // two spaces
            "PROXY TCP4 203.0.113.9 192.0.2.1 51234\r\n",  // a port missing
            "PROXY TCP4 203.0.113.9 192.0.2.1 51234 7778 9\r\n",  // a word too many
            "PROXY TCP4 2001:db8::9 192.0.2.1 51234 7778\r\n",  // IPv6 under TCP4
            "PROXY TCP6 203.0.113.9 2001:db8::1 51234 7778\r\n",  // IPv4 under TCP6
            "PROXY TCP4 203.0.113.09 192.0.2.1 51234 7778\r\n",  // a leading zero
            "PROXY TCP4 203.0.113.9 192.0.2.1 051234 7778\r\n",  // a port's leading zero
            "PROXY TCP4 203.0.113.9 192.0.2.1 65536 7778\r\n",  // a port over 65535
            "PROXY UDP4 203.0.113.9 192.0.2.1 51234 7778\r\n",  // not TCP
            "PROXY tcp4 203.0.113.9 192.0.2.1 51234 7778\r\n",  // case matters
            "PROXY \r\n",
        ] {
            guard case .invalid = Self.v1(bad) else {
                Issue.record("\(bad.debugDescription) is not refused: \(Self.v1(bad))")
                continue
            }
        }
        // Not a header at all: the line protocol's and HTTP's first bytes.
        #expect(Self.v1("PING\n") == .notAHeader)
        #expect(Self.v1("PROXIES\n") == .notAHeader)
        #expect(Self.v1("GET / HTTP/1.1\r\n") == .notAHeader)
        #expect(ProxyHeader.signature(of: Array("PRO".utf8)) == .partial)
        #expect(ProxyHeader.signature(of: Array("PROXY TCP4".utf8)) == .version1)
    }

    // MARK: Version 2

    static let signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]

    /// A version 2 header: the signature, version 2 and `command`, `family`, and `block` with its length.
    static func v2(command: UInt8 = 1, family: UInt8, _ block: [UInt8]) -> [UInt8] {
        signature + [0x20 | command, family, UInt8(block.count >> 8), UInt8(block.count & 0xFF)] + block
    }

    @Test func version2NamesTheClientOverIPv4AndIPv6AndSkipsItsTLVs() {
        let ipv4 = Self.v2(family: 0x11, [203, 0, 113, 9, 192, 0, 2, 1, 0xC8, 0x22, 0x1E, 0x62])
        #expect(
            ProxyHeader.parse(ipv4 + Array("HELLO".utf8))
                == .header(ProxyHeader(source: PeerAddress("203.0.113.9:51234"), version: 2), length: 28))
        let client: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 11) + [9]
        let ipv6 = Self.v2(family: 0x21, client + Array(repeating: 0, count: 16) + [0x12, 0x67, 0x01, 0xBB])
        #expect(
            ProxyHeader.parse(ipv6)
                == .header(ProxyHeader(source: PeerAddress("[2001:db8::9]:4711"), version: 2), length: 52))
        // A TLV after the addresses (PP2_TYPE_ALPN "h2") is part of the header and skipped.
        let withTLV = Self.v2(
            family: 0x11,
            [203, 0, 113, 9, 192, 0, 2, 1, 0xC8, 0x22, 0x1E, 0x62, 0x01, 0x00, 0x02, 0x68, 0x32])
        #expect(
            ProxyHeader.parse(withTLV)
                == .header(ProxyHeader(source: PeerAddress("203.0.113.9:51234"), version: 2), length: 33))
        // Every byte short of the whole header waits for more.
        for count in 1..<ipv4.count {
            #expect(ProxyHeader.parse(Array(ipv4.prefix(count))) == .incomplete, "\(count) bytes")
        }
    }

    @Test func version2LocalAndOtherFamiliesAreTheProxysOwn() {
        // LOCAL (a health check) with an address block that is skipped unread, as the spec says.
        let local = Self.v2(command: 0, family: 0x11, Array(repeating: 7, count: 12))
        #expect(ProxyHeader.parse(local) == .header(ProxyHeader(source: nil, version: 2), length: 28))
        #expect(
            ProxyHeader.parse(Self.v2(command: 0, family: 0, []))
                == .header(ProxyHeader(source: nil, version: 2), length: 16))
        for family: UInt8 in [0x00, 0x12, 0x22, 0x31] {
            let block = Array(repeating: UInt8(1), count: family == 0x31 ? 216 : 36)
            #expect(
                ProxyHeader.parse(Self.v2(family: family, block))
                    == .header(ProxyHeader(source: nil, version: 2), length: 16 + block.count))
        }
    }

    @Test func version2RefusesWhatTheSpecificationForbidsAndLengthsOverTheCap() {
        let block: [UInt8] = [203, 0, 113, 9, 192, 0, 2, 1, 0xC8, 0x22, 0x1E, 0x62]
        var wrongVersion = Self.v2(family: 0x11, block)
        wrongVersion[12] = 0x11
        var wrongCommand = Self.v2(family: 0x11, block)
        wrongCommand[12] = 0x22
        for (bytes, what) in [
            (wrongVersion, "version 1 in the binary form"), (wrongCommand, "command 2"),
            (Self.v2(family: 0x41, block), "family 4"), (Self.v2(family: 0x13, block), "transport 3"),
            (Self.v2(family: 0x11, Array(block.prefix(11))), "an IPv4 block of 11 bytes"),
            (Self.v2(family: 0x21, Array(repeating: 0, count: 35)), "an IPv6 block of 35 bytes"),
        ] {
            guard case .invalid = ProxyHeader.parse(bytes) else {
                Issue.record("\(what) is not refused: \(ProxyHeader.parse(bytes))")
                continue
            }
        }
        // The length field is checked before the bytes are waited for: 2048 in all is the most.
        let longest = Self.v2(family: 0x11, block + Array(repeating: 0, count: 2048 - 16 - 12))
        #expect(
            ProxyHeader.parse(longest)
                == .header(ProxyHeader(source: PeerAddress("203.0.113.9:51234"), version: 2), length: 2048))
        let over = Self.signature + [0x21, 0x11, 0x07, 0xF1]
        guard case .invalid = ProxyHeader.parse(over) else {
            Issue.record("a header of 2049 bytes is refused from its length field")
            return
        }
        #expect(
            ProxyHeader.signature(of: [0x0D, 0x0A]) == .partial, "a blank line may be a signature's start")
        #expect(ProxyHeader.signature(of: [0x0D, 0x0A, 0x0D, 0x0A, 0x41]) == .none)
    }

    /// Seeded random bytes behind each signature: parsing never traps, a header never claims more bytes
    /// than there are or more than its version's cap, and a header's verdict does not change with what
    /// follows it.
    @Test func randomBytesBehindTheSignaturesNeverBreakTheParser() {
        var random = SeededGenerator(seed: 29)
        for round in 0..<20_000 {
            let prefix = round.isMultiple(of: 2) ? Array("PROXY ".utf8) : Self.signature + [0x21, 0x11]
            let count = Int.random(in: 0...160, using: &random)
            var bytes = prefix + (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            // Every fourth: a short length field, so that whole headers with random blocks come up.
            if round % 4 == 1, bytes.count >= 16 {
                bytes[14] = 0
                bytes[15] = UInt8.random(in: 0...40, using: &random)
            }
            switch ProxyHeader.parse(bytes) {
            case .header(let header, let length):
                let cap =
                    header.version == 1
                    ? ProxyHeader.maximumVersion1Length : ProxyHeader.maximumVersion2Length
                #expect(length <= bytes.count && length <= cap, "\(bytes)")
                #expect(
                    ProxyHeader.parse(Array(bytes.prefix(length)) + [1, 2, 3]) == ProxyHeader.parse(bytes))
            case .notAHeader:
                Issue.record("a signature is always a header's start: \(bytes)")
            case .incomplete, .invalid:
                break
            }
        }
    }

    // MARK: Forwarding fields

    private static let proxy = PeerAddress("127.0.0.1:40000")
    private static func trusted(_ address: IPAddress) -> Bool {
        AddressRange("127.0.0.0/8")!.contains(address) || AddressRange("10.0.0.0/8")!.contains(address)
    }

    private static func client(_ fields: [(String, String)]) -> String {
        let head = HTTPRequestHead(
            method: Array("GET".utf8), target: Array("/".utf8), minorVersion: 1,
            fields: [(Array("Host".utf8), Array("h".utf8))]
                + fields.map { (Array($0.0.utf8), Array($0.1.utf8)) })
        return ForwardedFor.client(of: head, behind: proxy, isTrusted: trusted).text
    }

    @Test func theClientIsTheRightMostHopThatIsNotATrustedProxy() {
        #expect(Self.client([]) == "127.0.0.1:40000", "no field: the proxy itself")
        #expect(Self.client([("X-Forwarded-For", "203.0.113.9")]) == "203.0.113.9")
        // What the client wrote is left of what the proxy appended: never believed.
        #expect(Self.client([("X-Forwarded-For", "198.51.100.1, 203.0.113.9")]) == "203.0.113.9")
        #expect(
            Self.client([("x-forwarded-for", "198.51.100.1"), ("X-Forwarded-For", "203.0.113.9")])
                == "203.0.113.9")
        // Trusted hops are walked through.
        #expect(Self.client([("X-Forwarded-For", "198.51.100.1, 203.0.113.9, 10.0.0.2")]) == "203.0.113.9")
        #expect(
            Self.client([("X-Forwarded-For", "10.0.0.3, 10.0.0.2")]) == "10.0.0.3", "all trusted: the first")
        // An entry that is no address stops the walk at the trusted hop right of it.
        #expect(Self.client([("X-Forwarded-For", "203.0.113.9, unknown")]) == "127.0.0.1:40000")
        #expect(Self.client([("X-Forwarded-For", "203.0.113.9, garbage, 10.0.0.2")]) == "10.0.0.2")
        #expect(Self.client([("X-Forwarded-For", "")]) == "127.0.0.1:40000")
        // Ports and brackets, as some proxies write them.
        #expect(Self.client([("X-Forwarded-For", "203.0.113.9:4711")]) == "203.0.113.9:4711")
        #expect(Self.client([("X-Forwarded-For", "2001:db8::9")]) == "[2001:db8::9]")
        #expect(Self.client([("X-Forwarded-For", "[2001:db8::9]:4711")]) == "[2001:db8::9]:4711")
    }

    @Test func forwardedIsReadOnlyWithoutXForwardedFor() {
        #expect(Self.client([("Forwarded", "for=203.0.113.9;proto=https;by=127.0.0.1")]) == "203.0.113.9")
        #expect(
            Self.client([("Forwarded", #"for="[2001:db8:cafe::17]:4711""#)]) == "[2001:db8:cafe::17]:4711")
        #expect(Self.client([("Forwarded", "for=198.51.100.1, for=203.0.113.9")]) == "203.0.113.9")
        #expect(
            Self.client([("Forwarded", "For=198.51.100.1;host=a, proto=http;FOR=203.0.113.9")])
                == "203.0.113.9")
        #expect(Self.client([("Forwarded", "for=_hidden")]) == "127.0.0.1:40000", "obfuscated: the proxy")
        #expect(Self.client([("Forwarded", "for=unknown")]) == "127.0.0.1:40000")
        #expect(
            Self.client([("Forwarded", #"for="203.0.113.9:_port""#)]) == "203.0.113.9", "an obfuscated port")
        #expect(Self.client([("Forwarded", "proto=https")]) == "127.0.0.1:40000", "an element without for=")
        // A proxy passes a field it does not maintain as the client wrote it: X-Forwarded-For, which every
        // common proxy appends to, wins.
        #expect(
            Self.client([("Forwarded", "for=198.51.100.66"), ("X-Forwarded-For", "203.0.113.9")])
                == "203.0.113.9")
    }
}
