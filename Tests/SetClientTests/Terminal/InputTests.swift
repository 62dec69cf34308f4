import SetTerminal
import Testing

@Suite struct UserCommandTests {
    private let set12 = UserCommand.Context(boardCount: 12)

    private func parse(_ line: String, _ context: UserCommand.Context? = nil) -> Result<
        UserCommand, InputError
    >? {
        UserCommand.parse(line, context: context ?? set12)
    }

    @Test("Three letters claim a set, with or without spaces, in any case")
    func claims() {
        #expect(parse("a f k") == .success(.claim(["a", "f", "k"])))
        #expect(parse("afk") == .success(.claim(["a", "f", "k"])))
        #expect(parse("  A,F K ") == .success(.claim(["a", "f", "k"])))
        #expect(parse("1rfs 2GHT c") == .success(.claim(["1RFS", "2GHT", "c"])))
    }

    @Test("Claims that cannot be right are refused with advice, before anything is sent")
    func badClaims() {
        #expect(parse("ab") == .failure(InputError("a claim names 3 cards, not 2")))
        #expect(
            parse("hello") == .failure(InputError("a claim names 3 cards, not 5; to talk, type /chat hello")))
        #expect(parse("a a b") == .failure(InputError("you named a twice")))
        #expect(parse("a b z") == .failure(InputError("there is no card z on the board")))
        #expect(parse("a b !") == .failure(InputError("'!' is not a card letter; to talk, type /chat a b !")))
        #expect(
            parse("abcd", UserCommand.Context(cardsPerClaim: 4, boardCount: 12))
                == .success(.claim(["a", "b", "c", "d"])))
    }

    @Test("Chain mode names the chain cards by number; Matchismo turns one card")
    func chainAndMatchismo() {
        let chain = UserCommand.Context(boardCount: 12, chain: ["1GFS", "2GFC", "3GFT"])
        #expect(parse("af2", chain) == .success(.claim(["a", "f", "2GFC"])))
        #expect(parse("a f 4", chain) == .failure(InputError("the chain cards are 1–3")))
        let matchismo = UserCommand.Context(isMatchismo: true, boardCount: 26)
        #expect(parse("q", matchismo) == .success(.claim(["q"])))
        #expect(parse("QD", matchismo) == .success(.claim(["QD"])))
        #expect(parse("ab", matchismo) == .failure(InputError("Matchismo: turn one card at a time")))
        let thirty = UserCommand.Context(isMatchismo: true, boardCount: 30)
        #expect(parse("zc", thirty) == .success(.claim(["zc"])))
    }

    @Test("Slash commands and ?")
    func commands() {
        #expect(parse("") == nil)
        #expect(parse("?") == .success(.help))
        #expect(parse("/chat  hi  there ") == .success(.chat("hi  there")))
        #expect(parse("/chat \u{1B}[2J") == .failure(InputError("usage: /chat <text>")))
        #expect(parse("/hint") == .success(.hint))
        #expect(parse("/new mode=ultra") == .success(.new(["mode=ultra"])))
        #expect(parse("/history") == .success(.history(nil)))
        #expect(parse("/history den") == .success(.history("den")))
        #expect(parse("/rooms") == .success(.rooms))
        #expect(
            parse("/join den matchismo n=3") == .success(.join(room: "den", words: ["matchismo", "n=3"])))
        #expect(parse("/join d@n") == .failure(InputError("a room name is 1–16 of A–Z a–z 0–9 _ -")))
        #expect(parse("/QUIT") == .success(.quit))
        #expect(parse("/frob") == .failure(InputError("unknown command /frob; ? shows the commands")))
    }

    @Test("Letters being typed are highlighted on the board")
    func typedPositions() {
        #expect(UserCommand.typedPositions("a f", context: set12) == [0, 5])
        #expect(UserCommand.typedPositions("afz", context: set12) == [0, 5])
        #expect(UserCommand.typedPositions("/chat abc", context: set12) == [])
    }
}

@Suite struct LineEditorTests {
    private func typed(_ text: String) -> LineEditor {
        var editor = LineEditor()
        for c in text { editor.insert(c) }
        return editor
    }

    @Test("Typing, moving and deleting")
    func editing() {
        var e = typed("helo")
        e.moveLeft()
        e.insert("l")
        #expect(e.text == "hello" && e.cursor == 4)
        e.moveToStart()
        e.deleteForward()
        e.moveToEnd()
        e.deleteBackward()
        #expect(e.text == "ell")
        e = typed("/chat hello world")
        e.deleteWordBackward()
        #expect(e.text == "/chat hello ")
        e.moveToStart()
        e.moveRight()
        e.deleteToEnd()
        #expect(e.text == "/")
    }

