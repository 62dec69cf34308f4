import SetGame
import SetProtocol
import Testing

@testable import SetBots

extension Bots {
    @Suite struct BotSessionTests {
        typealias F = BotFixtures

        @Test func introducesItselfAndSitsDown() {
            let bot = F.session()
            #expect(bot.nextWake == 0)
            bot.tick(now: 0)
            #expect(bot.wantsConnect)
            bot.connecting(now: 0)
            bot.connected(now: 0)
            F.feed(bot, ["SETD 1 welcome to setd; type HELP"])
            #expect(F.sent(bot) == ["HELLO tbot-0"])
            F.feed(bot, ["OK HELLO tbot-0 tok123"])
            #expect(F.sent(bot) == ["JOIN lobby"])
            F.feed(bot, F.joined(F.snapshot(players: [("tbot-0", 0)])))
            #expect(bot.phase == .seated)
            #expect(bot.stats.value.connects == 1)
            #expect(bot.stats.value.joins == 1)
            #expect(bot.stats.value.protocolErrors == 0)
        }

        @Test func flatOutBotClaimsAValidSetWithTheRevisionItSaw() throws {
            let bot = F.seatedSession()
            bot.tick(now: 3)
            let lines = F.sent(bot)
            #expect(lines.count == 1)
            let words = try #require(lines.first).split(separator: " ")
            #expect(words.first == "CHOOSE")
            #expect(words.last == "@7")
            let cards = words.dropFirst().dropLast().map { F.boardCards[SetGame.position(named: $0)!] }
            #expect(SetRules.isSet(cards[0], cards[1], cards[2]))
            #expect(bot.stats.value.claims == 1)
            // One claim at a time: nothing more until the reply.
            bot.tick(now: 4)
            #expect(F.sent(bot).isEmpty)
        }

        @Test func aTakenClaimIsCheckedAgainstItsEvents() throws {
            let bot = F.seatedSession()
            bot.tick(now: 3)
            let claim = try #require(F.sent(bot, now: 10).first)
            let codes = claim.split(separator: " ").dropFirst().dropLast().map {
                F.boardCodes[SetGame.position(named: $0)!]
            }
            var next = F.boardCodes
            next.swapAt(0, 11)
            F.feed(
                bot,
                [
                    "SET tbot-0 " + codes.joined(separator: " "), F.boardLine(8, next), "DECK 63",
                    "PLAYER tbot-0 1 online",
                    "OK CHOOSE " + codes.joined(separator: " "),
                ], now: 1_000_010)
            let stats = bot.stats.value
            #expect(stats.sets == 1)
            #expect(stats.protocolErrors == 0, "\(stats.protocolErrorSamples)")
            #expect(stats.claimLatency.count == 1)
            #expect(stats.claimLatency.maximumNanoseconds == 1_000_000)
            #expect(bot.room.claimTime(by: "tbot-0", revision: 7) == 10)
        }

        @Test func anotherPlayersSetIsTimedFromItsClaim() {
            let bot = F.seatedSession()
            bot.room.recordClaim(by: "alice", revision: 7, at: 100)
            let set = SetRules.allSets(in: F.boardCards)[0].map { F.boardCodes[$0] }
            F.feed(
                bot, ["SET alice " + set.joined(separator: " "), F.boardLine(8), "PLAYER alice 3 online"],
                now: 2_100)
            #expect(bot.stats.value.fanoutLatency.count == 1)
            #expect(bot.stats.value.fanoutLatency.maximumNanoseconds == 2_000)
            #expect(bot.stats.value.protocolErrors == 0, "\(bot.stats.value.protocolErrorSamples)")
        }

