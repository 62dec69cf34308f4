import SetGame
import SetProtocol
import Testing

@testable import SetBots

extension Bots {
    @Suite struct BotStrategyTests {
        let view = BotFixtures.view(BotFixtures.snapshot(players: [("alice", 0)]))

        @Test func validClaimsAreExactlyTheSetsOnTheBoard() {
            let sets = SetRules.allSets(in: BotFixtures.boardCards)
            #expect(!sets.isEmpty, "the fixture board should hold a set")
            let claims = BotStrategy.validClaims(in: view)
            #expect(claims == sets.map { $0.map(Selection.Pick.position) })
        }

        @Test func aClaimWithoutMistakesIsAValidSetAtTheCurrentRevision() {
            var generator = SeededGenerator(seed: 3)
            for _ in 0..<50 {
                let claim = BotStrategy.planClaim(in: view, earlier: nil, mistakes: 0, using: &generator)
                #expect(claim?.intent == .valid)
                #expect(claim?.revision == 7)
                guard let claim else { return }
                #expect(SetRules.isSet(claim.cards[0], claim.cards[1], claim.cards[2]))
                let positions = claim.picks.compactMap { pick -> Int? in
                    if case .position(let p) = pick { return p }
                    return nil
                }
                #expect(positions.map { BotFixtures.boardCards[$0] } == claim.cards)
                #expect(claim.command.text.hasPrefix("CHOOSE "))
                #expect(claim.command.text.hasSuffix(" @7"))
                #expect(claim.command.text.split(separator: " ").count == 5)
            }
        }

        @Test func mistakesAreWrongOrStaleAndNeverAccidentallyRight() {
            var generator = SeededGenerator(seed: 5)
            let earlier = BotStrategy.EarlierBoard(revision: 6, cards: BotFixtures.boardCards.reversed())
            var kinds: [BotStrategy.Intent: Int] = [:]
            for _ in 0..<200 {
                guard
                    let claim = BotStrategy.planClaim(
                        in: view, earlier: earlier, mistakes: 1, using: &generator)
                else {
                    Issue.record("no claim")
                    return
                }
                kinds[claim.intent, default: 0] += 1
                switch claim.intent {
                case .wrong:
                    #expect(!SetRules.isSet(claim.cards[0], claim.cards[1], claim.cards[2]))
                    #expect(claim.revision == 7)
                case .stale:
                    #expect(claim.revision == 6)
                    #expect(SetRules.isSet(claim.cards[0], claim.cards[1], claim.cards[2]))
                case .valid, .explore:
                    Issue.record("a mistake rate of 1 made a valid claim")
                }
            }
            #expect(kinds[.wrong, default: 0] > 50)
            #expect(kinds[.stale, default: 0] > 50)
        }

        /// Memory: with nothing remembered a bot turns three unseen cards over; once it remembers a set it
        /// claims it, by position.
        @Test func aMemoryBotLooksThenClaimsWhatItRemembers() {
            var generator = SeededGenerator(seed: 9)
            let view = BotFixtures.view([
                "ROOM lobby set 1 playing", "OPTIONS mode=memory penalty=1 hints=on",
                BotFixtures.boardLine(3, Array(repeating: "??", count: 12)),
                "DECK 60",
            ])
            #expect(view.isFaceDown)
            let look = BotStrategy.planMemoryClaim(in: view, remembered: [:], using: &generator)
            #expect(look?.intent == .explore)
            let looked = (look?.picks ?? []).compactMap { pick -> Int? in
                if case .position(let p) = pick { return p } else { return nil }
            }
            #expect(Set(looked).count == 3, "three different positions: \(looked)")
            let set = SetRules.allSets(in: BotFixtures.boardCards)[0]
            var remembered: [Int: Card] = [:]
            for (i, card) in BotFixtures.boardCards.enumerated() where set.contains(i) {
                remembered[i] = card
            }
            let claim = BotStrategy.planMemoryClaim(in: view, remembered: remembered, using: &generator)
            #expect(claim?.intent == .valid)
            #expect(claim?.picks == set.map(Selection.Pick.position))
        }

        /// Puzzle: a set already found on the board is no claim.
        @Test func aPuzzleBotSkipsFoundSets() {
            let sets = SetRules.allSets(in: BotFixtures.boardCards)
            let first = sets[0].map { BotFixtures.boardCards[$0].code }.joined(separator: ",")
            let view = BotFixtures.view(
                BotFixtures.snapshot(players: [("alice", 0)], mode: "puzzle") + [
                    "FOUND 1 \(sets.count) \(first)"
                ])
            let claims = BotStrategy.validClaims(in: view)
            #expect(claims == sets.dropFirst().map { $0.map(Selection.Pick.position) })
        }

