import Dispatch
import SetTestSupport
import SetTestTraits
import Testing

@testable import SetBots

extension Bots {
    /// Runs a small fleet against a real `setd` started on a free port.
    @Suite(.ownThread, .serialized) struct FleetEndToEndTests {
        @Test(.stretchedTimeLimit(minutes: 1))
        func aSmallFleetPlaysCleanly() async throws {
            let daemon = try Daemon(["--seed", "5"])
            defer { daemon.terminate() }
            let port = daemon.port

            var options = BenchOptions()
            options.port = port
            options.bots = 6
            options.rooms = 2
            options.stop = .duration(4)
            options.think = 50...300
            options.mistakes = 0.1
            options.resumeEvery = 2
            options.chatEvery = 1
            options.seed = 7
            options.isQuiet = true
            let report = await BotFleet(options: options).run()

            #expect(report.stats.sets > 0)
            #expect(report.stats.protocolErrors == 0, "\(report.stats.protocolErrorSamples)")
            #expect(report.isClean, "\(report.text)")
            #expect(report.stats.peakConnected == 6)
            #expect(report.connectionsHeld >= 1)
            #expect(report.stats.claimLatency.count > 0)
            #expect(report.stats.fanoutLatency.count > 0)
            #expect(report.stats.connects > 6, "bots dropped and came back")
            #expect(report.stats.connected == 0, "every bot said goodbye")
        }

        @Test(.stretchedTimeLimit(minutes: 1))
        func matchismoBotsTakeTurns() async throws {
            let daemon = try Daemon(["--seed", "5"])
            defer { daemon.terminate() }
            let port = daemon.port

            var options = BenchOptions()
            options.port = port
            options.bots = 4
            options.rooms = 2
            options.game = .matchismo
            options.stop = .duration(3)
            options.think = 10...50
            options.mistakes = 0.1
            options.resumeEvery = 0
            options.seed = 8
            options.isQuiet = true
            let report = await BotFleet(options: options).run()

            #expect(report.stats.claims > 10)
            #expect(report.stats.protocolErrors == 0, "\(report.stats.protocolErrorSamples)")
            #expect(report.isClean, "\(report.text)")
        }

        /// A person's room made to wait for READY (as set-cli and the page make them), with `host` in it.
        private func waitingRoom(_ daemon: Daemon, _ room: String) throws -> TestClient {
            let host = try daemon.connect("host")
            try host.hello("ann")
            #expect(try host.request("JOIN \(room) start=ready").isOK("JOIN"))
            return host
        }

        private func friends(_ port: UInt16, room: String, seconds: Double) -> BenchOptions {
            var options = BenchOptions()
            options.port = port
            options.bots = 3
            options.rooms = 1
            options.roomName = room
            options.stop = .duration(seconds)
            options.think = 50...300
            options.mistakes = 0
            options.resumeEvery = 0
            options.chatEvery = 0
            options.seed = 9
            options.isQuiet = true
            return options
        }

        @Test(
            "Bots in your waiting room say READY, and play once you are ready too",
            .stretchedTimeLimit(minutes: 1))
        func friendsWhoAreBotsSayReady() throws {
            let daemon = try Daemon(["--seed", "5"])
            defer { daemon.terminate() }
            let ann = try waitingRoom(daemon, "botnight")
            let options = friends(daemon.port, room: "botnight", seconds: 6)
            // The fleet runs on its own queues while this thread plays ann with blocking reads (not an
            // `async let`: a blocked test thread could starve the task that starts the fleet).
            let done = DispatchSemaphore(value: 0)
            let box = ReportBox()
            let fleet = BotFleet(options: options)
            fleet.run { report in
                box.report = report
                done.signal()
            }
            // Ann is ready once her three friends are: the countdown starts, then the deal.
            for _ in 0..<3 { _ = try ann.expect(prefix: "READY ") }
            #expect(try ann.request("READY").lines.contains("COUNTDOWN 3"))
            try withExtendedLifetime(fleet) {
                try #require(done.wait(timeout: .now() + 30) == .success, "the fleet did not end")
            }
            let finished = try #require(box.report)
            #expect(finished.stats.readies == 3)
            #expect(finished.stats.sets > 0, "\(finished.text)")
            #expect(finished.isClean, "\(finished.text)")
        }

        @Test(
            "With --wait-for-host the bots wait; a run without a set is not clean and says why",
            .stretchedTimeLimit(minutes: 1))
        func waitingForTheHostIsNotAQuietSuccess() async throws {
            let daemon = try Daemon(["--seed", "5"])
            defer { daemon.terminate() }
            let ann = try waitingRoom(daemon, "botnight")
            var options = friends(daemon.port, room: "botnight", seconds: 2)
            options.waitsForHost = true
            let report = await BotFleet(options: options).run()
            #expect(report.stats.readies == 0 && report.stats.sets == 0)
            #expect(!report.isClean)
            #expect(
                report.noSetsReason?.contains("room botnight waited for its host to START it") == true,
                "\(report.text)")
            _ = ann
        }

        @Test(
            "A load test over more rooms than one address may make plays cleanly from loopback addresses",
            .stretchedTimeLimit(minutes: 1))
        func roomsSpreadOverLoopbackAddresses() async throws {
            // A default setd: one address may make 20 rooms.
            let daemon = try Daemon(["--seed", "5"])
            defer { daemon.terminate() }
            var options = BenchOptions()
            options.port = daemon.port
            options.bots = 30
            options.rooms = 30
            options.stop = .duration(3)
            options.think = 50...300
            options.resumeEvery = 0
            options.chatEvery = 0
            options.seed = 10
            options.isQuiet = true
            let spread = await BotFleet(options: options).run()
            #expect(spread.stats.errorCodes["TOOMANYROOMS"] == nil, "\(spread.text)")
            #expect(spread.isClean, "\(spread.text)")
            // From one address the server refuses the 21st room on, and its log says so, once a second.
            options.sources = 1
            options.stop = .duration(1.5)
            let crowded = await BotFleet(options: options).run()
            #expect((crowded.stats.errorCodes["TOOMANYROOMS"] ?? 0) >= 10, "\(crowded.text)")
            #expect(!crowded.isClean)
            daemon.terminate()
            let refusals = daemon.log.split(separator: "\n").filter { $0.contains("refuse-room") }
            #expect(!refusals.isEmpty && refusals.count <= 3, "\(refusals)")
            #expect(refusals.first?.contains("rooms made from your address are open") == true, "\(refusals)")
        }
    }
}

/// Carries a fleet's report from its control queue to the test waiting on a semaphore.
private final class ReportBox: @unchecked Sendable {
    var report: BenchReport?
}