        @Test(arguments: [
            // A set that is not a set.
            ["SET alice 1RFS 2GHT 1GFT", "PLAYER alice 3 online"],
            // A card that is not on the board.
            ["SET alice 1GFS 2GFS 3GFS", "PLAYER alice 3 online"],
            // A score that does not add up.
            ["SET alice \(BotFixtures.firstSet)", "PLAYER alice 5 online"],
            // A score that changes with no event.
            ["PLAYER alice 9 online"],
            // A board that goes backwards.
            [BotFixtures.boardLine(6)],
            // A duplicate card.
            ["BOARD 8 a:1RFS b:1RFS c:3PEC"],
            // A card code that is not a card.
            ["BOARD 8 a:1RFS b:4XYZ c:3PEC"],
            // A reply nobody asked for.
            ["OK CHOOSE 1RFS 2GHT 3PEC"],
            // An OVER that is not best first, or disagrees with the scores.
            ["OVER tbot-0:0 alice:2"],
            ["OVER alice:7 tbot-0:0"],
            // A line that starts like a known one but does not parse.
            ["PLAYER alice lots online"],
        ])
        func countsWhatBreaksTheProtocol(_ lines: [String]) {
            let bot = F.seatedSession()
            F.feed(bot, lines)
            #expect(bot.stats.value.protocolErrors >= 1, "\(lines)")
        }

        @Test func presenceChangesAndNewGamesAreNotScoreErrors() {
            let bot = F.seatedSession()
            F.feed(
                bot,
                [
                    "PLAYER alice 2 away", "PLAYER alice 2 online", "JOINED carol", "PLAYER carol 4 online",
                    "LEFT carol",
                    "CHAT alice hi", "WRONG alice 1 1RFS 2GHT 1GFT : colour: two red, one green",
                    "PLAYER alice 1 online",
                    "NEWGAME alice", "ROOM lobby set 2 playing", F.boardLine(1), "DECK 69",
                    "PLAYER tbot-0 0 online",
                    "PLAYER alice 0 online", "PING 42",
                ])
            #expect(bot.stats.value.protocolErrors == 0, "\(bot.stats.value.protocolErrorSamples)")
            #expect(F.sent(bot).contains("PING"))
        }

        @Test func repliesMustComeInOrder() {
            let bot = F.seatedSession()
            bot.tick(now: 3)
            _ = F.sent(bot)
            F.feed(bot, ["OK CHAT"])
            #expect(bot.stats.value.protocolErrors == 1)
            #expect(bot.stats.value.protocolErrorSamples.first?.contains("out of order") == true)
        }

        @Test func staleIsFineAfterABoardChangeButNotWithout() {
            let raced = F.seatedSession()
            raced.tick(now: 3)
            _ = F.sent(raced)
            F.feed(
                raced, [F.boardLine(8), "ERR CHOOSE STALE the board changed since revision 7; it is now 8"])
            #expect(raced.stats.value.protocolErrors == 0)
            #expect(raced.stats.value.errorCodes["STALE"] == 1)
            #expect(raced.stats.value.unexpectedErrors == 0)

            let lied = F.seatedSession()
            lied.tick(now: 3)
            _ = F.sent(lied)
            F.feed(lied, ["ERR CHOOSE STALE the board changed"])
            #expect(lied.stats.value.protocolErrors == 1)
        }

        @Test func aValidClaimRefusedAsNotASetIsAProtocolError() {
            let bot = F.seatedSession()
            bot.tick(now: 3)
            _ = F.sent(bot)
            F.feed(bot, ["ERR CHOOSE NOTSET colour: two red, one green"])
            #expect(bot.stats.value.protocolErrors == 1)
        }

        @Test func deliberateMistakesExpectTheirErrors() {
            let bot = F.seatedSession { $0.mistakes = 1 }
            bot.tick(now: 3)
            let claim = F.sent(bot)
            #expect(claim.count == 1)
            // A wrong claim right after sitting down (no earlier board to be stale about).
            F.feed(
                bot,
                ["WRONG tbot-0 1 x y z : because", "PLAYER tbot-0 -1 online", "ERR CHOOSE NOTSET because"])
            #expect(bot.stats.value.protocolErrors == 0, "\(bot.stats.value.protocolErrorSamples)")
            #expect(bot.stats.value.unexpectedErrors == 0)
            #expect(bot.stats.value.mistakes == 1)
            // It looks again after its mistake.
            bot.tick(now: 4)
            #expect(F.sent(bot).count == 1)
        }

        @Test func slowdownIsUnexpected() {
            let bot = F.seatedSession()
            bot.tick(now: 3)
            _ = F.sent(bot)
            F.feed(bot, [F.boardLine(8), "ERR CHOOSE SLOWDOWN too many commands"])
            #expect(bot.stats.value.unexpectedErrors == 1)
            #expect(bot.stats.value.errorCodes["SLOWDOWN"] == 1)
        }

