import Foundation
import SetTestSupport
import SetTestTraits
import Testing

/// The browser page in a real headless Chromium, beside players on raw sockets, against the built
/// `setd`: `Tests/Browser/play_in_browser.py` (selenium) joins through `?room=&name=`, claims a set by
/// clicking its cards, sees the socket player's set, chats, reloads into its seat;
/// `Tests/Browser/host_in_browser.py` hosts a whole night from the page; `Tests/Browser/tv_in_browser.py`
/// watches a game on the TV table at 1920×1080 and reads its QR code (and the page's Invite's) with
/// zbarimg; `Tests/Browser/replay_in_browser.py` replays a game in the viewer. They take screenshots into `.build/browser-screenshots/`.
///
/// Cancelled, with the reason, only where the browser cannot run: python3, selenium, chromium or
/// chromedriver missing (`.ci/run` installs them), or Chromium not starting. Each runs on its own thread
/// (most of its time is spent waiting for Chromium), beside the rest of the run.
@Suite(.ownThread(.browser)) struct BrowserTests {
    /// The script's exit status when the browser cannot run here (the reason is its output).
    private static let skipStatus: Int32 = 77
    /// The scripts bound themselves (a minute, and 100 s for the host's night); this leaves room for
    /// Chromium starting on a loaded machine.
    private static let timeout = 150.0

    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func thePageClaimsASetAndSeesAnNcPlayersSet() throws {
        try runBrowserScript("play_in_browser.py", screenshots: ["page-375x812.png", "page-1280x800.png"])
    }

    /// `Tests/Browser/host_in_browser.py`: a whole night hosted from the page (issue 24) — a spectator
    /// link without a name, the host's actions on a player's row and in the room menu, ready and not
    /// ready, the vote and its Agree, How to play with an example from the board, keys that claim, the
    /// sound, the strip that never moves the cards, stats, best players, history, the score sheet's
    /// rounding, leaving that asks first, and on a phone the tips, set-cli's letter order and the chat
    /// badge.
    @Test func aHostRunsTheNightFromThePage() throws {
        try runBrowserScript(
            "host_in_browser.py",
            screenshots: [
                "page-kick.png", "page-room-menu.png", "page-how-to-play.png", "page-vote.png",
                "page-phone-tips.png", "page-phone-badge.png",
            ])
    }

    /// `Tests/Browser/tv_in_browser.py`: the TV table (issue 27) of a room not made yet, then made by a
    /// socket player: the waiting room, the countdown, the board card for card, a set taken (the score,
    /// the cards and who took them, the ring where they were), a vote, the standings at the end, a
    /// Matchismo room, and the page's Invite; the TV's and the Invite's QR codes, read by zbarimg from
    /// screenshots, are the room's join link.
    @Test func theTVTableShowsAGameThatSocketPlayersPlay() throws {
        try runBrowserScript(
            "tv_in_browser.py", screenshots: ["tv.png", "tv-over.png", "tv-matchismo.png", "page-invite.png"])
    }

    /// `Tests/Browser/decks_in_browser.py`: every deck of issue 26 drawn from protocol.md's codes — 4Set's
    /// fourth values, MegaSet's borders on 16 and 48 cards, memory's face-down cards — and claims of 4
    /// and 6 cards and of MegaSet's positions past z sent as CHOOSE.
    @Test func thePageDrawsEveryDeck() throws {
        try runBrowserScript(
            "decks_in_browser.py",
            screenshots: [
                "page-4set.png", "page-megaset.png", "page-megaset-48.png", "page-memory.png",
                "page-ghostset.png",
            ])
    }

    /// `Tests/Browser/timed_in_browser.py`: a timed practice game made from the lobby (first to 3 sets,
    /// practice), its clock and target, Pause (the cards hidden, the clock standing, `CLOCK … paused` to
    /// everyone) and Resume, the game over at the third set, then a rated 1-minute game chosen beside New
    /// game whose clock counts down with no Pause.
    @Test func thePagePlaysATimedPracticeGameAndPausesIt() throws {
        try runBrowserScript(
            "timed_in_browser.py", screenshots: ["page-timed.png", "page-paused.png", "page-minutes.png"])
    }

    /// `Tests/Browser/replay_in_browser.py`: a whole game played by socket players, then the replay
    /// viewer (issue 25) linked from the watcher's Game over dialog, its boards checked against the
    /// record rebuilt by the rules at the deal, a set, a step opened by link, the timeline, a step back
    /// and the end.
    @Test func theReplayViewerStepsThroughAGamePlayedOnTheServer() throws {
        try runBrowserScript("replay_in_browser.py", screenshots: ["replay.png"])
    }

    private func runBrowserScript(_ name: String, screenshots names: [String]) throws {
        guard let python = programOnPath("python3") else { try Test.cancel("python3 is not installed") }
        for program in ["chromium", "chromedriver"] where programOnPath(program) == nil {
            try Test.cancel(
                "\(program) is not installed (Debian: chromium chromium-driver; .ci/run installs them)")
        }
        let script = Self.packageRoot.appendingPathComponent("Tests/Browser/\(name)").path
        let screenshots = Self.packageRoot.appendingPathComponent(".build/browser-screenshots").path
        for name in names {
            try? FileManager.default.removeItem(atPath: screenshots + "/" + name)  // not last run's
        }
        // A fixed seed deals boards with a set on them for every claim the scripts make.
        let daemon = try Daemon(["--seed", "2026"])
        defer { daemon.terminate() }

        let child = try Child(python, [script, "--port", String(daemon.port), "--out", screenshots])
        guard let status = child.wait(timeout: Self.timeout) else {
            child.stop()
            Issue.record("\(name) took over \(Self.timeout) s: \(child.output) \(child.errors)")
            return
        }
        let report = child.output(within: 2) + child.errors(within: 2)
        if status == Self.skipStatus { try Test.cancel(Comment(rawValue: report)) }
        #expect(status == 0, "\(name): \(report)\nsetd log: \(daemon.log)")
        for name in names {
            let png = readFile(screenshots + "/" + name) ?? []
            #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47], "\(name) is not a PNG screenshot")
        }
    }
}