    @Test("↑ and ↓ bring back earlier lines and then what was being typed")
    func history() {
        var e = typed("afk")
        #expect(e.submit() == "afk")
        for c in "/hint" { e.insert(c) }
        _ = e.submit()
        for c in "ab" { e.insert(c) }
        e.recallPrevious()
        #expect(e.text == "/hint")
        e.recallPrevious()
        e.recallPrevious()
        #expect(e.text == "afk")
        e.recallNext()
        e.recallNext()
        #expect(e.text == "ab")
        #expect(e.history == ["afk", "/hint"])
    }

    @Test("The line holds at most what fits in one protocol line")
    func limit() {
        let e = typed(String(repeating: "é", count: 2000))
        #expect(e.text.utf8.count <= LineEditor.maximumBytes)
        #expect(e.text.utf8.count >= LineEditor.maximumBytes - 1)
    }
}

@Suite struct KeyDecoderTests {
    private func keys(_ chunks: [UInt8]...) -> [Key] {
        var decoder = KeyDecoder()
        return chunks.flatMap { decoder.decode($0) }
    }

    @Test("Printable characters, including UTF-8 split across reads")
    func characters() {
        #expect(keys(Array("a é".utf8)) == [.character("a"), .character(" "), .character("é")])
        let heart = Array("♥".utf8)
        #expect(keys([heart[0]], Array(heart[1...])) == [.character("♥")])
    }

    @Test("Control keys: Enter, Backspace, Tab, Ctrl-C")
    func controls() {
        #expect(
            keys([0x0D, 0x0A, 0x7F, 0x08, 0x09, 0x03, 0x17]) == [
                .enter, .enter, .backspace, .backspace, .tab, .control("c"), .control("w"),
            ])
    }

    @Test("Escape sequences, also split across reads; a lone ESC is Escape")
    func escapes() {
        let esc: UInt8 = 0x1B
        #expect(keys([esc] + Array("[A".utf8), [esc] + Array("[B".utf8)) == [.up, .down])
        #expect(
            keys([esc] + Array("[5~".utf8) + [esc] + Array("[6~".utf8) + [esc] + Array("[3~".utf8)) == [
                .pageUp, .pageDown, .delete,
            ])
        #expect(
            keys([esc] + Array("OH".utf8) + [esc] + Array("[F".utf8) + [esc] + Array("[1;5C".utf8)) == [
                .home, .end, .right,
            ])
        #expect(keys([esc, UInt8(ascii: "[")], Array("D".utf8)) == [.left])
        #expect(keys([esc]) == [.escape])
        #expect(keys([esc] + Array("[99~x".utf8)) == [.character("x")])
    }
}

@Suite struct CLIOptionsTests {
    @Test("Defaults come from the environment")
    func defaults() throws {
        let options = try CLIOptions.parse([], environment: ["USER": "j.doe"])
        #expect(options.host == "127.0.0.1" && options.port == 7777 && options.room == "lobby")
        #expect(options.name == "jdoe")
        #expect(options.isColour && !options.isPlain)
        #expect(try CLIOptions.parse([], environment: ["NO_COLOR": "1"]).isColour == false)
        #expect(try CLIOptions.parse([], environment: ["NO_COLOR": ""]).isColour == true)
    }

    @Test("Every flag, with a separate or an inline value")
    func flags() throws {
        let options = try CLIOptions.parse([
            "--host", "::1", "--port=9000", "--name", "bob", "--room", "den", "--game", "matchismo",
            "--option", "n=3",
            "--no-color", "--plain",
        ])
        #expect(
            options.host == "::1" && options.port == 9000 && options.name == "bob" && options.room == "den")
        #expect(options.game == .matchismo && options.options == ["n=3"])
        #expect(!options.isColour && options.isPlain)
        #expect(try CLIOptions.parse(["-h"]).wantsHelp)
    }

    @Test("Bad arguments are refused with the reason")
    func errors() {
        #expect(throws: CLIError("--port: 'x' is not a port (1–65535)")) {
            try CLIOptions.parse(["--port", "x"])
        }
        #expect(throws: CLIError("--name needs a value")) { try CLIOptions.parse(["--name"]) }
        #expect(throws: CLIError("--name: 'bad name' is not 1–16 of A–Z a–z 0–9 _ -")) {
            try CLIOptions.parse(["--name", "bad name"])
        }
        #expect(throws: CLIError("--game: 'poker' is not set or matchismo")) {
            try CLIOptions.parse(["--game", "poker"])
        }
        #expect(throws: CLIError("unknown argument '--frob'")) { try CLIOptions.parse(["--frob"]) }
    }
}