        @Test func noClaimOnAFinishedGameOrAnUnreadableBoard() {
            var generator = SeededGenerator(seed: 1)
            let over = BotFixtures.view(BotFixtures.snapshot(players: []) + ["ROOM lobby set 0 over"])
            #expect(BotStrategy.planClaim(in: over, earlier: nil, mistakes: 0, using: &generator) == nil)
            let broken = BotFixtures.view(["ROOM lobby set 1 playing", "BOARD 2 a:1RFS b:XXXX c:3PEC"])
            #expect(BotStrategy.planClaim(in: broken, earlier: nil, mistakes: 0, using: &generator) == nil)
            #expect(broken.protocolErrors.count == 1)
        }

        @Test func chainClaimsReuseOneChainCardByCode() {
            let chain = ["1GFS", "2GFS", "3GFS"]
            let lines =
                BotFixtures.snapshot(players: [], mode: "chain") + ["CHAIN " + chain.joined(separator: " ")]
            let chained = BotFixtures.view(lines)
            let claims = BotStrategy.validClaims(in: chained)
            #expect(!claims.isEmpty)
            for claim in claims {
                guard case .card(let reused) = claim[0], case .position(let b) = claim[1],
                    case .position(let c) = claim[2]
                else {
                    Issue.record("a chain claim is a chain card then two positions: \(claim)")
                    continue
                }
                #expect(chain.contains(reused.code))
                #expect(SetRules.isSet(reused, BotFixtures.boardCards[b], BotFixtures.boardCards[c]))
            }
            var generator = SeededGenerator(seed: 2)
            let claim = BotStrategy.planClaim(in: chained, earlier: nil, mistakes: 0, using: &generator)
            #expect(claim.map { chain.contains(String($0.command.text.split(separator: " ")[1])) } == true)
        }

        @Test func ultraClaimsAreFourCards() {
            let ultra = BotFixtures.view(BotFixtures.snapshot(players: [], mode: "ultra"))
            let claims = BotStrategy.validClaims(in: ultra)
            #expect(
                claims
                    == SetRules.allUltraSets(in: BotFixtures.boardCards).map {
                        $0.map(Selection.Pick.position)
                    })
            var generator = SeededGenerator(seed: 4)
            for _ in 0..<20 {
                let wrong = BotStrategy.wrongClaim(
                    in: ultra, cards: BotFixtures.boardCards, using: &generator)
                #expect(wrong?.cards.count == 4)
                #expect(wrong.map { !SetRules.isUltraSet($0.cards) } == true)
            }
        }

        @Test func matchismoTurnsARememberedCardOfTheSameRank() {
            var generator = SeededGenerator(seed: 1)
            let lines = ["ROOM m matchismo 2 playing", "BOARD 3 a:?? b:?? c:JH d:?? e:=5C f:=5S", "TURN bot"]
            let view = BotFixtures.view(lines)
            let memory: [Int: PlayingCard] = [
                0: PlayingCard(code: "2H")!, 1: PlayingCard(code: "JS")!, 3: PlayingCard(code: "9D")!,
            ]
            #expect(BotStrategy.matchismoChoice(in: view, memory: memory, using: &generator) == 1)
            // Same suit when no rank matches.
            let suited: [Int: PlayingCard] = [0: PlayingCard(code: "2H")!, 3: PlayingCard(code: "9D")!]
            #expect(BotStrategy.matchismoChoice(in: view, memory: suited, using: &generator) == 0)
            // Otherwise a card never seen, never a matched or face-up one.
            for _ in 0..<20 {
                let choice = BotStrategy.matchismoChoice(
                    in: view, memory: [0: PlayingCard(code: "2C")!], using: &generator)
                #expect(choice == 1 || choice == 3)
            }
        }

        @Test func matchismoStartsAKnownPairAndRemembersWhatItSees() {
            var generator = SeededGenerator(seed: 1)
            let view = BotFixtures.view(["ROOM m matchismo 2 playing", "BOARD 3 a:?? b:?? c:?? d:=5C"])
            let memory: [Int: PlayingCard] = [0: PlayingCard(code: "4H")!, 2: PlayingCard(code: "4S")!]
            #expect(BotStrategy.matchismoChoice(in: view, memory: memory, using: &generator) == 0)

            var remembered: [Int: PlayingCard] = [3: PlayingCard(code: "5C")!]
            BotStrategy.remember(
                BotFixtures.view(["ROOM m matchismo 2 playing", "BOARD 4 a:KD b:?? c:?? d:=5C"]),
                into: &remembered)
            #expect(remembered == [0: PlayingCard(code: "KD")!])
            let done = BotFixtures.view(["ROOM m matchismo 2 playing", "BOARD 4 a:=KD b:=KS"])
            #expect(BotStrategy.matchismoChoice(in: done, memory: [:], using: &generator) == nil)
        }
    }
}
