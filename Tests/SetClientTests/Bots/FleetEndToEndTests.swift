import SetTestSupport
import Testing

@testable import SetBots

extension Bots {
    /// Runs a small fleet against a real `setd` started on a free port.
    @Suite(.serialized) struct FleetEndToEndTests {
        @Test(.timeLimit(.minutes(1)))
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

        @Test(.timeLimit(.minutes(1)))
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
    }
}
