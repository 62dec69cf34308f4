import SetQR
import SetServer
import SetServerCore
import SetSocket
import SetTestSupport
import SetTestTraits
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The banner setd prints once it listens: the lines scripts read, and the QR code of the page's link
/// that only a terminal gets.
@Suite(.ownThread) struct DaemonBannerTests {
    static let addresses = ["192.168.1.20", "fd00::2", "127.0.0.1", "::1"]

    /// The lines that scripts and tests read, exactly as they were before the QR code.
    static let plainBanner = """
        setd listening on port 7777; friends can connect with:
          nc 192.168.1.20 7777
          nc fd00::2 7777    (IPv6)
          nc 127.0.0.1 7777
          nc ::1 7777    (IPv6)
        or open the page in a browser:
          http://192.168.1.20:7777/
          http://[fd00::2]:7777/
          http://127.0.0.1:7777/
          http://[::1]:7777/

        """

    @Test func noQRParsesAndTheCodeIsOnByDefault() throws {
        #expect(try DaemonCommand.parse([]) == .run(ServerConfiguration(), showsQRCode: true))
        #expect(try DaemonCommand.parse(["--no-qr"]) == .run(ServerConfiguration(), showsQRCode: false))
        #expect(DaemonCommand.usage.contains("--no-qr"))
    }

    @Test func withoutTheCodeTheBannerIsItsLinks() {
        let banner = DaemonBanner.text(
            port: 7777, addresses: Self.addresses, isHTTPEnabled: true, showsQRCode: false)
        #expect(banner == Self.plainBanner)
        let noHTTP = DaemonBanner.text(
            port: 7777, addresses: Self.addresses, isHTTPEnabled: false, showsQRCode: true)
        let ncLines = Self.plainBanner[..<Self.plainBanner.firstRange(of: "or open the page")!.lowerBound]
        #expect(noHTTP == ncLines, "no page, no links and no code")
    }

