import SetProtocol
import Testing

@testable import SetBots

extension Bots {
    @Suite struct BenchOptionsTests {
        @Test func parsesTheIssueCommandLine() throws {
            let options = try BenchOptions.parse(
                "--host 127.0.0.1 --port 7001 --bots 100 --rooms 10 --games 5 --think 250-900 --mistakes 0.1 --game matchismo --seed 42 --json"
                    .split(separator: " ").map(String.init))
            #expect(options.host == "127.0.0.1")
            #expect(options.port == 7001)
            #expect(options.bots == 100)
            #expect(options.rooms == 10)
            #expect(options.stop == .games(5))
            #expect(options.think == 250...900)
            #expect(options.mistakes == 0.1)
            #expect(options.game == .matchismo)
            #expect(options.seed == 42)
            #expect(options.json)
            #expect(!options.isFlatOut)
        }

        @Test func defaultsToSixtySecondsOfHumanPlay() throws {
            let options = try BenchOptions.parse(["--bots", "4", "--rooms", "2"])
            #expect(options.stop == .duration(60))
            #expect(options.think == 2000...8000)
            #expect(options.port == 7777)
            #expect(options.game == .set)
            #expect(options.commandRate < 100)
        }

        @Test("--room alone puts every bot in one room; --wait-for-host leaves the start to the host")
        func friendsWhoAreBots() throws {
            let options = try BenchOptions.parse(
                "--bots 6 --room botnight --think 2000-6000 --duration 300".split(separator: " ").map(
                    String.init))
            #expect(options.rooms == 1 && options.roomName == "botnight")
            #expect(!options.waitsForHost)
            let waiting = try BenchOptions.parse(["--bots", "2", "--room", "n", "--wait-for-host"])
            #expect(waiting.waitsForHost)
        }

        @Test("Against loopback the bots spread over 250 addresses, so 20 rooms an address make 5000")
        func loopbackSources() throws {
            let local = try BenchOptions.parse(["--bots", "1000", "--rooms", "100"])
            #expect(local.sourceAddresses.count == 250)
            #expect(local.sourceAddresses.prefix(3) == ["127.0.0.1", "127.0.0.2", "127.0.0.3"])
            #expect(local.sourceAddresses.last == "127.0.0.250")
            #expect(Set(local.sourceAddresses).count == 250)
            let lan = try BenchOptions.parse(["--bots", "4", "--rooms", "2", "--host", "192.168.1.20"])
            #expect(lan.sourceAddresses.isEmpty, "another machine's server: the system picks")
            let one = try BenchOptions.parse(["--bots", "4", "--rooms", "2", "--sources", "1"])
            #expect(one.sourceAddresses.isEmpty)
            let many = try BenchOptions.parse(["--bots", "4", "--rooms", "2", "--sources", "300"])
            #expect(many.sourceAddresses[255] == "127.0.1.0" && many.sourceAddresses.count == 300)
        }

        @Test func thinkZeroIsFlatOut() throws {
            let options = try BenchOptions.parse([
                "--bots", "4", "--rooms", "1", "--think", "0", "--duration", "2.5",
            ])
            #expect(options.think == 0...0)
            #expect(options.isFlatOut)
            #expect(options.stop == .duration(2.5))
            #expect(try BenchOptions.parseThink("300") == 300...300)
        }

        @Test(arguments: [
            ["--rooms", "2"],
            ["--bots", "2"],
            ["--bots", "2", "--rooms", "3"],
            ["--bots", "2", "--rooms", "1", "--duration", "5", "--games", "2"],
            ["--bots", "2", "--rooms", "1", "--think", "900-100"],
            ["--bots", "2", "--rooms", "1", "--think", "fast"],
            ["--bots", "2", "--rooms", "1", "--mistakes", "1.5"],
            ["--bots", "2", "--rooms", "1", "--game", "poker"],
            ["--bots", "2", "--rooms", "1", "--command-rate", "150"],
            ["--bots", "2", "--rooms", "2", "--room", "friday"],
            ["--bots", "2", "--room", "friday", "--host", "10.0.0.2", "--sources", "8"],
            ["--bots", "2", "--room", "friday", "--sources", "0"],
            ["--bots", "2", "--rooms", "1", "--room", "bad name!"],
            ["--bots", "2", "--rooms", "1", "--port"],
            ["--bots", "2", "--rooms", "1", "--frobnicate"],
            ["--bots", "0", "--rooms", "1"],
        ])
        func rejectsBadCommandLines(_ arguments: [String]) {
            #expect(throws: BenchOptionsError.self) { try BenchOptions.parse(arguments) }
        }

        @Test func helpIsNotAMistake() {
            do {
                _ = try BenchOptions.parse(["--help"])
                Issue.record("--help should stop parsing")
            } catch {
                #expect(error.isHelp)
                #expect(error.message.contains("--bots N"))
            }
        }

        @Test func namesStayWithinTheProtocolLimit() {
            var options = BenchOptions()
            options.rooms = 1000
            let config = BotConfig(options: options, tag: BotConfig.makeTag(from: 9))
            #expect(config.tag.count == 4)
            for name in [config.botName(99_999, generation: 9999), config.roomName(99_999)] {
                #expect(name.utf8.count <= 16, "\(name)")
                #expect(TextRules.isValidName(name))
            }
            #expect(config.isBot(config.botName(3, generation: 2)))
            #expect(!config.isBot("alice"))
            #expect(config.joinCommand("x").text == "JOIN x")
            options.game = .matchismo
            #expect(BotConfig(options: options, tag: "abcd").joinCommand("x").text == "JOIN x matchismo")
        }
    }
}