        @Test func theFirstBotRestartsAFinishedGame() {
            let bot = F.seatedSession(players: [("alice", 2), ("tbot-0", 0), ("tbot-1", 1)])
            F.feed(bot, ["ROOM lobby set 3 over", "OVER alice:2 tbot-1:1 tbot-0:0"], now: 5)
            bot.tick(now: 6)
            #expect(F.sent(bot) == ["NEW"])
            #expect(bot.room.gamesFinished == 1)

            let other = F.seatedSession(players: [("tbot-1", 1), ("tbot-0", 0)])
            F.feed(other, ["ROOM lobby set 2 over", "OVER tbot-1:1 tbot-0:0"], now: 5)
            other.tick(now: 6)
            #expect(F.sent(other).isEmpty, "only the first bot restarts at once")
            #expect(other.stats.value.protocolErrors == 0, "\(other.stats.value.protocolErrorSamples)")
        }

        @Test func dropsAndComesBackWithResume() {
            let bot = F.seatedSession { $0.resumeEvery = 0.001 }
            var now: UInt64 = 10_000_000_000
            var resumed = false
            for _ in 0..<20 where !resumed {
                bot.tick(now: now)
                let out = F.sent(bot, now: now)
                if bot.wantsClose != nil {
                    bot.wantsClose = nil
                    #expect(bot.phase == .offline)
                    now += 5_000_000_000
                    bot.tick(now: now)
                    #expect(bot.wantsConnect)
                    bot.connecting(now: now)
                    bot.connected(now: now)
                    F.feed(bot, ["SETD 1 hi"], now: now)
                    #expect(F.sent(bot) == ["RESUME tok123"])
                    F.feed(
                        bot,
                        F.joined(
                            F.snapshot(revision: 9, players: [("tbot-0", 0), ("alice", 2)]),
                            final: "OK RESUME tbot-0 lobby"))
                    #expect(bot.phase == .seated)
                    #expect(bot.stats.value.resumes == 1)
                    resumed = true
                } else if out.contains("QUIT") {
                    F.feed(bot, ["OK QUIT"], now: now)
                    bot.connectionEnded(now: now, byServer: true)
                    #expect(bot.stats.value.disconnects == 0)
                    now += 5_000_000_000
                    bot.tick(now: now)
                    bot.connecting(now: now)
                    bot.connected(now: now)
                    F.feed(bot, ["SETD 1 hi"], now: now)
                    #expect(
                        F.sent(bot) == ["HELLO tbot-0-1"], "after a QUIT the bot comes back as somebody new")
                    return
                }
                now += 1_000_000_000
            }
            #expect(resumed)
            #expect(bot.stats.value.protocolErrors == 0, "\(bot.stats.value.protocolErrorSamples)")
        }

        /// A RESUME's `TOKEN` line replaces the bot's token: its next RESUME presents the new one.
        @Test func aResumeTakesTheNewToken() {
            let bot = F.reconnectedSession()
            #expect(F.sent(bot) == ["RESUME tok123"])
            F.feed(bot, ["TOKEN tok456", "OK RESUME tbot-0"])
            #expect(bot.token == "tok456")
            #expect(bot.stats.value.protocolErrors == 0, "\(bot.stats.value.protocolErrorSamples)")
        }

        /// A seat taken back outside any room is answered `OK RESUME <name>` (protocol.md): the bot joins
        /// its room again, and that is no protocol error.
        @Test func aResumeWithoutARoomJoinsAgain() {
            let bot = F.reconnectedSession()
            #expect(F.sent(bot) == ["RESUME tok123"])
            F.feed(bot, ["OK RESUME tbot-0"])
            #expect(bot.phase == .joining)
            #expect(F.sent(bot).first?.hasPrefix("JOIN lobby") == true)
            #expect(bot.stats.value.protocolErrors == 0, "\(bot.stats.value.protocolErrorSamples)")
            F.feed(bot, F.joined(F.snapshot(revision: 9, players: [("tbot-0", 0)])))
            #expect(bot.phase == .seated)
        }

