import Foundation
import Testing

@testable import SetBots

extension Bots {
    /// Runs a small fleet against a real `setd` started on a free port.
    @Suite(.serialized) struct FleetEndToEndTests {
        /// The built `setd` next to the test bundle (SwiftPM builds every product before testing).
        static var setdPath: String? {
            let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            let candidates: [String?] = [
                ProcessInfo.processInfo.environment["SETD_PATH"], here.appendingPathComponent("setd").path,
                here.deletingLastPathComponent().appendingPathComponent("setd").path,
            ]
            return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }

        /// A `setd` process and the port it listens on.
        final class Daemon: @unchecked Sendable {
            let process = Process()
            private let lock = NSLock()
            private var output = ""
            private let ready = DispatchSemaphore(value: 0)

            init(path: String) throws {
                process.executableURL = URL(fileURLWithPath: path)
                process.arguments = ["--port", "0", "--seed", "5"]
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = FileHandle.nullDevice
                pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                    let data = handle.availableData
                    guard let self, !data.isEmpty else { return }
                    self.lock.lock()
                    self.output += String(decoding: data, as: UTF8.self)
                    let done = self.output.contains("\n")
                    self.lock.unlock()
                    if done { self.ready.signal() }
                }
                try process.run()
            }

            /// The port from `listening on port N`, waiting up to 10 seconds for it.
            func port() -> UInt16? {
                guard ready.wait(timeout: .now() + 10) == .success else { return nil }
                lock.lock()
                defer { lock.unlock() }
                guard let range = output.range(of: "listening on port ") else { return nil }
                return UInt16(output[range.upperBound...].prefix { $0.isNumber })
            }

            func stop() {
                if process.isRunning { process.terminate() }
                process.waitUntilExit()
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func aSmallFleetPlaysCleanly() async throws {
            let path = try #require(Self.setdPath, "build setd first: swift build --product setd")
            let daemon = try Daemon(path: path)
            defer { daemon.stop() }
            let port = try #require(daemon.port(), "setd did not say which port it listens on")

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
            let path = try #require(Self.setdPath)
            let daemon = try Daemon(path: path)
            defer { daemon.stop() }
            let port = try #require(daemon.port())

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
