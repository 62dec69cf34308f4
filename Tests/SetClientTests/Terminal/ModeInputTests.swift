import SetGame
import SetProtocol
import SetTerminal
import Testing

/// Typing in the later modes (protocol.md, "Later modes"): claims of 4 and 6 cards, MegaSet's positions
/// past z, memory's face-down cards, and a mode's name after `/new` or `/join`.
@Suite struct ModeInputTests {
    private func parse(_ line: String, _ context: UserCommand.Context) -> Result<UserCommand, InputError>? {
        UserCommand.parse(line, context: context)
    }

    private func context(_ mode: String, _ codes: [String]) -> UserCommand.Context {
        UserCommand.Context(DeckArtTests.view(mode: mode, codes))
    }

    @Test("A claim names 4 cards in 4set and the UltraSet modes, 6 in ghostset, as the room's mode says")
    func claimSizes() {
        let board = Array(repeating: "1RFT", count: 12).enumerated().map { Card.all[$0.offset].code }
        for (mode, n) in [("4set", 4), ("4setjr", 4), ("ultrachain", 4), ("ultra9", 4), ("ghostset", 6)] {
            let letters = "abcdef".prefix(n).map(String.init)
            #expect(parse(letters.joined(), context(mode, board)) == .success(.claim(letters)), "\(mode)")
            #expect(
                parse("abc", context(mode, board))
                    == .failure(InputError("a claim names \(n) cards, not 3")), "\(mode)")
        }
        #expect(
            parse("4bdx 1BFT c d", context("4set", board)) == .success(.claim(["4BDX", "1BFT", "c", "d"])))
        #expect(
            parse("3ghtw 1rft 2rfto", context("megaset", board))
                == .success(.claim(["3GHTW", "1RFT", "2RFTO"])))
    }

    @Test("On a board past z a z and the next letter are one position, za…zv; z alone stays z")
    func positionsPastZ() {
        let big = context("megaset", Card.bordered.prefix(48).map(\.code))
        #expect(parse("za zv a", big) == .success(.claim(["za", "zv", "a"])))
        #expect(parse("zazvb", big) == .success(.claim(["za", "zv", "b"])))
        #expect(parse("z za y", big) == .success(.claim(["z", "za", "y"])))
        #expect(UserCommand.typedPositions("a zb", context: big) == [0, 27])
        let small = context("megaset", Card.bordered.prefix(27).map(\.code))
        #expect(parse("zb a c", small) == .failure(InputError("there is no card zb on the board")))
        // On a board of 26 or fewer, letters are one position each, as always.
        let sixteen = context("megaset", Card.bordered.prefix(16).map(\.code))
        #expect(parse("zab", sixteen) == .failure(InputError("there is no card z on the board")))
    }

    @Test("Memory's face-down cards are named by letter; a code would be a guess, so it is refused here")
    func memory() {
        let board = context("memory", Array(repeating: "??", count: 21))
        #expect(parse("a k u", board) == .success(.claim(["a", "k", "u"])))
        #expect(
            parse("1rft k u", board)
                == .failure(InputError("the cards lie face down: name them by their letters")))
    }

    @Test("/new and /join take a bare mode name for mode=<name>; other words pass as typed")
    func modeWords() {
        let set12 = UserCommand.Context(boardCount: 12)
        #expect(parse("/new 4set", set12) == .success(.new(["mode=4set"])))
        #expect(parse("/new MegaSet penalty=0", set12) == .success(.new(["mode=megaset", "penalty=0"])))
        #expect(parse("/new", set12) == .success(.new([])))
        #expect(parse("/join fun memory", set12) == .success(.join(room: "fun", words: ["mode=memory"])))
        #expect(
            parse("/join fun matchismo n=3", set12)
                == .success(.join(room: "fun", words: ["matchismo", "n=3"])))
        for mode in SetMode.allCases {
            #expect(parse("/new \(mode.rawValue)", set12) == .success(.new(["mode=\(mode.rawValue)"])))
        }
    }
}
