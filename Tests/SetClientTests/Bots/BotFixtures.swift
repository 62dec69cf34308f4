import SetGame
import SetProtocol
import Testing

@testable import SetBots

/// The tests of the bots, `swift test --filter SetClientTests.Bots`.
@Suite enum Bots {}

/// Hand-written server lines and the views and bots built from them, for the bot tests.
enum BotFixtures {
    /// A 12-card board; its sets are computed by the tests from ``SetRules``, not assumed.
    static let boardCodes = [
        "1RFS", "2GHT", "3PEC", "1GFT", "2PHC", "3REC", "1PES", "2RFT", "3GHS", "1RHC", "2GET", "3PFS",
    ]

    /// The `BOARD` line for ``boardCodes`` at `revision`.
    static func boardLine(_ revision: Int, _ codes: [String] = boardCodes) -> String {
        (["BOARD", "\(revision)"]
            + codes.enumerated().map { "\(SetGame.positionName($0.offset)):\($0.element)" })
            .joined(separator: " ")
    }

    /// A SET room's snapshot with the given players (name, score).
    static func snapshot(revision: Int = 7, players: [(String, Int)], mode: String = "normal") -> [String] {
        [
            "ROOM lobby set \(players.count) playing", "OPTIONS mode=\(mode) penalty=1 hints=on",
            boardLine(revision),
            "DECK 66",
        ]
            + players.map { "PLAYER \($0.0) \($0.1) online" }
    }

    /// A view built from server lines.
    static func view(_ lines: [String]) -> GameView {
        var view = GameView()
        for line in lines { view.apply(ServerLine(parsing: line)) }
        return view
    }

    /// The cards of ``boardCodes``.
    static var boardCards: [Card] { boardCodes.map { Card($0)! } }

    /// A bot ready to connect, with options tweaked by `configure`.
    static func session(
        index: Int = 0, tag: String = "tbot", room: String = "lobby",
        _ configure: (inout BenchOptions) -> Void = { _ in }
    ) -> BotSession {
        var options = BenchOptions()
        options.bots = 1
        options.rooms = 1
        options.roomName = room
        options.think = 0...0
        options.mistakes = 0
        options.chatEvery = 0
        options.resumeEvery = 0
        configure(&options)
        let config = BotConfig(options: options, tag: tag)
        return BotSession(
            index: index, config: config, room: RoomLedger(name: room), stats: StatsBox(), seed: 1,
            connectAt: 0)
    }

    /// The lines a bot wants to send, taken from its outbox.
    static func sent(_ session: BotSession, now: UInt64 = 1) -> [String] {
        String(decoding: session.takeOutput(now: now), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Feeds server lines to a bot.
    static func feed(_ session: BotSession, _ lines: [String], now: UInt64 = 2) {
        for line in lines { session.receive(ServerLine(parsing: line), now: now) }
    }

    /// A bot taken through connect, greeting, `HELLO` and `JOIN` into the room `lobby`, where the given
    /// players sit (the bot is `tbot-0`).
    static func seatedSession(
        players: [(String, Int)] = [("tbot-0", 0), ("alice", 2)], revision: Int = 7,
        _ configure: (inout BenchOptions) -> Void = { _ in }
    ) -> BotSession {
        let bot = session(configure)
        bot.tick(now: 0)
        bot.connecting(now: 0)
        bot.connected(now: 0)
        feed(bot, ["SETD 1 welcome to setd; type HELP"])
        _ = sent(bot)
        feed(bot, ["OK HELLO tbot-0 tok123"])
        _ = sent(bot)
        feed(bot, joined(snapshot(revision: revision, players: players)))
        return bot
    }

    /// A seated bot whose connection the server ended, connected again and greeted: its next line is the
    /// `RESUME` of its seat.
    static func reconnectedSession() -> BotSession {
        let bot = seatedSession()
        bot.connectionEnded(now: 3, byServer: true)
        bot.tick(now: 10_000_000_000)
        bot.connecting(now: 10_000_000_000)
        bot.connected(now: 10_000_000_000)
        feed(bot, ["SETD 1 hi"])
        return bot
    }

    /// A snapshot and the final line that counts it (protocol.md: the last word is the count).
    static func joined(_ snapshot: [String], final: String = "OK JOIN lobby") -> [String] {
        snapshot + ["\(final) \(snapshot.count)"]
    }
}
