import SetQR

/// What `setd` prints on standard output once it listens: how friends connect. Scripts and tests read
/// its lines (the port on the first), so they only ever gain lines at the end.
public enum DaemonBanner {
    /// The banner: the port, an `nc` line per address, the page's link per address when the page is
    /// served, and with `showsQRCode` the QR code of ``scanLink(addresses:port:)`` after them, drawn in
    /// half blocks for a terminal (pinned to white on black, so it reads on dark and light themes).
    /// With a `publicURL` (`--public-url`, setd behind a proxy) the page's link is that one, code and all:
    /// the addresses of this machine are not where friends find the page.
    public static func text(
        port: UInt16, addresses: [String], isHTTPEnabled: Bool, showsQRCode: Bool, publicURL: String? = nil
    ) -> String {
        var banner = "setd listening on port \(port); friends can connect with:\n"
        for address in addresses {
            let isIPv6 = address.contains(":")
            banner += isIPv6 ? "  nc \(address) \(port)    (IPv6)\n" : "  nc \(address) \(port)\n"
        }
        guard isHTTPEnabled else { return banner }
        banner += "or open the page in a browser:\n"
        let links = publicURL.map { [$0 + "/"] } ?? addresses.map { pageLink($0, port: port) }
        for link in links { banner += "  \(link)\n" }
        let scanned = publicURL.map { $0 + "/" } ?? scanLink(addresses: addresses, port: port)
        // A link too long for a QR code (a very long --host name) goes without one: the text is there.
        if showsQRCode, let link = scanned, let code = try? QRCode(text: link) {
            banner += "or scan it with a phone (\(link)):\n"
            banner += code.terminalText(ink: .lightModules, colored: true)
        }
        return banner
    }

    /// The page's link for a phone to scan: that of the first address another machine can reach, not a
    /// loopback (127.0.0.0/8, ::1, localhost) or unspecified (0.0.0.0, ::) one; `nil` if there is none.
    public static func scanLink(addresses: [String], port: UInt16) -> String? {
        addresses.first(where: isReachableFromTheLAN).map { pageLink($0, port: port) }
    }

    /// Whether a phone on the LAN could reach `address`: false for loopback and unspecified addresses.
    static func isReachableFromTheLAN(_ address: String) -> Bool {
        let lowered = address.lowercased()
        let ipv4 = lowered.hasPrefix("::ffff:") ? String(lowered.dropFirst(7)) : lowered
        return
            !(ipv4.hasPrefix("127.") || ipv4 == "0.0.0.0" || lowered == "::1" || lowered == "::"
            || lowered == "localhost")
    }

    /// `http://ADDRESS:PORT/`, with an IPv6 address in brackets.
    static func pageLink(_ address: String, port: UInt16) -> String {
        address.contains(":") ? "http://[\(address)]:\(port)/" : "http://\(address):\(port)/"
    }
}
