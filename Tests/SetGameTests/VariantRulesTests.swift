import SetGame
import SetTestSupport
import Testing

/// MegaSet's sets, 4Sets, GhostSets and UltraSet-Chain's claims against the rules written from their
/// definitions in `VariantReference`.
@Suite("The rules of the later modes")
struct VariantRulesTests {
    // MARK: MegaSet

    @Test func megaSetPairsAreCompletedByTheirMissingCard() {
        for a in Card.bordered {
            for b in Card.bordered where b.index > a.index {
                let c = SetRules.completing(a, b)
                if c != VariantReference.missingCard(a, b) {
                    Issue.record("completing(\(a), \(b)) is \(c), not \(VariantReference.missingCard(a, b))")
                }
            }
        }
        // Every pair is in exactly one set: 243 × 242 / 6 sets in the deck.
        #expect(SetRules.allSets(in: Card.bordered).count == 9_801)
        #expect(SetRules.allSets(in: Card.all).count == 1_080)
    }

    @Test func megaSetSetsEqualTheDefinition() {
        var generator = SeededGenerator(seed: 0x3E6A)
        var sets = 0
        for round in 0..<20_000 {
            var cards = randomBoard(3, from: Card.bordered, using: &generator)
            // Every other triple is made a set, so both answers are tried often.
            if round % 2 == 0 { cards[2] = VariantReference.missingCard(cards[0], cards[1]) }
            let expected = VariantReference.isSet(cards)
            if expected { sets += 1 }
            #expect(SetRules.isSet(cards[0], cards[1], cards[2]) == expected, "\(cards)")
            #expect((SetRules.whyNotSet(cards[0], cards[1], cards[2]) == nil) == expected, "\(cards)")
            #expect(SetMode.megaset.isValidClaim(cards) == expected)
        }
        #expect(sets >= 10_000)
    }

    @Test func megaSetBoardsHoldTheBruteForceSets() {
        var generator = SeededGenerator(seed: 0x3E6B)
        for round in 0..<300 {
            let board = randomBoard(3 + round % 28, from: Card.bordered, using: &generator)
            let expected = VariantReference.allClaims(in: board, size: 3, VariantReference.isSet)
            #expect(SetRules.allSets(in: board) == expected)
            #expect(SetRules.containsSet(board) == !expected.isEmpty)
            #expect(SetMode.megaset.claims(on: board, chain: nil) == expected.map { $0.map { board[$0] } })
        }
    }

    @Test func theBorderIsAnAttributeLikeTheOthers() throws {
        let cards = try ["1RFT", "2RFTW", "3RFT"].map { try Card(anyCode: $0) }
        #expect(SetRules.whyNotSet(cards[0], cards[1], cards[2]) == "border: two single, one double")
        #expect(SetMode.megaset.whyNotValid(cards) == "border: two single, one double")
        let set = try ["1RFT", "2RFTW", "3RFTO"].map { try Card(anyCode: $0) }
        #expect(SetRules.isSet(set[0], set[1], set[2]) && SetMode.megaset.whyNotValid(set) == nil)
        // Cards of four values are never in a set of three.
        let four = try ["1RFT", "2RFT", "4RFT"].map { try Card(anyCode: $0) }
        #expect(!SetRules.isSet(four[0], four[1], four[2]))
        #expect(SetRules.whyNotSet(four[0], four[1], four[2]) == "4Set's cards make sets of four, not three")
    }

    // MARK: 4Set

    @Test func fourSetsEqualTheDefinition() {
        var generator = SeededGenerator(seed: 0x45E7)
        var fourSets = 0
        for round in 0..<20_000 {
            var cards = randomBoard(
                4, from: round % 3 == 2 ? Card.fourValuedSolid : Card.fourValued, using: &generator)
            if round % 2 == 0 {
                cards[3] = FourSetRules.completing(cards[0], cards[1], cards[2])
                #expect(!cards.prefix(3).contains(cards[3]))
            }
            let expected = VariantReference.isFourSet(cards)
            if expected { fourSets += 1 }
            #expect(round % 2 == 1 || expected, "the completing card makes a 4Set: \(cards)")
            #expect(FourSetRules.isFourSet(cards) == expected, "\(cards)")
            #expect((FourSetRules.whyNotFourSet(cards) == nil) == expected, "\(cards)")
            #expect(SetMode.fourSet.isValidClaim(cards) == expected)
            #expect(SetMode.fourSetJunior.isValidClaim(cards) == expected)
        }
        #expect(fourSets >= 10_000)
    }

