import SetGame
import SetTestSupport
import Testing

@Suite("The rule of SET")
struct SetRulesTests {
    @Test func isSetEqualsTheDefinitionOnAllTriples() {
        var triples = 0
        var sets = 0
        let all = Card.all
        for a in 0..<81 {
            for b in (a + 1)..<81 {
                for c in (b + 1)..<81 {
                    let (x, y, z) = (all[a], all[b], all[c])
                    let expected = SetReference.isSet(x, y, z)
                    triples += 1
                    if expected { sets += 1 }
                    // Every order of the three cards gives the same answer.
                    let answers = [
                        SetRules.isSet(x, y, z), SetRules.isSet(x, z, y), SetRules.isSet(y, x, z),
                        SetRules.isSet(y, z, x), SetRules.isSet(z, x, y), SetRules.isSet(z, y, x),
                    ]
                    if answers != Array(repeating: expected, count: 6) {
                        Issue.record("isSet(\(x), \(y), \(z)) is \(answers), the definition says \(expected)")
                    }
                }
            }
        }
        #expect(triples == 85_320)
        #expect(sets == 1_080)  // 81 × 80 / 6: every pair is in exactly one set
    }

    @Test func theSameCardTwiceIsNeverASet() {
        for a in Card.all {
            #expect(!SetRules.isSet(a, a, a))
            for b in Card.all where b != a {
                #expect(!SetRules.isSet(a, a, b) && !SetRules.isSet(a, b, a) && !SetRules.isSet(b, a, a))
            }
        }
    }

    @Test func completingGivesTheThirdCardOfTheSet() {
        for a in Card.all {
            #expect(SetRules.completing(a, a) == a)
            for b in Card.all where b != a {
                let c = SetRules.completing(a, b)
                #expect(c != a && c != b)
                #expect(SetReference.isSet(a, b, c))
                #expect(SetRules.completing(b, a) == c)
                #expect(SetRules.completing(a, c) == b)
            }
        }
    }

    @Test func allSetsEqualsBruteForceOnRandomBoards() {
        var generator = SeededGenerator(seed: 0x5E7)
        var withSets = 0
        for round in 0..<4_000 {
            let size = 3 + round % 19  // 3…21 cards, each size equally often
            let board = randomBoard(size, using: &generator)
            let expected = SetReference.allSets(in: board)
            let found = SetRules.allSets(in: board)
            #expect(found == expected, "board \(board)")
            #expect(SetRules.containsSet(board) == !expected.isEmpty, "board \(board)")
            if !expected.isEmpty { withSets += 1 }
        }
        #expect(withSets > 1_000 && withSets < 4_000)  // the boards were not all alike
    }

    @Test func allSetsOnSmallBoards() {
        #expect(SetRules.allSets(in: []).isEmpty)
        #expect(SetRules.allSets(in: cards("1RFT 2RFT")).isEmpty)
        #expect(!SetRules.containsSet(cards("1RFT 2RFT")))
        #expect(SetRules.allSets(in: cards("1RFT 2RFT 3RFT")) == [[0, 1, 2]])
        #expect(SetRules.allSets(in: cards("1RFT 2GHC 1GFT 3PES")) == [[0, 1, 3]])
        #expect(SetRules.allSets(in: cards("1RFT 2GHC 3RFT")).isEmpty)
        // Every set of the full deck.
        let full = SetRules.allSets(in: Card.all)
        #expect(full.count == 1_080)
        #expect(full.allSatisfy { SetReference.isSet(Card.all[$0[0]], Card.all[$0[1]], Card.all[$0[2]]) })
    }

