import SetServer
import SetTestSupport
import SetTestTraits
import Testing

/// `--no-http` on the command line, and the banner's links. Needs a real process: the banner is what the
/// `setd` executable prints, and its links must reach the daemon it started.
@Suite(.ownThread) struct WebDaemonTests {
    @Test func noHTTPTurnsThePageOffAndHTTPIsOnByDefault() throws {
        guard case .run(let defaults, _, _) = try DaemonCommand.parse([]),
            case .run(let off, _, _) = try DaemonCommand.parse(["--no-http", "--port", "0"])
        else {
            Issue.record("setd did not parse to a run")
            return
        }
        #expect(defaults.isHTTPEnabled && !off.isHTTPEnabled)
        #expect(off.port == 0)
    }

    @Test func theBannerPrintsThePageLinkBesideTheNcLineAndNotWithNoHTTP() throws {
        let daemon = try Daemon()
        let banner = daemon.child.output(within: 5) { $0.contains("http://") }
        #expect(banner.contains("nc 127.0.0.1 \(daemon.port)\n"), "\(banner)")
        #expect(banner.contains("http://127.0.0.1:\(daemon.port)/\n"), "\(banner)")
        // The real daemon serves the page and still greets nc.
        #expect(try HTTPTestResponse.get(port: daemon.port, "/").status == 200)
        let nc = try daemon.connect("nc")
        #expect(try nc.request("PING").final == "OK PING")
        _ = daemon.terminate()

        let plain = try Daemon(["--no-http"])
        let plainBanner = plain.child.output(within: 1) { $0.contains("nc 127.0.0.1") }
        #expect(!plainBanner.contains("http://"), "\(plainBanner)")
        _ = plain.terminate()
    }
}