    @Test func fourSetBoardsHoldTheBruteForceFourSets() {
        var generator = SeededGenerator(seed: 0x45E8)
        for round in 0..<300 {
            let deck = round % 2 == 0 ? Card.fourValued : Card.fourValuedSolid
            let board = randomBoard(4 + round % 17, from: deck, using: &generator)
            let expected = VariantReference.allClaims(in: board, size: 4, VariantReference.isFourSet)
            #expect(FourSetRules.allFourSets(in: board) == expected)
            #expect(FourSetRules.containsFourSet(board) == !expected.isEmpty)
        }
        // Any three cards have one fourth, and each 4Set is counted by its four triples.
        #expect(FourSetRules.allFourSets(in: Card.fourValuedSolid).count == 64 * 63 * 62 / 6 / 4)
    }

    @Test func whyNotAFourSetNamesTheValues() throws {
        func why(_ codes: String) throws -> String? {
            FourSetRules.whyNotFourSet(try codes.split(separator: " ").map { try Card(anyCode: $0) })
        }
        #expect(try why("1RFT 2RFC 3RFS 4BFX") == "colour: three red, one blue")
        #expect(try why("1RFT 2GFT 3PFT 3BFT") == "count: two 3, one 1, one 2")
        #expect(try why("1RFT 1GFT 1PFT 1BFT") == nil)  // all different colours, the rest all the same
        #expect(try why("1RFT 1RFC 2GFT 2GFC") == nil)  // two pairs of counts and colours, two of shapes
        #expect(try why("1RFT 1RFT 1PFT 1BFT") == "the same card twice")
        #expect(try why("1RFT 1GFT 1PFTW 1BFT") == "MegaSet's bordered cards are not 4Set's")
        #expect(try why("1RFT 1GFT 1PFT") == "a 4Set has four cards, not 3")
    }

    // MARK: GhostSet

    @Test func ghostSetsEqualTheDefinition() {
        var generator = SeededGenerator(seed: 0x6057)
        var ghostSets = 0
        for round in 0..<3_000 {
            var cards = randomBoard(6, using: &generator)
            switch round % 4 {
            case 0:
                // Five cards and the sixth that makes the sum of all six zero.
                let ghost = VariantReference.missingCard(
                    VariantReference.missingCard(cards[0], cards[1]),
                    VariantReference.missingCard(cards[2], cards[3]))
                cards[5] = VariantReference.missingCard(cards[4], ghost)
            case 1:
                // Two sets, which the help page names as a GhostSet.
                cards[2] = VariantReference.missingCard(cards[0], cards[1])
                cards[5] = VariantReference.missingCard(cards[3], cards[4])
            default: break
            }
            guard Set(cards).count == 6 else { continue }
            let expected = VariantReference.isGhostSet(cards)
            if expected { ghostSets += 1 }
            #expect(round % 4 > 1 || expected)
            #expect(GhostSetRules.isGhostSet(cards) == expected, "\(cards)")
            #expect((GhostSetRules.whyNotGhostSet(cards) == nil) == expected, "\(cards)")
            #expect(SetMode.ghostset.isValidClaim(cards) == expected)
            // Any order of the six: the split the player named does not matter.
            #expect(GhostSetRules.isGhostSet(cards.reversed()) == expected)
        }
        #expect(ghostSets >= 1_400)
    }

    @Test func ghostSetBoardsHoldTheBruteForceGhostSets() {
        var generator = SeededGenerator(seed: 0x6058)
        for round in 0..<120 {
            let board = randomBoard(6 + round % 8, using: &generator)
            let expected = VariantReference.allClaims(in: board, size: 6, VariantReference.isGhostSet)
            #expect(GhostSetRules.allGhostSets(in: board) == expected)
            #expect(GhostSetRules.containsGhostSet(board) == !expected.isEmpty)
        }
    }

