import SetGame
import Testing

@testable import SetProtocol

/// `CHOOSE` is read on the bytes of its words; what it reads must be what reading the words as text
/// gives (the reference below is the earlier parser, which made a `String` of every word and looked at
/// its characters), whatever the words: positions, codes, `afk`, revisions, junk, non-ASCII, marks that
/// fuse with their neighbours.
@Suite struct ChooseBytesTests {
    /// The words as text, as the parser read them before.
    private func reference(_ line: String) -> Result<Command, ProtocolError>? {
        let bytes = Array(line.utf8)
        guard bytes.starts(with: Array("CHOOSE".utf8)) else { return nil }
        let words = bytes.dropFirst(6).split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).map {
            String(decoding: $0, as: UTF8.self)
        }
        let usage = ProtocolError(.choose, .args, "usage: CHOOSE <pos|card> ... [@<rev>]")
        var list = words
        var revision: Int?
        if let last = list.last, last.hasPrefix("@") {
            let digits = last.utf8.dropFirst()
            guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                let number = Int(String(decoding: digits, as: UTF8.self))
            else {
                return .failure(
                    ProtocolError(
                        .choose, .args, "'\(TextRules.sanitized(last.prefix(24)))' is not a revision like @17"
                    ))
            }
            revision = number
            list.removeLast()
        }
        if list.count == 1, list[0].count > 2, list[0].allSatisfy({ $0.isLetter && $0.isASCII }),
            list[0].count <= Command.maximumPicks
        {
            list = list[0].map { String($0) }
        }
        guard !list.isEmpty, list.count <= Command.maximumPicks else { return .failure(usage) }
        let picks = list.map { word -> Command.Pick in
            if let position = SetGame.position(named: word) { return .position(position) }
            return .code(word)
        }
        return .success(.choose(picks: picks, revision: revision))
    }

    private func same(_ a: Result<Command, ProtocolError>, _ b: Result<Command, ProtocolError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x == y
        case (.failure(let x), .failure(let y)): x.verb == y.verb && x.code == y.code && x.text == y.text
        default: false
        }
    }

    @Test func aClaimReadsAsItsWordsReadAsText() throws {
        let pieces = [
            "a", "b", "zb", "ZA", "1RES", "3pft", "QD", "10H", "afk", "ABCDEFGH", "abcdefghi", "@17", "@0",
            "@+1", "@", "@99999999999999999999", "@1x", "é", "e\u{301}", "a\u{301}bc", "\u{200D}", "\u{0600}",
            "ab1", "??", "x", " ", "\t", "  ",
        ]
        var random = SeededGenerator(seed: 7)
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...6, using: &random)
            var line = "CHOOSE"
            for _ in 0..<count {
                line += Bool.random(using: &random) ? " " : (Bool.random(using: &random) ? "\t" : "  ")
                line += pieces.randomElement(using: &random)!
            }
            let parsed = Command.parse(Array(line.utf8))
            let expected = try #require(reference(line))
            #expect(same(parsed, expected), "\(line.debugDescription): \(parsed) against \(expected)")
        }
    }

    @Test func positionsSpelledByBytesAreThePositionsNamed() {
        for name in ["a", "u", "Z", "za", "ZB", "zz", "", "ab", "z1", "1", "é", "zzz", "@"] {
            #expect(
                SetGame.position(spelledBy: ArraySlice(name.utf8)) == SetGame.position(named: name), "\(name)"
            )
        }
        let padded = Array("xza".utf8)
        #expect(SetGame.position(spelledBy: padded[1...]) == 26, "a word that does not start at 0")
    }
}
