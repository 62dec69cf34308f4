import SetProtocol
import Testing

@Suite("Names and free text")
struct TextRulesTests {
    @Test(arguments: [
        "a", "Z", "0", "_", "--", "bob", "Alice_99", "x-y", "abcdefghijklmnop", "0123456789ABCDEF",
    ])
    func validNames(name: String) {
        #expect(TextRules.isValidName(name))
    }

    @Test(arguments: [
        "", "-", "abcdefghijklmnopq", "bob smith", "bob\t", "bob!", "a.b", "a/b", "a:b", "a=b", "@bob",
        "héllo",
        "bøb",
        "名前", "ｂｏｂ", "bob\u{0}", "bob\n", "\u{1B}[31m", "♥",
    ])
    func invalidNames(name: String) {
        #expect(!TextRules.isValidName(name))
    }

    /// A command's text read from its bytes comes out as the same text read as a string would: tabs,
    /// escapes, controls, marks that fuse with a space, and invalid-looking mixes alike.
    @Test func textReadFromBytesIsSanitizedAsTheStringIs() {
        let pieces = [
            " ", "\t", "a", "Z", "~", "\u{1B}[31m", "\u{7F}", "\u{301}", "\u{200D}", "\u{0600}", "é", "♥",
            "\u{2028}",
            "\u{9B}2J", "名",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            #expect(
                TextRules.sanitized(utf8: Array(text.utf8)[...]) == TextRules.sanitized(text),
                "\(text.debugDescription)")
        }
    }

    /// Printable ASCII takes a shortcut past the scalar-by-scalar walk: it must come out as that walk
    /// makes it, the spaces at its ends gone and nothing else touched; anything else takes the walk.
    @Test func printableAsciiTextIsOnlyTrimmed() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &generator) ? 0x20 : UInt8.random(in: 0x20...0x7E, using: &generator)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let trimmed = text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
            #expect(TextRules.sanitized(text) == String(trimmed), "\(text)")
            #expect(TextRules.sanitized(utf8: bytes[...]) == String(trimmed), "\(text)")
        }
        #expect(TextRules.sanitized("  hi there ") == "hi there")
        #expect(TextRules.sanitized("   ") == "")
        #expect(
            TextRules.sanitized("a\tb") == "a b", "a tab is no printable ASCII: the walk makes it a space")
        #expect(TextRules.sanitized("red \u{1B}[31mtext") == "red text")
        #expect(TextRules.sanitized(" \u{301}hi") == "hi")
        #expect(TextRules.sanitized("caf\u{E9} ") == "caf\u{E9}")
    }

    @Test func theNameLengthBoundaryIsSixteen() {
        #expect(TextRules.maximumNameLength == 16)
        #expect(TextRules.isValidName(String(repeating: "a", count: 16)))
        #expect(!TextRules.isValidName(String(repeating: "a", count: 17)))
        #expect(TextRules.isValidName("a"))
        #expect(!TextRules.isValidName(""))
    }

    @Test func everyAllowedCharacterAndNoOtherAsciiIsAllowed() {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-".unicodeScalars)
        for value in UInt8(0)...UInt8(127) {
            let scalar = Unicode.Scalar(value)
            // `-` alone is the protocol's "nobody"; inside a longer name it is allowed.
            let expected = allowed.contains(scalar) && scalar != "-"
            #expect(TextRules.isValidName(String(scalar)) == expected, "\(value)")
            #expect(TextRules.isValidName("a" + String(scalar)) == allowed.contains(scalar), "a\(value)")
        }
    }

    @Test func substringsWork() {
        let text = "HELLO bob"
        #expect(TextRules.isValidName(text.split(separator: " ")[1]))
        #expect(TextRules.sanitized(text.split(separator: " ")[1]) == "bob")
    }

    @Test func sanitizedKeepsOrdinaryUnicode() {
        #expect(TextRules.sanitized("héllo ♥") == "héllo ♥")
        #expect(TextRules.sanitized("J♥ J♠ 6♦ 名前 Ωμέγα 👍🏽") == "J♥ J♠ 6♦ 名前 Ωμέγα 👍🏽")
        #expect(TextRules.sanitized("plain text, 100% [ok] ~`'\"") == "plain text, 100% [ok] ~`'\"")
    }

    @Test(arguments: [
        ("\u{1B}[31mred\u{1B}[0m", "red"),
        ("\u{1B}[1;38;5;196mbold\u{1B}[m!", "bold!"),
        ("\u{1B}[2J\u{1B}[Hcleared", "cleared"),
        ("up\u{1B}[3Aup", "upup"),
        ("\u{9B}31mcsi", "csi"),  // the one-character C1 CSI
        ("\u{1B}]0;title\u{07}after", "after"),  // OSC ended by BEL
        ("\u{1B}]2;title\u{1B}\\after", "after"),  // OSC ended by ST
        ("\u{1B}]2;title\u{9C}after", "after"),  // OSC ended by the one-character C1 ST
        ("\u{1B}]8;;http://x\u{07}link\u{1B}]8;;\u{07}", "link"),  // a hyperlink
        ("\u{1B}Pq#0;2;0;0;0\u{1B}\\dcs", "dcs"),  // DCS
        ("a\u{1B}cb", "ab"),  // a two-character escape (reset)
        ("a\u{1B}", "a"),  // a lone ESC at the end
    ])
    func sanitizedRemovesEscapeSequences(input: String, expected: String) {
        #expect(TextRules.sanitized(input) == expected)
    }

    @Test func sanitizedRemovesC0AndC1Controls() {
        var text = "x"
        var expected = "x"
        for value in UInt32(0)...0x9F where value < 0x20 || value >= 0x7F {
            guard value != 0x1B, value != 0x9B else { continue }  // introducers of escapes; tested above
            text.unicodeScalars.append(Unicode.Scalar(value)!)
            text += "x"
            expected += value == 0x09 ? " x" : "x"  // a tab becomes a space; every other control goes
        }
        #expect(TextRules.sanitized(text) == expected)
    }

    @Test func sanitizedRemovesBidiOverridesAndInvisibles() {
        let tricky = [
            "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}",
            "\u{2068}", "\u{2069}", "\u{200B}", "\u{200E}", "\u{200F}", "\u{FEFF}",
        ]
        for scalar in tricky {
            #expect(TextRules.sanitized("ab\(scalar)cd") == "abcd", "\(scalar.unicodeScalars.first!.value)")
        }
    }

    @Test func sanitizedTurnsTabsIntoSpacesAndTrims() {
        #expect(TextRules.sanitized("\ta\tb ") == "a b")
        #expect(TextRules.sanitized("  a  b  ") == "a  b")
        #expect(TextRules.sanitized("   ") == "")
        #expect(TextRules.sanitized("") == "")
    }

    @Test func sanitizedTextCannotSplitAProtocolLine() {
        #expect(TextRules.sanitized("hi\nOK HELLO evil\r\n") == "hiOK HELLO evil")
        #expect(TextRules.sanitized("a\u{85}b\u{0B}c\u{0C}d") == "abcd")  // NEL, VT, FF
    }

    @Test func joinersInEmojiAndScriptsSurvive() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        #expect(TextRules.sanitized("hi \(family)") == "hi \(family)")
        #expect(TextRules.sanitized("می\u{200C}خواهم") == "می\u{200C}خواهم")
    }
}