    @Test func threePairsCompletedByOneCardAreAGhostSet() throws {
        // 1RFT is the missing card of each pair: its ghosts are one card three times.
        let cards = try ["2RFT", "3RFT", "1GFT", "1PFT", "1RHT", "1RET"].map { try Card(code: $0) }
        #expect(
            GhostSetRules.ghosts(of: cards) == [
                try Card(code: "1RFT"), try Card(code: "1RFT"), try Card(code: "1RFT"),
            ])
        #expect(GhostSetRules.isGhostSet(cards) && VariantReference.isGhostSet(cards))
        let wrong = try ["2RFT", "3RFT", "1GFT", "1PFT", "1RHT", "2RET"].map { try Card(code: $0) }
        #expect(
            GhostSetRules.whyNotGhostSet(wrong)
                == "the pairs' missing cards 1RFT 1RFT 3RFT are not a set: count: two 1, one 3")
        #expect(SetMode.ghostset.whyNotValid(Array(wrong.prefix(4))) == "a GhostSet has 6 cards, not 4")
    }

    // MARK: UltraSet-Chain

    @Test func ultraChainClaimsReuseTwoCardsOfTheLast() {
        var generator = SeededGenerator(seed: 0x0C4A)
        var claimsSeen = 0
        for round in 0..<300 {
            let cards = randomBoard(4 + 12 + round % 10, using: &generator)
            let board = Array(cards.dropFirst(4))
            guard let ultra = SetRules.allUltraSets(in: board + Array(cards.prefix(4))).first else {
                continue
            }
            let chain = ultra.map { (board + Array(cards.prefix(4)))[$0] }
            let rest = board.filter { !chain.contains($0) }
            let claims = SetMode.ultrachain.claims(on: rest, chain: chain)
            let expected = VariantReference.chainedUltraSets(board: rest, chain: chain)
            #expect(Set(claims.map(Set.init)) == expected)
            #expect(claims.count == expected.count)
            for claim in claims {
                #expect(Array(claim.prefix(2)).allSatisfy(chain.contains))
                #expect(claim.suffix(2).allSatisfy(rest.contains))
                #expect(SetMode.ultrachain.isValidClaim(claim))
            }
            claimsSeen += claims.count
        }
        #expect(claimsSeen > 1_000)
    }

    // MARK: The largest boards without a claim

    /// Any 10 classic cards hold an UltraSet, and any 10 of 4Set Junior's a 4Set (the largest collections
    /// without one have 9, found by exhaustive search): ultra9 and 4setjr boards never need a second deal.
    @Test func tenCardsAlwaysHoldAnUltraSetAndAJuniorFourSet() {
        var generator = SeededGenerator(seed: 0x10)
        for _ in 0..<3_000 {
            #expect(!SetRules.allUltraSets(in: randomBoard(10, using: &generator)).isEmpty)
            #expect(
                FourSetRules.containsFourSet(randomBoard(10, from: Card.fourValuedSolid, using: &generator)))
        }
    }

    /// The card of 4Set's deck whose count, colour, fill and shape are the base-4 digits of `code` (two bits
    /// each, count lowest), as `modes-sim --largest-claim-free` writes its vectors.
    static func fourValued(_ code: Int, solid: Bool = false) -> Card {
        let digits =
            solid ? [code & 3, code >> 2 & 3, 0, code >> 4 & 3] : (0..<4).map { code >> (2 * $0) & 3 }
        return Card(
            count: digits[0] + 1, colour: Colour(rawValue: digits[1])!, fill: Fill(rawValue: digits[2])!,
            shape: Shape(rawValue: digits[3])!)
    }

    /// The largest collections without a claim, as `modes-sim --largest-claim-free` finds them (its
    /// exhaustive search shows none is larger): none holds a claim, and any card added makes one. The
    /// modes' largest boards rest on these sizes: 9 for UltraSets, 12 for GhostSets, 9 and 18 for 4Sets.
    @Test func theLargestCollectionsWithoutAClaimAreFull() {
        let ultraFree = [0, 1, 2, 3, 9, 24, 27, 43, 50].map(Card.init(index:))
        let ghostFree = [0, 1, 2, 3, 4, 9, 10, 27, 28, 44, 50, 68].map(Card.init(index:))
        let juniorFree = [0, 1, 2, 4, 8, 15, 16, 32, 51].map { Self.fourValued($0, solid: true) }
        let fourFree = [0, 1, 2, 4, 8, 15, 16, 32, 51, 64, 85, 106, 128, 150, 171, 219, 237, 247].map {
            Self.fourValued($0)
        }
        /// A collection, its deck, the game's test for a claim among cards, and the reference's rule.
        typealias Case = (
            free: [Card], deck: [Card], holdsClaim: ([Card]) -> Bool, size: Int, isClaim: ([Card]) -> Bool
        )
        let ultra: Case = (
            ultraFree, Card.all, { !SetRules.allUltraSets(in: $0).isEmpty }, 4, VariantReference.isUltraSet
        )
        let ghost: Case = (
            ghostFree, Card.all, GhostSetRules.containsGhostSet, 6, VariantReference.isGhostSet
        )
        let junior: Case = (
            juniorFree, Card.fourValuedSolid, FourSetRules.containsFourSet, 4, VariantReference.isFourSet
        )
        let four: Case = (
            fourFree, Card.fourValued, FourSetRules.containsFourSet, 4, VariantReference.isFourSet
        )
        for c in [ultra, ghost, junior, four] {
            #expect(Set(c.free).count == c.free.count && c.free.allSatisfy(c.deck.contains))
            #expect(!c.holdsClaim(c.free), "\(c.free)")
            #expect(VariantReference.allClaims(in: c.free, size: c.size, c.isClaim).isEmpty)
            for card in c.deck where !c.free.contains(card) {
                #expect(c.holdsClaim(c.free + [card]), "\(c.free) and \(card)")
            }
        }
        #expect(!SetRules.containsSet(setFreeTwenty))
    }

    @Test func eachModeSaysWhatItsClaimsAre() {
        let table: [(SetMode, SetKind, Int, Int)] = [
            (.normal, .set, 3, 12), (.junior, .set, 3, 12), (.chain, .set, 3, 12), (.ultra, .ultraSet, 4, 12),
            (.ultrachain, .ultraSet, 4, 12), (.ultra9, .ultraSet, 4, 9), (.megaset, .set, 3, 16),
            (.ghostset, .ghostSet, 6, 10), (.fourSet, .fourSet, 4, 15), (.fourSetJunior, .fourSet, 4, 11),
            (.puzzle, .set, 3, 12), (.shuffle, .set, 3, 12), (.memory, .set, 3, 21),
        ]
        #expect(table.map(\.0) == SetMode.allCases)
        for (mode, kind, size, dealt) in table {
            #expect(mode.kind == kind && mode.cardsPerClaim == size && mode.boardSize == dealt, "\(mode)")
            #expect(ModeReference.rules(mode).claimSize == size && ModeReference.rules(mode).dealt == dealt)
            #expect(Set(mode.cards) == Set(ModeReference.rules(mode).deck), "\(mode)")
            #expect(
                mode.maximumBoardSize >= dealt && mode.maximumBoardSize <= 52, "positions a…zz name them all")
        }
        #expect(SetMode.allCases.filter { $0.chainReuse != nil } == [.chain, .ultrachain])
        #expect(SetMode.chain.chainReuse == 1 && SetMode.ultrachain.chainReuse == 2)
        #expect(SetMode.allCases.filter(\.isPuzzle) == [.puzzle])
        #expect(SetMode.allCases.filter(\.shufflesAfterClaim) == [.shuffle])
        #expect(SetMode.allCases.filter(\.dealsFaceDown) == [.memory])
        #expect(SetMode(rawValue: "4set") == .fourSet && SetMode(rawValue: "4setjr") == .fourSetJunior)
    }
}
