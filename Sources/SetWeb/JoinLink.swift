import SetQR

/// The link that joins a room, as `GET /qr.svg` draws it and the page's Invite shows it: the page's
/// origin, then `/?room=NAME`. The origin is `--public-url` when setd has one (behind a proxy the
/// request's `Host` is the proxy's idea of setd, not the players'), else `http://` and the request's
/// `Host`, the address the asking browser reached setd at.
///
/// Both parts come from outside, and a QR code is something people trust enough to open, so each is
/// checked to be what it says: a room name as protocol.md's names are, and a `Host` that is a host
/// name, an IPv4 address or a bracketed IPv6 address, with an optional port — never a path, a user, a
/// percent sign or a space that would make the code open somewhere else.
public enum JoinLink {
    /// Why a link cannot be made, in words for the body of the `400`.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// No `room=`, more than one, or one that is not a room name.
        case badRoom
        /// No `Host` (HTTP/1.0 without one, and no `--public-url`), or one that is not a host.
        case badHost
        /// A link longer than a QR code of versions 1–10 holds (a very long host name).
        case tooLong(byteCount: Int)

        /// The reason, for the body of the `400`.
        public var description: String {
            switch self {
            case .badRoom:
                return
                    "/qr.svg needs ?room=NAME once, a room name of 1-16 letters, digits, _ or - (not - alone)"
            case .badHost:
                return
                    "the request's Host is not a host name, IPv4 address or [IPv6] address with an optional port"
            case .tooLong(let count):
                return
                    "the link is \(count) bytes, more than a QR code here holds (\(QRCode.maximumByteCount))"
            }
        }
    }

    /// The longest `Host` value taken: a DNS name is at most 253 bytes, and a port adds 6.
    static let maximumHostLength = 259

    /// The join link of the room that `target`'s query names (`/qr.svg?room=fun`), reached at `host`
    /// (the request's `Host`, nil when it had none) or at `publicURL` when that is set.
    public static func link(target: [UInt8], host: [UInt8]?, publicURL: String?) throws(Refusal) -> String {
        guard let room = roomName(inQueryOf: target) else { throw .badRoom }
        let origin: String
        if let publicURL {
            origin = publicURL
        } else {
            guard let host, let valid = validHost(host) else { throw .badHost }
            origin = "http://" + valid
        }
        return origin + "/?room=" + room
    }

    /// The value of the one `room=` parameter of the target's query if it is a room name (protocol.md:
    /// 1–16 of `A–Z a–z 0–9 _ -`, not `-` alone, so it needs no escaping); nil if there is none, more
    /// than one, or it is not a name. Other parameters are ignored, as `GET /` ignores them.
    static func roomName(inQueryOf target: [UInt8]) -> String? {
        guard let mark = target.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        let rooms = target[(mark + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
            .filter { $0.starts(with: Array("room=".utf8)) }
        guard rooms.count == 1 else { return nil }
        let value = rooms[0].dropFirst(5)
        guard (1...16).contains(value.count), value.allSatisfy(isNameByte),
            !value.elementsEqual([UInt8(ascii: "-")])
        else { return nil }
        return String(decoding: value, as: UTF8.self)
    }

    /// `host` in lower case if it is `reg-name [":" port]`, `IPv4 [":" port]` or `"[" IPv6 "]" [":" port]`
    /// (RFC 9110's `Host`, without user info, percent-encoding or IPvFuture); nil otherwise.
    static func validHost(_ host: [UInt8]) -> String? {
        guard (1...maximumHostLength).contains(host.count) else { return nil }
        let lowered = host.map(HTTPBytes.lowercased)
        var name: ArraySlice<UInt8>
        var port: ArraySlice<UInt8>?
        if lowered.first == UInt8(ascii: "[") {
            guard let close = lowered.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let inside = lowered[1..<close]
            guard inside.count >= 2, inside.contains(UInt8(ascii: ":")),
                inside.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { return nil }
            let after = lowered[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return nil }
                port = after.dropFirst()
            }
            name = lowered[...close]
        } else {
            let parts = lowered.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            name = parts[0]
            port = parts.count == 2 ? parts[1] : nil
            let labels = name.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            // A name may end with the root's dot; no label is empty otherwise, and none starts or ends with
            // a hyphen (RFC 1123).
            let named = labels.last?.isEmpty == true && labels.count > 1 ? labels.dropLast() : labels[...]
            guard
                named.allSatisfy({ label in
                    (1...63).contains(label.count) && label.allSatisfy(isLabelByte)
                        && label.first != UInt8(ascii: "-") && label.last != UInt8(ascii: "-")
                })
            else { return nil }
        }
        if let port {
            guard (1...5).contains(port.count), port.allSatisfy(isDigit),
                let number = Int(String(decoding: port, as: UTF8.self)), (1...65535).contains(number)
            else { return nil }
        }
        return String(decoding: lowered, as: UTF8.self)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    private static func isLabelByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || byte == UInt8(ascii: "-")
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-")
    }
}
