import SetGame
import SetTestSupport
import Testing

/// MegaSet's and 4Set's cards and their codes: the classic cards and codes stay as they were.
@Suite("The cards of MegaSet and 4Set")
struct VariantCardTests {
    @Test func theDecksAreTheCombinationsOfTheirValues() {
        #expect(Card.universe.count == 418 && Set(Card.universe).count == 418)
        #expect(Card.universe.map(\.index) == Array(0..<418))
        #expect(Array(Card.universe.prefix(81)) == Card.all)
        #expect(Card.bordered == Array(Card.universe.prefix(243)))
        #expect(
            Card.bordered.count == 243 && Card.fourValued.count == 256 && Card.fourValuedSolid.count == 64)
        #expect(Set(Card.bordered) == Set(VariantReference.megasetDeck))
        #expect(Set(Card.fourValued) == Set(VariantReference.fourSetDeck))
        #expect(Set(Card.fourValuedSolid) == Set(VariantReference.fourSetJuniorDeck))
        // The classic deck is inside both: a classic card has a single border and no fourth value.
        #expect(
            Set(Card.all).isSubset(of: Set(Card.bordered)) && Set(Card.all).isSubset(of: Set(Card.fourValued))
        )
        #expect(Card.universe.filter(\.isClassic) == Card.all)
        #expect(Card.all.allSatisfy { $0.border == .single && !$0.hasFourthValue })
        #expect(Card.universe.filter(\.hasFourthValue).count == 256 - 81)
        #expect(Card.bordered.filter { $0.border != .single }.count == 162)
        // No card has both a fourth value and a border other than single.
        #expect(!Card.universe.contains { $0.hasFourthValue && $0.border != .single })
        #expect(Set(Card.universe.map { VariantReference.values($0) }).count == 418)
        #expect(SetMode.megaset.cards == Card.bordered && SetMode.fourSet.cards == Card.fourValued)
        #expect(SetMode.fourSetJunior.cards == Card.fourValuedSolid)
    }

    @Test func attributesRoundTripThroughTheInitialiser() {
        for card in Card.universe {
            let made = Card(
                count: card.count, colour: card.colour, fill: card.fill, shape: card.shape,
                border: card.border)
            #expect(made == card)
        }
        // The classic attributes give the classic indices, as they always did.
        #expect(Card(count: 1, colour: .red, fill: .solid, shape: .triangle).index == 0)
        #expect(Card(count: 3, colour: .purple, fill: .open, shape: .square).index == 80)
        #expect(Card(count: 3, colour: .purple, fill: .open, shape: .square, border: .dotted).index == 242)
        #expect(Card(count: 4, colour: .blue, fill: .dotted, shape: .cross).index == 417)
    }

    @Test func everyCodeRoundTripsAndTheClassicCodesAreUnchanged() throws {
        var codes = Set<String>()
        for card in Card.universe {
            let code = card.code
            codes.insert(code)
            #expect(code == code.uppercased() && card.description == code)
            #expect(try Card(anyCode: code) == card)
            #expect(try Card(anyCode: code.lowercased()) == card)
            #expect(try Card(anyCode: code[...]) == card)
            // Count, colour, fill, shape, then a border letter only for MegaSet's double or dotted borders.
            let letters = Array(code)
            #expect(letters.count == (card.border == .single ? 4 : 5))
            #expect(letters[0] == Character("\(card.count)"))
            #expect(letters[1] == ["R", "G", "P", "B"][card.colour.rawValue])
            #expect(letters[2] == ["F", "H", "E", "D"][card.fill.rawValue])
            #expect(letters[3] == ["T", "C", "S", "X"][card.shape.rawValue])
            if letters.count == 5 { #expect(letters[4] == ["W", "O"][card.border.rawValue - 1]) }
            if card.isClassic {
                #expect(try Card(code: code) == card && Card(code) == card)
            } else {
                // The classic parser refuses the new codes, as it always refused them.
                #expect(throws: CardCodeError.self) { try Card(code: code) }
                #expect(Card(code) == nil)
            }
        }
        #expect(codes.count == 418)
        #expect(try Card(anyCode: "3GHT") == Card(code: "3GHT"))
        #expect(
            try Card(anyCode: "3ghtw")
                == Card(count: 3, colour: .green, fill: .striped, shape: .triangle, border: .double))
        #expect(try Card(anyCode: "1RFSO").border == .dotted)
        #expect(try Card(anyCode: "4BDX") == Card(count: 4, colour: .blue, fill: .dotted, shape: .cross))
        #expect(try Card(anyCode: "1RFX").shape == .cross)
    }

    /// Every string of a count, a colour, a fill and a shape letter of any deck, with or without a border
    /// letter, is a card exactly when it does not give a border to a card with a fourth value.
    @Test func theParserAcceptsExactlyTheCodesOfSomeDeck() {
        var accepted = 0
        for c in "1234" {
            for o in "RGPB" {
                for f in "FHED" {
                    for s in "TCSX" {
                        let base = String([c, o, f, s])
                        let hasFourth = c == "4" || o == "B" || f == "D" || s == "X"
                        for border in ["", "W", "O"] {
                            let code = base + border
                            let card = try? Card(anyCode: code)
                            if hasFourth && !border.isEmpty {
                                #expect(throws: CardCodeError.borderWithFourthValue(code)) {
                                    try Card(anyCode: code)
                                }
                            } else {
                                #expect(card?.code == code, "\(code)")
                                accepted += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(accepted == 418)
    }

    /// A `String` is read by its own fast path (ASCII codes from their bytes); it must read every code
    /// exactly as the general path does, the same card or the same error: every string of four or five
    /// characters drawn from each position's letters in both cases, their neighbours and a few that are
    /// not ASCII ("ſ" upper-cases to "S", "ß" to "SS").
    @Test func aStringCodeReadsAsTheGeneralPathReadsIt() {
        let first: [Character] = ["1", "2", "3", "4", "0", "5", "x"]
        let colours: [Character] = ["R", "G", "P", "B", "r", "g", "p", "b", "A", "ſ"]
        let fills: [Character] = ["F", "H", "E", "D", "f", "h", "e", "d", "C", "ß"]
        let shapes: [Character] = ["T", "C", "S", "X", "t", "c", "s", "x", "ſ", "Y"]
        let borders: [Character?] = [nil, "W", "O", "w", "o", "R", "1", "é"]
        // The generic initializer (a `Substring` here) and the `String` overload.
        func general(_ code: Substring) -> Result<Card, CardCodeError> {
            Result { () throws(CardCodeError) in try Card(anyCode: code) }
        }
        func read(_ code: String) -> Result<Card, CardCodeError> {
            Result { () throws(CardCodeError) in try Card(anyCode: code) }
        }
        var compared = 0
        for c in first {
            for o in colours {
                for f in fills {
                    for s in shapes {
                        for border in borders {
                            let code = String([c, o, f, s] + (border.map { [$0] } ?? []))
                            let (fast, slow) = (read(code), general(code[...]))
                            if fast != slow { Issue.record("\(code): \(fast) against \(slow)") }
                            compared += 1
                        }
                    }
                }
            }
        }
        #expect(compared == 7 * 10 * 10 * 10 * 8)
        for odd in ["", "1", "1RF", "1RFTWW", "1RF T", "1RFT\u{301}", "\u{FF11}RFT"] {
            #expect(read(odd) == general(odd[...]), "\(odd)")
        }
    }

    @Test func badCodesNameWhatIsWrong() {
        let cases: [(String, CardCodeError)] = [
            ("", .wrongLengthForAnyDeck("")),
            ("3GH", .wrongLengthForAnyDeck("3GH")),
            ("3GHTWW", .wrongLengthForAnyDeck("3GHTWW")),
            ("5GHT", .badCharacter(position: 1, found: "5", attribute: "count", allowed: "1, 2, 3 or 4")),
            ("3YHT", .badCharacter(position: 2, found: "Y", attribute: "colour", allowed: "R, G, P or B")),
            ("3GQT", .badCharacter(position: 3, found: "Q", attribute: "fill", allowed: "F, H, E or D")),
            ("3GHQ", .badCharacter(position: 4, found: "Q", attribute: "shape", allowed: "T, C, S or X")),
            ("3GHTS", .badCharacter(position: 5, found: "S", attribute: "border", allowed: "W or O")),
            ("4GHTW", .borderWithFourthValue("4GHTW")),
            ("1BFTo", .borderWithFourthValue("1BFTo")),
        ]
        for (code, error) in cases {
            #expect(throws: error) { try Card(anyCode: code) }
        }
        #expect(
            CardCodeError.wrongLengthForAnyDeck("x").description
                == "'x' is not a card: a card code has 4 characters, like 3GHT,"
                + " or 5 with a border, like 3GHTW")
        #expect(CardCodeError.borderWithFourthValue("4GHTW").description.hasPrefix("'4GHTW' is not a card: "))
        // The classic parser says what it always said.
        #expect(throws: CardCodeError.wrongLength("3GHTW")) { try Card(code: "3GHTW") }
        #expect(
            throws: CardCodeError.badCharacter(
                position: 1, found: "4", attribute: "count", allowed: "1, 2 or 3")
        ) { try Card(code: "4GHT") }
    }

    @Test func theNewValuesHaveNames() {
        #expect("\(Colour.blue) \(Fill.dotted) \(Shape.cross)" == "blue dotted cross")
        #expect(Border.allCases.map(\.description) == ["single", "double", "dotted"])
    }
}