        /// A reply the bot cannot pair with a command is reported, and does not answer the next command.
        @Test func aReplyWithNothingPendingIsAProtocolError() {
            let bot = F.seatedSession()
            F.feed(bot, ["OK CHAT"])
            #expect(bot.stats.value.protocolErrors == 1)
            #expect(bot.stats.value.protocolErrorSamples.first?.contains("no command outstanding") == true)
        }

        @Test func stopsWithQuit() {
            let bot = F.seatedSession()
            bot.stop(now: 5)
            #expect(F.sent(bot) == ["QUIT"])
            F.feed(bot, ["OK QUIT"])
            bot.connectionEnded(now: 6, byServer: true)
            #expect(bot.isFinished)
            #expect(bot.stats.value.disconnects == 0)
            #expect(bot.stats.value.connected == 0)
        }

        @Test func anUnaskedCloseIsADisconnect() {
            let bot = F.seatedSession()
            bot.connectionEnded(now: 6, byServer: true)
            #expect(bot.stats.value.disconnects == 1)
            #expect(bot.phase == .offline)
        }

        @Test func matchismoBotPlaysOnItsTurnAndChecksPoints() throws {
            let bot = F.session { $0.game = .matchismo }
            bot.tick(now: 0)
            bot.connecting(now: 0)
            bot.connected(now: 0)
            F.feed(bot, ["SETD 1 hi", "OK HELLO tbot-0 t"])
            #expect(F.sent(bot).last == "JOIN lobby matchismo")
            F.feed(
                bot,
                [
                    "ROOM lobby matchismo 2 playing", "OPTIONS n=2", "BOARD 1 a:?? b:?? c:??", "DECK 22",
                    "TURN alice",
                    "PLAYER alice 0 online", "PLAYER tbot-0 0 online", "OK JOIN lobby 7",
                ])
            bot.tick(now: 3)
            #expect(F.sent(bot).isEmpty, "not its turn")
            F.feed(
                bot, ["CHOSE alice -2 8♦", "BOARD 2 a:8D b:?? c:??", "PLAYER alice -2 online", "TURN tbot-0"])
            bot.tick(now: 4)
            let choice = try #require(F.sent(bot).first)
            #expect(choice == "CHOOSE b @2" || choice == "CHOOSE c @2")
            F.feed(
                bot,
                [
                    "CHOSE tbot-0 14 Matched 8♦ 8♠ for 16 points", "BOARD 3 a:=8D b:=8S c:??",
                    "PLAYER tbot-0 14 online",
                    "TURN tbot-0", "OK CHOOSE 8S",
                ])
            #expect(bot.stats.value.sets == 1)
            #expect(bot.stats.value.protocolErrors == 0, "\(bot.stats.value.protocolErrorSamples)")
            F.feed(bot, ["CHOSE alice -2 KD", "PLAYER alice 0 online"])
            #expect(bot.stats.value.protocolErrors == 1, "-2 + -2 is -4, not 0")
        }
    }
}

extension BotFixtures {
    /// The codes of the first set on the fixture board.
    static var firstSet: String {
        SetRules.allSets(in: boardCards)[0].map { boardCodes[$0] }.joined(separator: " ")
    }
}

extension Bots.BotSessionTests {
    @Test func aReplyAfterQuitDoesNotSeatTheBotAgain() {
        let bot = BotFixtures.session()
        bot.tick(now: 0)
        bot.connecting(now: 0)
        bot.connected(now: 0)
        BotFixtures.feed(bot, ["SETD 1 hi"])
        #expect(BotFixtures.sent(bot) == ["HELLO tbot-0"])
        bot.stop(now: 1)
        #expect(BotFixtures.sent(bot) == ["QUIT"])
        BotFixtures.feed(bot, ["OK HELLO tbot-0 tok", "OK QUIT"])
        #expect(BotFixtures.sent(bot).isEmpty, "no JOIN after QUIT")
        bot.connectionEnded(now: 2, byServer: true)
        #expect(bot.isFinished)
        #expect(bot.stats.value.disconnects == 0)
        #expect(bot.stats.value.protocolErrors == 0)
    }
}
