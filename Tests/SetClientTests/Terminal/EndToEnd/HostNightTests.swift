import Foundation
import SetProtocol
import SetTestSupport
import SetTestTraits
import Testing

/// A whole night hosted from `set-cli` in a real terminal (tmux) against a live `setd` (issue 24): the
/// host kicks a troll with a reason, locks and unlocks the room, says ready and takes it back, starts
/// the game, agrees to a friend's proposal with a bare `/new`, and reads stats and the best ratings; a
/// friend's set-cli started in the middle of a game shows the game's clock from its deal.
@Suite(.ownThread, .serialized) struct HostNightTests {
    private static let columns = 100
    private static let rows = 30

    private func cliCommand(_ cli: String, port: UInt16, name: String, room: String) -> String {
        "env -u NO_COLOR \(cli) --host 127.0.0.1 --port \(port) --name \(name) --room \(room) --no-color"
    }

    /// A player over a plain socket, named and seated in `room`; everything up to now is read.
    private func player(_ daemon: Daemon, _ name: String, room: String) throws -> TestClient {
        let client = try daemon.connect(name)
        try client.hello(name)
        let join = try client.request("JOIN \(room)")
        guard join.isOK("JOIN") else { throw ClientError(description: "\(name): \(join)") }
        return client
    }

    private func typeLine(_ tmux: Tmux, _ text: String) throws {
        try tmux.type(text)
        try tmux.press("Enter")
    }

    @Test(
        "The host kicks with a reason, locks, readies and unreadies, starts, agrees with /new, and reads stats",
        .stretchedTimeLimit(minutes: 2))
    func hostsANightFromTheTerminal() throws {
        guard let tmuxPath = Tmux.find() else { return }
        let cli = try productPath("set-cli")
        let daemon = try Daemon()
        defer { daemon.terminate() }
        let tmux = try Tmux(
            path: tmuxPath, command: cliCommand(cli, port: daemon.port, name: "alice", room: "night"),
            columns: Self.columns, rows: Self.rows)
        defer { tmux.stop() }
        try tmux.waitForScreen("alice's waiting room") { screen in
            screen.contains { $0.contains("You are the host: /start starts now.") }
        }
        let bob = try player(daemon, "bob", room: "night")
        let carl = try player(daemon, "carl", room: "night")
        let eve = try player(daemon, "eve", room: "night")

        // The troll goes, and everyone (the troll too) hears why.
        try typeLine(tmux, "/kick eve trolling the chat")
        try tmux.waitForScreen("the kick and its reason") { screen in
            screen.contains { $0.contains("alice (the host) sent eve out of the room: trolling the chat") }
        }
        #expect(try eve.expect(prefix: "KICKED ").line == "KICKED eve alice trolling the chat")
        #expect(try bob.expect(prefix: "KICKED ").line == "KICKED eve alice trolling the chat")
        // The kick holds for 10 minutes: eve may not come back or watch until alice allows it.
        let refused = try eve.request("JOIN night")
        #expect(refused.error == .denied && refused.final.contains("10 min"), "\(refused)")
        #expect(try eve.request("WATCH night").error == .denied)
        try typeLine(tmux, "/allow eve")
        try tmux.waitForScreen("the allow") { screen in
            screen.contains { $0.contains("eve may come back in now") }
        }
        #expect(
            try eve.request("WATCH night").isOK("WATCH"), "allowed back (as a spectator: the seats stay 3)")

        // Locked: nobody new gets in; unlocked: they do.
        try typeLine(tmux, "/lock")
        try tmux.waitForScreen("the lock") { screen in screen.contains { $0.contains("you locked the room") }
        }
        let dan = try daemon.connect("dan")
        try dan.hello("dan")
        #expect(try dan.request("JOIN night").error == .locked)
        try typeLine(tmux, "/unlock")
        try tmux.waitForScreen("the unlock") { screen in
            screen.contains { $0.contains("you unlocked the room") }
        }
        _ = try bob.expect(prefix: "UNLOCKED alice")

        // Ready, and not after all: the others see both.
        try typeLine(tmux, "/ready")
        _ = try bob.expect(prefix: "READY alice 1 3")
        try typeLine(tmux, "/unready")
        _ = try bob.expect(prefix: "UNREADY alice 0 3")
        try tmux.waitForScreen("not ready") { screen in
            screen.contains { $0.contains("you are not ready (0 of 3 ready)") }
        }

        try tmux.startTheGame()
        _ = try bob.expect(prefix: "STARTED ")

        // Bob proposes junior; alice's screen says what and who, and her bare /new agrees: 2 of 3 is enough.
        #expect(try bob.request("NEW mode=junior").final == "OK NEW voted 1/2")
        try tmux.waitForScreen("bob's proposal, with its options and voters") { screen in
            screen.contains { $0.contains("bob voted for a new game with mode=junior") }
                && screen.contains { $0.contains("Vote: new game 1/2") }
                && screen.contains { $0.contains("for: bob") }
                && screen.contains { $0.contains("/new agrees") }
        }
        try typeLine(tmux, "/new")
        let (_, newGame) = try carl.expect(prefix: "NEWGAME ")
        #expect(newGame == "NEWGAME alice")
        #expect(try carl.expect(prefix: "OPTIONS ").line.contains("mode=junior"))
        try tmux.waitForScreen("the junior game, waiting") { screen in
            screen.first?.contains("night · junior · waiting") == true
        }

        // Stats and the best ratings open as lists.
        try typeLine(tmux, "/stats")
        try tmux.waitForScreen("alice's stats") { screen in
            screen.contains { $0.contains("Stats of alice") }
                && screen.contains { $0.contains("no finished games yet") }
        }
        try tmux.press("q")
        try typeLine(tmux, "/top")
        try tmux.waitForScreen("the best ratings") { screen in
            screen.contains { $0.contains("Best ratings — normal") }
        }
        try tmux.press("q")
        try typeLine(tmux, "/quit")
        _ = try bob.expect(prefix: "LEFT alice")
    }

    @Test(
        "A set-cli that joins a running game shows the clock from the deal, not from 0:00",
        .stretchedTimeLimit(minutes: 2))
    func theClockCountsFromTheDeal() throws {
        guard let tmuxPath = Tmux.find() else { return }
        let cli = try productPath("set-cli")
        let daemon = try Daemon()
        defer { daemon.terminate() }
        // Bob's room is dealt at once; alice (or alice's set-cli, started again) comes a while later.
        let bob = try player(daemon, "bob", room: "clock")
        pause(3.2)
        let tmux = try Tmux(
            path: tmuxPath, command: cliCommand(cli, port: daemon.port, name: "alice", room: "clock"),
            columns: Self.columns, rows: Self.rows)
        defer { tmux.stop() }
        /// The seconds the sidebar's clock shows (`Time 0:03`), if it shows one.
        func clock(_ screen: [String]) -> Int? {
            for line in screen {
                if let match = line.firstMatch(of: /Time (\d+):(\d\d)/), let m = Int(match.1),
                    let s = Int(match.2)
                {
                    return m * 60 + s
                }
            }
            return nil
        }
        let screen = try tmux.waitForScreen("the game's clock") { clock($0) != nil }
        #expect((clock(screen) ?? 0) >= 3, "the clock started at the deal: \(screen.joined(separator: "\n"))")
        _ = try bob.expect(prefix: "JOINED alice")
    }
}