    @Test func aTwentyCardBoardWithoutASet() {
        #expect(setFreeTwenty.count == 20)
        #expect(Set(setFreeTwenty).count == 20)
        #expect(SetReference.allSets(in: setFreeTwenty).isEmpty)
        #expect(SetRules.allSets(in: setFreeTwenty).isEmpty)
        #expect(!SetRules.containsSet(setFreeTwenty))
        // In any order.
        var generator = SeededGenerator(seed: 20)
        for _ in 0..<50 {
            var shuffled = setFreeTwenty
            for i in stride(from: 19, to: 0, by: -1) { shuffled.swapAt(i, generator.next(below: i + 1)) }
            #expect(SetRules.allSets(in: shuffled).isEmpty && !SetRules.containsSet(shuffled))
        }
        // It is maximal: any 21st card makes a set, which is why 21 cards always hold one.
        for extra in Card.all where !setFreeTwenty.contains(extra) {
            let board = setFreeTwenty + [extra]
            #expect(SetRules.containsSet(board))
            #expect(SetRules.allSets(in: board) == SetReference.allSets(in: board))
            #expect(SetRules.allSets(in: board).allSatisfy { $0.last == 20 })
        }
    }

    @Test func whyNotSetNamesTheFirstFailingAttribute() {
        let twoRedOneGreen = cards("1RFT 2RHC 3GES")
        #expect(
            SetRules.whyNotSet(twoRedOneGreen[0], twoRedOneGreen[1], twoRedOneGreen[2])
                == "colour: two red, one green")
        #expect(
            SetRules.whyNotSet(twoRedOneGreen[2], twoRedOneGreen[0], twoRedOneGreen[1])
                == "colour: two red, one green")
        let examples: [(String, String)] = [
            ("1RFT 1GHC 2PES", "count: two 1, one 2"),
            ("3RFT 3GHC 1PES", "count: two 3, one 1"),
            ("1RFT 2GFC 3PES", "fill: two solid, one open"),
            ("1RHT 2GEC 3PHS", "fill: two striped, one open"),
            ("1RFC 2GHC 3PES", "shape: two circle, one square"),
            ("1RFT 2PHS 3PET", "colour: two purple, one red"),
            // Count and colour both fail: the first attribute is named.
            ("1RFT 1RHC 2GES", "count: two 1, one 2"),
            ("1RFT 1RFT 2GES", "the same card twice"),
        ]
        for (codes, reason) in examples {
            let c = cards(codes)
            #expect(SetRules.whyNotSet(c[0], c[1], c[2]) == reason, "\(codes)")
            #expect(!SetRules.isSet(c[0], c[1], c[2]))
        }
        let set = cards("1RFT 2GHC 3PES")
        #expect(SetRules.whyNotSet(set[0], set[1], set[2]) == nil)
        #expect(SetRules.whyNotSet(set[0], set[0], set[0]) == "the same card twice")
    }

    @Test func whyNotSetAgreesWithTheDefinitionOnAllTriples() {
        let all = Card.all
        let names = ["count", "colour", "fill", "shape"]
        func describe(_ card: Card, _ attribute: Int) -> String {
            ["\(card.count)", "\(card.colour)", "\(card.fill)", "\(card.shape)"][attribute]
        }
        var checked = 0
        for a in 0..<81 {
            for b in (a + 1)..<81 {
                for c in (b + 1)..<81 {
                    let triple = [all[a], all[b], all[c]]
                    let why = SetRules.whyNotSet(triple[0], triple[1], triple[2])
                    guard SetReference.isSet(triple[0], triple[1], triple[2]) == (why == nil) else {
                        Issue.record("whyNotSet\(triple) is \(why ?? "nil")")
                        continue
                    }
                    guard let why else { continue }
                    // The reason is "<first failing attribute>: two <pair value>, one <odd value>".
                    let failing = (0..<4).first { attribute in
                        Set(triple.map { describe($0, attribute) }).count == 2
                    }!
                    let values = triple.map { describe($0, failing) }
                    let pair = values.first { v in values.filter { $0 == v }.count == 2 }!
                    let odd = values.first { $0 != pair }!
                    if why != "\(names[failing]): two \(pair), one \(odd)" {
                        Issue.record("whyNotSet\(triple) is \(why)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == 85_320 - 1_080)
    }
}

@Suite("Ultra SET")
struct UltraRulesTests {
    @Test func handBuiltUltraSets() throws {
        // 1RFT + 2GHC and 1GHS + 2RFS are both completed by 3PES.
        let a = try Card(code: "1RFT")
        let b = try Card(code: "2GHC")
        let e = try Card(code: "1GHS")
        let f = try Card(code: "2RFS")
        let c = try Card(code: "3PES")
        #expect(SetRules.completing(a, b) == c)
        #expect(SetRules.completing(e, f) == c)
        let ultra = [a, e, b, f]
        #expect(SetReference.isUltra(a, e, b, f))
        #expect(SetRules.isUltraSet(ultra))
        let pairing = try #require(SetRules.ultraPairing(ultra))
        #expect(pairing.0 == (0, 2) && pairing.1 == (1, 3))
        #expect(SetRules.allUltraSets(in: ultra) == [[0, 1, 2, 3]])
        #expect(SetRules.allUltraSets(in: [f, b, a, e]) == [[0, 1, 2, 3]])
        let other = try #require(SetRules.ultraPairing([a, b, e, f]))
        #expect(other.0 == (0, 1) && other.1 == (2, 3))
        // Not Ultra: the three cards of a set plus any fourth card.
        let notUltra = [a, b, c, e]
        #expect(!SetReference.isUltra(a, b, c, e))
        #expect(!SetRules.isUltraSet(notUltra) && SetRules.ultraPairing(notUltra) == nil)
        #expect(SetRules.allUltraSets(in: notUltra).isEmpty)
        // Wrong counts and repeated cards are never Ultra.
        #expect(!SetRules.isUltraSet([a, e, b]))
        #expect(!SetRules.isUltraSet(ultra + [c]))
        #expect(!SetRules.isUltraSet([a, a, b, b]))
        #expect(SetRules.ultraPairing([a, a, b, b]) == nil)
        #expect(SetRules.allUltraSets(in: [a, a, b, b]).isEmpty && !SetRules.containsUltraSet([a, a, b, b]))
        // A repeated card is in an Ultra SET once per position it holds, never twice in one.
        #expect(SetRules.allUltraSets(in: [a, e, b, f, a]) == [[0, 1, 2, 3], [1, 2, 3, 4]])
        #expect(SetReference.allUltraSets(in: [a, e, b, f, a]) == [[0, 1, 2, 3], [1, 2, 3, 4]])
    }

    @Test func ultraPairingAndIsUltraSetMatchTheDefinition() {
        var generator = SeededGenerator(seed: 0x0017_7A)
        var ultras = 0
        for _ in 0..<20_000 {
            let four = randomBoard(4, using: &generator)
            let expected = SetReference.isUltra(four[0], four[1], four[2], four[3])
            #expect(SetRules.isUltraSet(four) == expected, "\(four)")
            let pairing = SetRules.ultraPairing(four)
            #expect((pairing != nil) == expected)
            if let (p, q) = pairing {
                ultras += 1
                #expect(Set([p.0, p.1, q.0, q.1]) == [0, 1, 2, 3])
                #expect(SetReference.samePairSum(four[p.0], four[p.1], four[q.0], four[q.1]))
            }
        }
        #expect(ultras > 100)
    }

    @Test func allUltraSetsEqualsBruteForceOnRandomBoards() {
        var generator = SeededGenerator(seed: 0x0417)
        for round in 0..<1_500 {
            let size = round % 16  // 0…15 cards
            let board = randomBoard(size, using: &generator)
            let ultras = SetReference.allUltraSets(in: board)
            #expect(SetRules.allUltraSets(in: board) == ultras, "\(board)")
            #expect(SetRules.containsUltraSet(board) == !ultras.isEmpty, "\(board)")
        }
    }
}
