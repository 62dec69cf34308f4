import SetServerCore
import SetWeb

/// The client an HTTP request from a trusted proxy was made for, read from its forwarding fields:
/// `X-Forwarded-For` (what nginx, HAProxy's `option forwardfor` and Caddy set) or, when a request has
/// none, `Forwarded` (RFC 7239's `for=`).
///
/// Each proxy on the way appends the address it received the request from, so the list reads client
/// first, nearest proxy last, and everything left of the nearest proxy's entry is what the previous hop
/// said, down to whatever the client itself wrote. The client is therefore the **right-most hop that is
/// not a trusted proxy**: walk from the connection's own peer leftwards through trusted proxies, and
/// stop at the first address that is not one. An entry that is no address (`unknown`, an obfuscated
/// `_name`, garbage) stops the walk at the trusted hop right of it: whoever is behind it cannot be
/// named, and the proxy that gave up on it is charged instead.
///
/// Why `X-Forwarded-For` wins when both are there: every common proxy appends to it, and a proxy passes
/// a field it does not maintain unchanged, whatever the client wrote in it. Reading `Forwarded` behind a
/// proxy that only sets `X-Forwarded-For` would let a client name any address; the reverse holds for a
/// proxy that only sets `Forwarded`, which must then drop `X-Forwarded-For` (README says how).
public enum ForwardedFor {
    /// The hops a request's fields name, client first: `X-Forwarded-For` over all its lines if it is
    /// there, else `Forwarded`'s elements; `nil` entries are hops that name no address. `nil` if neither
    /// field is there.
    public static func hops(in head: HTTPRequestHead) -> [PeerAddress?]? {
        let forwardedFor = head.values("X-Forwarded-For")
        if !forwardedFor.isEmpty {
            return forwardedFor.flatMap {
                $0.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            }
            .map { node(Array(trimmed($0))) }
        }
        let forwarded = head.values("Forwarded")
        guard !forwarded.isEmpty else { return nil }
        return forwarded.flatMap { elements(of: $0) }.map { element in
            element.first { $0.name == "for" }.flatMap { node($0.value) }
        }
    }

    /// The client behind `peer` (the connection's sender, a trusted proxy): the right-most hop of the
    /// fields that `isTrusted` does not trust, or the last trusted one if the walk ends first.
    public static func client(
        of head: HTTPRequestHead, behind peer: PeerAddress, isTrusted: (IPAddress) -> Bool
    ) -> PeerAddress {
        guard let hops = hops(in: head) else { return peer }
        var client = peer
        for hop in hops.reversed() {
            guard let hop, let address = hop.address else { break }
            client = hop
            if !isTrusted(address) { break }
        }
        return client
    }

    // MARK: Nodes

    /// One node: `192.0.2.7`, `192.0.2.7:4711`, `2001:db8::7`, `[2001:db8::7]` or `[2001:db8::7]:4711`;
    /// `nil` for anything else (`unknown`, `_hidden`, garbage). An obfuscated port is dropped.
    static func node(_ text: [UInt8]) -> PeerAddress? {
        guard !text.isEmpty, text.count <= 64 else { return nil }
        var host = text[...]
        var portText: ArraySlice<UInt8> = []
        if text.first == UInt8(ascii: "[") {
            guard let close = text.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = text[1..<close]
            let after = text[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return nil }
                portText = after.dropFirst()
            }
        } else if text.count(where: { $0 == UInt8(ascii: ":") }) == 1,
            let colon = text.firstIndex(of: UInt8(ascii: ":"))
        {
            host = text[..<colon]
            portText = text[(colon + 1)...]
        }
        guard let address = IPAddress(String(decoding: host, as: UTF8.self)) else { return nil }
        let port =
            portText.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            ? UInt16(String(decoding: portText, as: UTF8.self)) : nil
        return PeerAddress(address, port: port)
    }

    // MARK: Forwarded (RFC 7239)

    /// The elements of a `Forwarded` value (split at commas outside quoted strings), each its pairs
    /// (split at semicolons), names in lower case and quoted values unquoted.
    static func elements(of value: [UInt8]) -> [[(name: String, value: [UInt8])]] {
        var elements: [[(name: String, value: [UInt8])]] = [[]]
        var name: [UInt8] = []
        var text: [UInt8] = []
        var isValue = false
        var isQuoted = false
        var isEscaped = false
        func endPair() {
            let key = String(decoding: trimmed(name), as: UTF8.self).lowercased()
            if !key.isEmpty { elements[elements.count - 1].append((key, Array(trimmed(text)))) }
            name = []
            text = []
            isValue = false
        }
        for byte in value {
            if isQuoted {
                if isEscaped {
                    text.append(byte)
                    isEscaped = false
                } else if byte == UInt8(ascii: "\\") {
                    isEscaped = true
                } else if byte == UInt8(ascii: "\"") {
                    isQuoted = false
                } else {
                    text.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where isValue:
                isQuoted = true
            case UInt8(ascii: "="):
                if isValue { text.append(byte) } else { isValue = true }
            case UInt8(ascii: ";"):
                endPair()
            case UInt8(ascii: ","):
                endPair()
                elements.append([])
            default:
                if isValue { text.append(byte) } else { name.append(byte) }
            }
        }
        endPair()
        return elements
    }

    private static func trimmed(_ bytes: some Collection<UInt8>) -> ArraySlice<UInt8> {
        let array = Array(bytes)
        guard let first = array.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            let last = array.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return [] }
        return array[first...last]
    }
}
