import SetServerCore

/// The PROXY protocol header (HAProxy's specification, version 1 in text and version 2 in binary) that a
/// proxy in front of setd puts before a connection's first bytes: who the client it relays is. nginx's
/// stream module sends version 1 (`proxy_protocol on`), HAProxy either (`send-proxy`, `send-proxy-v2`).
///
/// Parsing is strict, as the specification asks: anything that starts like a header and is not exactly
/// one is ``Parse/invalid(_:)``, and the connection is closed. Only a peer in `--trust-proxy` may send
/// one (the engine decides that; this type only reads bytes).
public struct ProxyHeader: Equatable, Sendable {
    /// The client the proxy relays; `nil` when the header says the connection is the proxy's own (a
    /// version 1 `UNKNOWN`, a version 2 `LOCAL`, or a family other than TCP over IPv4 or IPv6, such as a
    /// health check): then the connection's own address stands.
    public var source: PeerAddress?
    /// 1 (text) or 2 (binary).
    public var version: Int

    /// Creates a header naming `source`.
    public init(source: PeerAddress?, version: Int) {
        self.source = source
        self.version = version
    }

    /// What a connection's first bytes amount to.
    public enum Parse: Equatable, Sendable {
        /// They do not begin a header.
        case notAHeader
        /// They are the start of a header (or of its signature): wait for more.
        case incomplete
        /// A whole header, `length` bytes long; what follows it is the client's.
        case header(ProxyHeader, length: Int)
        /// They begin a header that breaks the specification (the reason in words): close the connection.
        case invalid(String)
    }

    /// How a connection's first bytes compare with the two signatures.
    public enum Signature: Equatable, Sendable {
        /// Neither: not a header.
        case none
        /// A proper prefix of one of them: too few bytes to tell.
        case partial
        /// `PROXY ` (version 1).
        case version1
        /// The twelve bytes of version 2.
        case version2
    }

    /// Version 1's signature, with the space after it.
    static let version1Signature = Array("PROXY ".utf8)
    /// Version 2's signature: CR LF CR LF NUL CR LF `QUIT` LF, chosen to be rejected by any other protocol.
    static let version2Signature: [UInt8] = [
        0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A,
    ]
    /// The longest version 1 line, CRLF included: `PROXY UNKNOWN`, two IPv6 addresses and two ports
    /// (the specification's figure: a receiver finds the CRLF within it or declares the line invalid).
    public static let maximumVersion1Length = 107
    /// The longest version 2 header accepted: the 16 fixed bytes and up to 2032 of addresses and TLVs.
    /// Addresses take at most 216 bytes (two UNIX paths); the TLVs a proxy adds (ALPN, the server name,
    /// a unique ID, TLS details) a few hundred. The length field allows 64 KiB, which nothing relays.
    public static let maximumVersion2Length = 2048

    /// Compares the first bytes with both signatures.
    public static func signature<Bytes: Collection<UInt8>>(of bytes: Bytes) -> Signature {
        for (candidate, signature) in [
            (Signature.version1, version1Signature), (.version2, version2Signature),
        ] {
            let shared = min(bytes.count, signature.count)
            guard bytes.prefix(shared).elementsEqual(signature.prefix(shared)) else { continue }
            return shared == signature.count ? candidate : .partial
        }
        return .none
    }

    /// Reads a header from the start of `bytes` (a connection's first bytes, as many as arrived).
    public static func parse(_ bytes: [UInt8]) -> Parse {
        switch signature(of: bytes) {
        case .none: return .notAHeader
        case .partial: return .incomplete
        case .version1: return parseVersion1(bytes)
        case .version2: return parseVersion2(bytes)
        }
    }

    // MARK: Version 1

