/// An IPv4 or IPv6 address as its bytes: what `--trust-proxy` ranges hold and what a proxy's PROXY
/// header and forwarding fields name.
///
/// An IPv4-mapped IPv6 address (`::ffff:192.0.2.7`, what a dual-stack socket reports for an IPv4 peer) is
/// its IPv4 address, so `127.0.0.1/32` trusts a proxy however the socket spells its address.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The sixteen bytes in network order, the first eight in `high`: an IPv4 address fills the last
    /// four. Held inline, not as an array: every connection holds an address, and an array would be a
    /// heap block of its own for each.
    private let high: UInt64
    private let low: UInt64
    /// Whether it is an IPv4 address (or was an IPv4-mapped IPv6 one).
    public let isIPv4: Bool

    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    public var bytes: [UInt8] {
        let all = (0..<16).map { index in
            UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> UInt64(8 * (7 - index % 8)))
        }
        return isIPv4 ? Array(all[12...]) : all
    }

    /// The address of 4 bytes (IPv4) or 16 (IPv6, unmapped if it is IPv4-mapped); `nil` for any other
    /// count.
    public init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4:
            self.init(high: 0, low: Self.word(bytes[...]), isIPv4: true)
        case 16:
            let isMapped = bytes[..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            if isMapped {
                self.init(high: 0, low: Self.word(bytes[12...]), isIPv4: true)
            } else {
                self.init(high: Self.word(bytes[..<8]), low: Self.word(bytes[8...]), isIPv4: false)
            }
        default:
            return nil
        }
    }

    private init(high: UInt64, low: UInt64, isIPv4: Bool) {
        (self.high, self.low, self.isIPv4) = (high, low, isIPv4)
    }

    /// The bytes as one big-endian number.
    private static func word(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Reads an address in text: IPv4 as four decimal numbers without leading zeros (the PROXY protocol's
    /// rule, so `010.0.0.1` is never read as octal somewhere else), IPv6 with at most one `::` and an
    /// optional IPv4 tail. No zone (`%eth0`), no brackets, no port.
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        if let v4 = Self.ipv4Bytes(utf8[...]) {
            self.init(high: 0, low: Self.word(v4[...]), isIPv4: true)
        } else if let v6 = Self.ipv6Bytes(utf8), let address = IPAddress(bytes: v6) {
            self = address
        } else {
            return nil
        }
    }

    /// Dotted decimal for IPv4; RFC 5952's form for IPv6 (lower case, no leading zeros, the longest run
    /// of two or more zero groups as `::`).
    ///
    /// Spelled byte by byte into one buffer: every accepted connection's peer is spelled for the log and
    /// the core, and per-part strings joined were most of an accept's time.
    public var description: String {
        var text: [UInt8] = []
        text.reserveCapacity(isIPv4 ? 15 : 39)
        if isIPv4 {
            for shift: UInt64 in [24, 16, 8, 0] {
                if shift < 24 { text.append(UInt8(ascii: ".")) }
                Self.appendDecimal(UInt8(truncatingIfNeeded: low >> shift), to: &text)
            }
            return String(decoding: text, as: UTF8.self)
        }
        var best = (start: -1, length: 0)
        var index = 0
        while index < 8 {
            guard group(index) == 0 else {
                index += 1
                continue
            }
            var end = index
            while end < 8, group(end) == 0 { end += 1 }
            if end - index > best.length { best = (index, end - index) }
            index = end
        }
        if best.length < 2 { best = (-1, 0) }
        index = 0
        while index < 8 {
            if index == best.start {
                text.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: ":")])
                index += best.length
                continue
            }
            if index > 0, index != best.start + best.length { text.append(UInt8(ascii: ":")) }
            Self.appendHex(group(index), to: &text)
            index += 1
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// IPv6 group `index` (0...7), big-endian.
    public func group(_ index: Int) -> UInt16 {
        UInt16(truncatingIfNeeded: (index < 4 ? high : low) >> UInt64(16 * (3 - index % 4)))
    }

    /// `value` in decimal, without leading zeros.
    private static func appendDecimal(_ value: UInt8, to text: inout [UInt8]) {
        if value >= 100 { text.append(UInt8(ascii: "0") + value / 100) }
        if value >= 10 { text.append(UInt8(ascii: "0") + value / 10 % 10) }
        text.append(UInt8(ascii: "0") + value % 10)
    }

    /// `value` in lower-case hexadecimal, without leading zeros (as `String(value, radix: 16)`).
    public static func appendHex(_ value: UInt16, to text: inout [UInt8]) {
        var shift = 12
        while shift > 0, value >> UInt16(shift) == 0 { shift -= 4 }
        while shift >= 0 {
            let digit = UInt8(truncatingIfNeeded: value >> UInt16(shift)) & 0xF
            text.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
            shift -= 4
        }
    }

    /// The four bytes of a dotted-decimal IPv4 address, each 0...255 without leading zeros.
    static func ipv4Bytes(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(isDigit),
                part.count == 1 || part.first != UInt8(ascii: "0")
            else { return nil }
            let value = part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard value <= 255 else { return nil }
            out.append(UInt8(value))
        }
        return out
    }

    /// The sixteen bytes of an IPv6 address in text.
    static func ipv6Bytes(_ text: [UInt8]) -> [UInt8]? {
        guard text.count <= 45, text.contains(UInt8(ascii: ":")) else { return nil }
        let colon = UInt8(ascii: ":")
        let doubles = text.indices.dropLast().filter { text[$0] == colon && text[$0 + 1] == colon }
        guard doubles.count <= 1 else { return nil }
        func bytes(of part: ArraySlice<UInt8>, allowsIPv4Tail: Bool) -> [UInt8]? {
            if part.isEmpty { return [] }
            var out: [UInt8] = []
            let pieces = part.split(separator: colon, omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if allowsIPv4Tail, index == pieces.count - 1, piece.contains(UInt8(ascii: ".")) {
                    guard let v4 = ipv4Bytes(piece) else { return nil }
                    out += v4
                    continue
                }
                guard (1...4).contains(piece.count), piece.allSatisfy(isHexDigit),
                    let value = UInt16(String(decoding: piece, as: UTF8.self), radix: 16)
                else { return nil }
                out += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
            return out
        }
        if let double = doubles.first {
            guard let head = bytes(of: text[..<double], allowsIPv4Tail: false),
                let tail = bytes(of: text[(double + 2)...], allowsIPv4Tail: true),
                head.count + tail.count <= 14
            else { return nil }
            return head + Array(repeating: 0, count: 16 - head.count - tail.count) + tail
        }
        guard let all = bytes(of: text[...], allowsIPv4Tail: true), all.count == 16 else { return nil }
        return all
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}

/// A block of addresses in CIDR notation (`10.0.0.0/8`, `fd00::/8`, or one address, `127.0.0.1`): what
/// `--trust-proxy` names.
public struct AddressRange: Hashable, Sendable, CustomStringConvertible {
    /// The first address of the block (host bits cleared).
    public let network: IPAddress
    /// How many leading bits an address must share with ``network``.
    public let prefixLength: Int

    /// Reads `ADDRESS/BITS` or a bare address (all its bits); host bits set in `ADDRESS` are cleared, as
    /// `10.1.2.3/8` can only mean `10.0.0.0/8`. `nil` if the address or the length is not valid for its
    /// family (0...32 for IPv4, 0...128 for IPv6).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let bits = address.bytes.count * 8
        var length = bits
        if parts.count == 2 {
            let digits = parts[1]
            guard (1...3).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let n = Int(digits),
                (0...bits).contains(n)
            else { return nil }
            length = n
        }
        prefixLength = length
        network = IPAddress(bytes: Self.masked(address.bytes, length))!
    }

    /// Whether `address` is in the block (an IPv4 block holds no IPv6 address, and the other way round).
    public func contains(_ address: IPAddress) -> Bool {
        address.bytes.count == network.bytes.count
            && Self.masked(address.bytes, prefixLength) == network.bytes
    }

    /// `network/prefixLength`.
    public var description: String { "\(network)/\(prefixLength)" }

    private static func masked(_ bytes: [UInt8], _ length: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let kept = min(8, max(0, length - 8 * index))
            return kept == 8 ? byte : byte & ~(0xFF >> kept)
        }
    }
}
