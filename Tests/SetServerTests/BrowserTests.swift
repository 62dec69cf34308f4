import Foundation
import SetTestSupport
import XCTest

/// The browser page in a real headless Chromium, beside a player on a raw socket, against the built
/// `setd`: `Tests/Browser/play_in_browser.py` (selenium) joins through `?room=&name=`, claims a set by
/// clicking its cards, sees the socket player's set, chats, reloads into its seat, and takes screenshots
/// at phone and laptop widths into `.build/browser-screenshots/`.
///
/// Skipped, with the reason, only where the browser cannot run: python3, selenium, chromium or
/// chromedriver missing (`.ci/run` installs them), or Chromium not starting.
final class BrowserTests: XCTestCase {
    /// The script's exit status when the browser cannot run here (the reason is its output).
    private static let skipStatus: Int32 = 77
    /// The script bounds itself to a minute; this leaves room for Chromium starting on a loaded machine.
    private static let timeout = 90.0

    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testThePageClaimsASetAndSeesAnNcPlayersSet() throws {
        guard let python = programOnPath("python3") else { throw XCTSkip("python3 is not installed") }
        for program in ["chromium", "chromedriver"] where programOnPath(program) == nil {
            throw XCTSkip(
                "\(program) is not installed (Debian: chromium chromium-driver; .ci/run installs them)")
        }
        let script = Self.packageRoot.appendingPathComponent("Tests/Browser/play_in_browser.py").path
        let screenshots = Self.packageRoot.appendingPathComponent(".build/browser-screenshots").path
        for name in ["page-375x812.png", "page-1280x800.png"] {
            try? FileManager.default.removeItem(atPath: screenshots + "/" + name)  // not last run's
        }
        // A fixed seed deals boards with a set on them for both claims.
        let daemon = try Daemon(["--seed", "2026"])
        defer { daemon.terminate() }

        let child = try Child(
            python, [script, "--port", String(daemon.port), "--room", "fun", "--out", screenshots])
        guard let status = child.wait(timeout: Self.timeout) else {
            child.stop()
            XCTFail("the browser test took over \(Self.timeout) s: \(child.output) \(child.errors)")
            return
        }
        let report = child.output(within: 2) + child.errors(within: 2)
        if status == Self.skipStatus { throw XCTSkip(report) }
        XCTAssertEqual(status, 0, "play_in_browser.py: \(report)\nsetd log: \(daemon.log)")
        for name in ["page-375x812.png", "page-1280x800.png"] {
            let png = readFile(screenshots + "/" + name) ?? []
            XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "\(name) is not a PNG screenshot")
        }
    }
}