    /// `PROXY TCP4|TCP6 <source> <destination> <source port> <destination port>\r\n`, or
    /// `PROXY UNKNOWN[ anything]\r\n`.
    static func parseVersion1(_ bytes: [UInt8]) -> Parse {
        let cr = UInt8(ascii: "\r")
        let lf = UInt8(ascii: "\n")
        let tooLong = Parse.invalid("no CRLF within \(maximumVersion1Length) bytes of PROXY")
        guard let end = bytes.prefix(maximumVersion1Length).firstIndex(where: { $0 == cr || $0 == lf }) else {
            return bytes.count >= maximumVersion1Length ? tooLong : .incomplete
        }
        // The specification: a single CR or LF never ends the line.
        guard bytes[end] == cr else { return .invalid("the PROXY line must end in CRLF, not a bare LF") }
        let length = end + 2
        guard length <= maximumVersion1Length else { return tooLong }
        guard end + 1 < bytes.count else { return .incomplete }
        guard bytes[end + 1] == lf else { return .invalid("a CR without its LF in the PROXY line") }
        let line = bytes[version1Signature.count..<end]
        let words = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard let family = words.first.map({ String(decoding: $0, as: UTF8.self) }) else {
            return .invalid("no protocol in the PROXY line")
        }
        if family == "UNKNOWN" {
            // The specification: whatever follows UNKNOWN is ignored; the connection is the proxy's own.
            return .header(ProxyHeader(source: nil, version: 1), length: length)
        }
        guard family == "TCP4" || family == "TCP6" else {
            return .invalid("PROXY protocol '\(family.prefix(16))' is not TCP4, TCP6 or UNKNOWN")
        }
        guard words.count == 5 else {
            return .invalid("a PROXY \(family) line has two addresses and two ports, each after one space")
        }
        let isIPv4 = family == "TCP4"
        func address(_ word: ArraySlice<UInt8>) -> IPAddress? {
            // TCP4 names dotted IPv4, TCP6 IPv6 text (an IPv4-mapped one is read as its IPv4 address).
            let isIPv6Text = word.contains(UInt8(ascii: ":"))
            guard isIPv6Text != isIPv4 else { return nil }
            return IPAddress(String(decoding: word, as: UTF8.self))
        }
        guard let source = address(words[1]), address(words[2]) != nil else {
            return .invalid("a PROXY \(family) address is not in its family's canonical form")
        }
        guard let sourcePort = port(words[3]), port(words[4]) != nil else {
            return .invalid("a PROXY port is not a number in 0...65535 without leading zeros")
        }
        return .header(ProxyHeader(source: PeerAddress(source, port: sourcePort), version: 1), length: length)
    }

    /// A decimal port, 0...65535, without leading zeros.
    private static func port(_ word: ArraySlice<UInt8>) -> UInt16? {
        guard (1...5).contains(word.count), word.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            word.count == 1 || word.first != UInt8(ascii: "0")
        else { return nil }
        return UInt16(String(decoding: word, as: UTF8.self))
    }

    // MARK: Version 2

    /// The signature, the version and command byte, the family and transport byte, a 16-bit length,
    /// then that many bytes: the addresses and ports, and TLVs that are skipped.
    static func parseVersion2(_ bytes: [UInt8]) -> Parse {
        let fixed = 16
        guard bytes.count >= fixed else { return .incomplete }
        let versionAndCommand = bytes[12]
        guard versionAndCommand >> 4 == 2 else {
            return .invalid("PROXY version 2 header with version \(versionAndCommand >> 4)")
        }
        let command = versionAndCommand & 0x0F
        guard command <= 1 else {
            return .invalid("PROXY version 2 command \(command) is neither LOCAL nor PROXY")
        }
        let familyAndTransport = bytes[13]
        let family = familyAndTransport >> 4
        let transport = familyAndTransport & 0x0F
        guard family <= 3, transport <= 2 else {
            return .invalid("PROXY version 2 family and transport 0x\(String(familyAndTransport, radix: 16))")
        }
        let addressLength = Int(bytes[14]) << 8 | Int(bytes[15])
        let length = fixed + addressLength
        guard length <= maximumVersion2Length else {
            return .invalid("PROXY version 2 header of \(length) bytes, over \(maximumVersion2Length)")
        }
        guard bytes.count >= length else { return .incomplete }
        // LOCAL: the proxy's own connection (a health check); its address block is skipped unread.
        guard command == 1 else { return .header(ProxyHeader(source: nil, version: 2), length: length) }
        let block = bytes[fixed..<length]
        switch familyAndTransport {
        case 0x11:
            guard block.count >= 12 else {
                return .invalid("PROXY version 2 TCP over IPv4 needs 12 address bytes")
            }
            let address = IPAddress(bytes: Array(block.prefix(4)))!
            let port = UInt16(block[block.startIndex + 8]) << 8 | UInt16(block[block.startIndex + 9])
            return .header(ProxyHeader(source: PeerAddress(address, port: port), version: 2), length: length)
        case 0x21:
            guard block.count >= 36 else {
                return .invalid("PROXY version 2 TCP over IPv6 needs 36 address bytes")
            }
            let address = IPAddress(bytes: Array(block.prefix(16)))!
            let port = UInt16(block[block.startIndex + 32]) << 8 | UInt16(block[block.startIndex + 33])
            return .header(ProxyHeader(source: PeerAddress(address, port: port), version: 2), length: length)
        default:
            // UNSPEC, UDP or UNIX: the specification lets a receiver fall back to the connection's own
            // address, as for LOCAL.
            return .header(ProxyHeader(source: nil, version: 2), length: length)
        }
    }
}