    /// The code follows the links, unchanged, and holds the page link of the first LAN address.
    @Test func theCodeFollowsTheLinksAndHoldsTheFirstLANPageLink() throws {
        let banner = DaemonBanner.text(
            port: 7777, addresses: Self.addresses, isHTTPEnabled: true, showsQRCode: true)
        #expect(banner.hasPrefix(Self.plainBanner))
        let code = try QRCode(text: "http://192.168.1.20:7777/")
        #expect(
            banner.dropFirst(Self.plainBanner.count)
                == "or scan it with a phone (http://192.168.1.20:7777/):\n"
                + code.terminalText(ink: .lightModules, colored: true))
    }

    @Test func onlyAnAddressAPhoneCanReachGetsACode() {
        #expect(DaemonBanner.scanLink(addresses: ["127.0.0.1", "::1"], port: 7777) == nil)
        #expect(
            DaemonBanner.scanLink(addresses: ["127.0.1.1", "::ffff:127.0.0.1", "localhost"], port: 1) == nil)
        #expect(DaemonBanner.scanLink(addresses: ["0.0.0.0", "::"], port: 7777) == nil)
        #expect(
            DaemonBanner.scanLink(addresses: ["::1", "fd00::2", "10.0.0.5"], port: 80)
                == "http://[fd00::2]:80/")
        #expect(
            DaemonBanner.scanLink(addresses: ["127.0.0.1", "10.0.0.5"], port: 7777) == "http://10.0.0.5:7777/"
        )
        let loopback = DaemonBanner.text(
            port: 7777, addresses: ["127.0.0.1"], isHTTPEnabled: true, showsQRCode: true)
        #expect(!loopback.contains("scan"), "\(loopback)")
    }

    /// Behind a proxy the page is where `--public-url` says, not at this machine's addresses: the link
    /// and its code are that one (even on a server with only a loopback address), the nc lines stay.
    @Test func aPublicURLIsThePagesLinkAndItsCode() throws {
        let banner = DaemonBanner.text(
            port: 7777, addresses: ["127.0.0.1", "::1"], isHTTPEnabled: true, showsQRCode: true,
            publicURL: "https://set.example.org")
        let links = """
            setd listening on port 7777; friends can connect with:
              nc 127.0.0.1 7777
              nc ::1 7777    (IPv6)
            or open the page in a browser:
              https://set.example.org/

            """
        #expect(banner.hasPrefix(links), "\(banner)")
        let code = try QRCode(text: "https://set.example.org/")
        #expect(
            banner.dropFirst(links.count)
                == "or scan it with a phone (https://set.example.org/):\n"
                + code.terminalText(ink: .lightModules, colored: true))
    }

    @Test func trustProxyAndPublicURLParseAndBadValuesAreRefusedWithTheReason() throws {
        guard
            case .run(let configuration, _, _) = try DaemonCommand.parse([
                "--trust-proxy", "127.0.0.1", "--trust-proxy", "10.0.0.0/8", "--trust-proxy", "fd00::/8",
                "--public-url", "HTTPS://Set.Example.org/",
            ])
        else {
            Issue.record("setd did not parse to a run")
            return
        }
        #expect(
            configuration.trustedProxies.map(\.description) == ["127.0.0.1/32", "10.0.0.0/8", "fd00::/8"])
        #expect(configuration.publicURL == "https://set.example.org")
        #expect(
            try DaemonCommand.parse([]) == .run(ServerConfiguration(), showsQRCode: true), "none by default")
        for (arguments, reason) in [
            (["--trust-proxy", "localhost"], "--trust-proxy takes an address or a CIDR block"),
            (["--trust-proxy", "10.0.0.0/33"], "not '10.0.0.0/33'"),
            (["--trust-proxy"], "--trust-proxy needs a value"),
            (["--public-url", "set.example.org"], "--public-url takes the page's public address"),
            (["--public-url", "https://example.org/set/"], "no path"),
            (["--public-url", "https://"], "--public-url takes"),
            (["--public-url", "ftp://x"], "--public-url takes"),
        ] {
            do {
                _ = try DaemonCommand.parse(arguments)
                Issue.record("\(arguments) was accepted")
            } catch {
                #expect(error.description.contains(reason), "\(arguments): \(error)")
            }
        }
        #expect(
            DaemonCommand.usage.contains("--trust-proxy ADDR[/BITS]")
                && DaemonCommand.usage.contains("--public-url URL"))
    }

    /// setd itself: on a terminal (a pseudo-terminal from `script`) it draws the code; with `--no-qr`,
    /// or with its output in a pipe, it prints the links alone. It listens on a LAN address of this
    /// machine (nothing connects to it); on a machine with none, on 127.0.0.1, where no code is due.
    @Test func setdDrawsTheCodeOnATerminalOnly() throws {
        guard let script = programOnPath("script") else {
            Issue.record(
                "script (util-linux, package bsdutils) is not installed; the test runs setd on a terminal with it"
            )
            return
        }
        let host =
            Socket.localAddresses().first { DaemonBanner.scanLink(addresses: [$0], port: 1) != nil }
            ?? "127.0.0.1"
        let setd = try setdPath()
        let arguments = ["--port", "0", "--host", host, "--log-level", "error"]
        for (onTerminal, noQR) in [(true, false), (true, true), (false, false)] {
            let all = arguments + (noQR ? ["--no-qr"] : [])
            let child =
                onTerminal
                ? try Child(
                    script,
                    ["-qfec", "exec " + ([setd] + all).map { "'\($0)'" }.joined(separator: " "), "/dev/null"])
                : try Child(setd, all)
            defer { child.stop() }
            let label = "\(onTerminal ? "terminal" : "pipe")\(noQR ? ", --no-qr" : ""), host \(host)"
            // The terminal turns each newline into a carriage return and a newline.
            let banner = child.output(within: 15) { Self.isComplete($0, host: host) }
                .replacing("\r\n", with: "\n")
            guard let port = Self.port(in: banner) else {
                Issue.record("\(label): no 'listening on port N' in \(banner)")
                continue
            }
            let expected = DaemonBanner.text(
                port: port, addresses: [host], isHTTPEnabled: true, showsQRCode: onTerminal && !noQR)
            #expect(banner == expected, "\(label)")
            #expect(banner.contains("█") == (onTerminal && !noQR && host != "127.0.0.1"), "\(label)")
            let pid = onTerminal ? descendant(of: child.pid, named: "setd") : child.pid
            if let pid { kill(pid, SIGTERM) }
            #expect(child.wait(timeout: 10) == 0, "\(label): setd stops on SIGTERM")
        }
    }

    /// Whether `text` holds a whole banner: its links, and the code if one was begun.
    static func isComplete(_ text: String, host: String) -> Bool {
        let text = text.replacing("\r\n", with: "\n")
        guard let port = port(in: text) else { return false }
        let plain = DaemonBanner.text(port: port, addresses: [host], isHTTPEnabled: true, showsQRCode: false)
        let drawn = DaemonBanner.text(port: port, addresses: [host], isHTTPEnabled: true, showsQRCode: true)
        return text == drawn || (text == plain && !text.contains("scan"))
    }

    static func port(in banner: String) -> UInt16? {
        guard let range = banner.firstRange(of: "listening on port ") else { return nil }
        return UInt16(banner[range.upperBound...].prefix { $0.isNumber })
    }
}
