import SetGame
import Testing

@Suite("Cards and card codes")
struct CardTests {
    @Test func deckHas81DistinctCards() {
        #expect(Card.all.count == 81)
        #expect(Set(Card.all).count == 81)
        #expect(Card.all.map(\.index) == Array(0..<81))
        let attributes = Set(Card.all.map { "\($0.count) \($0.colour) \($0.fill) \($0.shape)" })
        #expect(attributes.count == 81)
        #expect(Set(Card.all.map(\.count)) == [1, 2, 3])
        #expect(Card.all == Card.all.sorted())
    }

    @Test func attributesRoundTripThroughTheInitialiser() {
        var seen = 0
        // The classic deck's values: the first three of each attribute (4Set adds a fourth).
        for count in 1...3 {
            for colour in Colour.allCases.prefix(3) {
                for fill in Fill.allCases.prefix(3) {
                    for shape in Shape.allCases.prefix(3) {
                        let card = Card(count: count, colour: colour, fill: fill, shape: shape)
                        #expect(card.count == count && card.colour == colour)
                        #expect(card.fill == fill && card.shape == shape)
                        #expect(Card(index: card.index) == card)
                        seen += 1
                    }
                }
            }
        }
        #expect(seen == 81)
    }

    @Test func juniorDeckIsTheSolidCards() {
        #expect(Card.solid.count == 27)
        #expect(Set(Card.solid).count == 27)
        #expect(Card.solid.allSatisfy { $0.fill == .solid })
        #expect(Card.all.filter { $0.fill == .solid } == Card.solid)
        #expect(SetMode.junior.cards == Card.solid)
        #expect(SetMode.normal.cards == Card.all && SetMode.chain.cards == Card.all)
        #expect(SetMode.ultra.cards == Card.all)
    }

    @Test func codesRoundTripForAll81Cards() throws {
        var codes = Set<String>()
        for card in Card.all {
            let code = card.code
            #expect(code.count == 4)
            #expect(code == code.uppercased())
            #expect(card.description == code)
            codes.insert(code)
            #expect(try Card(code: code) == card)
            #expect(try Card(code: code.lowercased()) == card)
            #expect(try Card(code: code[...]) == card)  // a Substring works too
            #expect(Card(code) == card)
            // The letters say the attributes: count, colour, fill, shape.
            let letters = Array(code)
            #expect(letters[0] == Character("\(card.count)"))
            #expect(letters[1] == ["R", "G", "P"][card.colour.rawValue])
            #expect(letters[2] == ["F", "H", "E"][card.fill.rawValue])
            #expect(letters[3] == ["T", "C", "S"][card.shape.rawValue])
        }
        #expect(codes.count == 81)
    }

    @Test func knownCodes() throws {
        let card = try Card(code: "3GHT")
        #expect(card == Card(count: 3, colour: .green, fill: .striped, shape: .triangle))
        #expect(try Card(code: "1rfs") == Card(count: 1, colour: .red, fill: .solid, shape: .square))
        #expect(try Card(code: "2pEc").code == "2PEC")
        #expect(try Card(code: "2pEc") == Card(count: 2, colour: .purple, fill: .open, shape: .circle))
    }

    static let wrongLengths = ["", "3", "3GH", "3GHTS", " 3GHT", "3GHT "]

    @Test(arguments: wrongLengths)
    func wrongLengthIsRejected(code: String) {
        #expect(throws: CardCodeError.wrongLength(code)) { try Card(code: code) }
        #expect(Card(code) == nil)
        #expect(CardCodeError.wrongLength(code).description.contains("a card code has 4 characters"))
    }

    @Test func badCharacterNamesThePositionAndAttribute() {
        let cases: [(String, CardCodeError)] = [
            ("4GHT", .badCharacter(position: 1, found: "4", attribute: "count", allowed: "1, 2 or 3")),
            ("0GHT", .badCharacter(position: 1, found: "0", attribute: "count", allowed: "1, 2 or 3")),
            ("3XHT", .badCharacter(position: 2, found: "X", attribute: "colour", allowed: "R, G or P")),
            ("3gxt", .badCharacter(position: 3, found: "x", attribute: "fill", allowed: "F, H or E")),
            ("3GHQ", .badCharacter(position: 4, found: "Q", attribute: "shape", allowed: "T, C or S")),
            ("3GH ", .badCharacter(position: 4, found: " ", attribute: "shape", allowed: "T, C or S")),
            ("XXXX", .badCharacter(position: 1, found: "X", attribute: "count", allowed: "1, 2 or 3")),
            ("1RFé", .badCharacter(position: 4, found: "é", attribute: "shape", allowed: "T, C or S")),
        ]
        for (code, error) in cases {
            #expect(throws: error) { try Card(code: code) }
            #expect(Card(code) == nil)
        }
        #expect(
            CardCodeError.badCharacter(position: 2, found: "X", attribute: "colour", allowed: "R, G or P")
                .description == "character 2 'X' is not a colour (R, G or P)")
    }

    @Test func charactersThatGrowWhenUpperCasedDoNotConfuseTheLength() {
        // "ß" upper-cases to "SS" and "ﬀ" to "FF": the length is that of the code as typed, and the
        // character named in the error is the one typed.
        #expect(throws: CardCodeError.wrongLength("1Rﬀ")) { try Card(code: "1Rﬀ") }
        #expect(throws: CardCodeError.wrongLength("1ßT")) { try Card(code: "1ßT") }
        #expect(
            throws: CardCodeError.badCharacter(
                position: 3, found: "ß", attribute: "fill", allowed: "F, H or E")
        ) { try Card(code: "1Rßs") }
        #expect(Card("1Rﬀ") == nil)
    }
}
