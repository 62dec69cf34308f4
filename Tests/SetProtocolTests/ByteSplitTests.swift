import SetProtocol
import Testing

/// Commands are split into words on blank bytes, and verbs fold ASCII case only, so no Unicode that
/// fuses with a blank can change what a line means.
@Suite struct ByteSplitTests {
    @Test(arguments: ["\u{200D}\u{200D}~", "\u{301}hi", "\u{600}", "\u{200D}a b"])
    func aChatStartingWithAGluingMarkIsStillAChat(text: String) throws {
        let parsed = try Command.parse(Array("CHAT \(text)".utf8)).get()
        guard case .chat(let chat) = parsed else {
            Issue.record("CHAT \(text.debugDescription) parsed as \(parsed)")
            return
        }
        #expect(!chat.isEmpty)
        #expect(chat.unicodeScalars.last == text.unicodeScalars.last, "\(chat.debugDescription)")
    }

    @Test func aJoinerAfterTheVerbDoesNotHideTheArgument() throws {
        #expect(try Command.parse(Array("HELLO \u{200D}ann".utf8)).get() == .hello(name: "\u{200D}ann"))
    }

    @Test(arguments: ["ſtate", "\u{212A}ick", "ﬁ"])
    func onlyASCIICaseFolds(line: String) {
        guard case .failure(let error) = Command.parse(Array(line.utf8)) else {
            Issue.record("\(line) parsed as a command")
            return
        }
        #expect(error.code == .unknown)
    }

    @Test func asciiCaseStillFolds() throws {
        #expect(try Command.parse(Array("sTaTe".utf8)).get() == .state)
    }
}

/// A revision is `@` and digits, nothing else.
@Suite struct RevisionSyntaxTests {
    @Test(arguments: ["@+1", "@-1", "@1x", "@", "@١", "@0x1"])
    func aRevisionIsDigitsOnly(word: String) {
        guard case .failure(let error) = Command.parse(Array("CHOOSE a b c \(word)".utf8)) else {
            Issue.record("\(word) was taken as a revision")
            return
        }
        #expect(error.code == .args)
    }

    @Test func digitsAreARevision() throws {
        #expect(
            try Command.parse(Array("CHOOSE a b c @17".utf8)).get()
                == .choose(picks: [.position(0), .position(1), .position(2)], revision: 17))
    }
}

/// Small rules a hostile client tried: a name that means "nobody", line separators in chat, an option
/// given twice.
@Suite struct ProtocolEdgeTests {
    @Test func dashAloneIsNotAName() {
        #expect(!TextRules.isValidName("-"))
        #expect(TextRules.isValidName("--") && TextRules.isValidName("a-b") && TextRules.isValidName("_"))
    }

    @Test func lineAndParagraphSeparatorsLeaveChat() {
        #expect(TextRules.sanitized("a\u{2028}b\u{2029}c") == "abc")
    }

    @Test func anOptionGivenTwiceIsRefused() {
        guard case .failure(let error) = Command.parse(Array("JOIN zz set mode=ultra mode=chain".utf8)) else {
            Issue.record("accepted")
            return
        }
        #expect(error.code == .badOption && error.text.contains("twice"), "\(error)")
    }
}
