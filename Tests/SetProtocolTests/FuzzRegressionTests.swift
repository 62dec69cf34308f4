import SetProtocol
import SetTestSupport
import Testing

/// Inputs that made `scripts/fuzz.sh protocol` (Fuzz/ProtocolFuzzer.swift) fail, minimized, kept as they
/// were found and replayed with the invariant that failed, plus the behaviour the fix gives.
///
/// A fuzz input is a settings byte for the framer's cap (`0x40` and above: the protocol's 1024 bytes), a
/// byte that seeds the read sizes, then the bytes a client sends.
@Suite("Fuzz regressions: protocol")
struct ProtocolFuzzRegressionTests {
    /// The client lines in a fuzz input, framed the way the server frames them.
    static func clientLines(ofFuzzInput input: [UInt8]) -> [[UInt8]] {
        var framer = LineFramer()
        return framer.append(Array(input.dropFirst(2))).compactMap { frame in
            guard case .line(let line) = frame else { return nil }
            return line
        }
    }

    // MARK: A chat that starts with a combining mark

    /// crash-66d7ceb… was a line that starts with U+0301; minimized here to the path a client takes,
    /// `CHAT<tab>́accent`. The sanitized text started with the mark, which fused with the space before it
    /// in `CHAT ann ́accent`, so clients read a chat from "ann ́accent" saying nothing.
    static let combiningMarkChat: [UInt8] = [
        0x40, 0x00, 0x43, 0x48, 0x41, 0x54, 0x09, 0xCC, 0x81, 0x61, 0x63, 0x63, 0x65, 0x6E, 0x74, 0x0A,
    ]

    @Test func theCombiningMarkChatReplaysCleanly() throws {
        let lines = Self.clientLines(ofFuzzInput: Self.combiningMarkChat)
        #expect(lines.count == 1)
        let command = try Command.parse(try #require(lines.first)).get()
        #expect(command == .chat(text: "accent"))
        guard case .chat(let text) = command else { return }
        #expect(TextReference.chatRoundTrips(text))
    }

    @Test(arguments: [
        ("\u{301}accent", "accent"),
        ("\u{301}\u{308}x", "x"),  // several marks
        (" \u{301} x ", "x"),  // a mark between spaces
        ("\u{200D}\u{1F468}", "\u{1F468}"),  // a joiner fuses with a space too
        ("\u{903}x", "x"),  // a spacing mark (Devanagari visarga)
        ("\u{301}", ""),
    ])
    func sanitizedTextNeverStartsWithAMarkThatFusesWithASpace(input: String, expected: String) {
        let clean = TextRules.sanitized(input)
        #expect(clean == expected)
        #expect(TextRules.sanitized(clean) == clean)
        if !clean.isEmpty { #expect(TextReference.chatRoundTrips(clean)) }
    }

    @Test func marksInsideTheTextStay() {
        // Only the start of the text touches the separator; later marks belong to their own characters.
        #expect(TextRules.sanitized("e\u{301}te\u{301}") == "e\u{301}te\u{301}")
        #expect(TextRules.sanitized("a \u{301}b") == "a \u{301}b")
        #expect(TextReference.chatRoundTrips("a \u{301}b"))
        #expect(TextReference.chatRoundTrips("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"))
    }

    @Test func aChatOfOnlyMarksIsRefusedLikeAnEmptyOne() {
        guard case .failure(let error) = Command.parse("CHAT\t\u{301}\u{301}") else {
            Issue.record("a chat of combining marks alone was accepted")
            return
        }
        #expect(error.code == .args && error.verb == .chat)
    }

    // MARK: An unknown game echoed back raw

    /// crash-507d146…, minimized: `JOIN r bogus` with an escape glued on (the fuzzer appends
    /// `ESC [ 2 J` to every line). The `BADOPTION` text quoted the game word as typed, so a client could
    /// make the server send escape sequences (or a kilobyte of text) back in the `ERR` line.
    static let escapeInGameName: [UInt8] = [
        0x40, 0x03, 0x4A, 0x4F, 0x49, 0x4E, 0x20, 0x72, 0x20, 0x62, 0x6F, 0x67, 0x75, 0x73, 0x1B, 0x5B, 0x32,
        0x4A, 0x0A,
    ]

    @Test func theEscapeInAGameNameReplaysCleanly() throws {
        let lines = Self.clientLines(ofFuzzInput: Self.escapeInGameName)
        #expect(lines.count == 1)
        guard case .failure(let error) = Command.parse(try #require(lines.first)) else {
            Issue.record("JOIN with an unknown game was accepted")
            return
        }
        #expect(error.verb == .join && error.code == .badOption)
        #expect(error.text == "unknown game 'bogus'; games: set, matchismo")
        #expect(TextReference.isClean(error.text))
        guard case .err(let verb, let code, let text) = ServerLine(parsing: error.line.text) else {
            Issue.record("the ERR line does not parse back")
            return
        }
        #expect(verb == "JOIN" && code == .badOption && text == error.text)
    }

    @Test func aLongUnknownGameIsCappedInTheReply() {
        let word = String(repeating: "g", count: 1000)
        guard case .failure(let error) = Command.parse("JOIN r \(word)") else {
            Issue.record("JOIN with an unknown game was accepted")
            return
        }
        #expect(error.code == .badOption)
        #expect(error.text == "unknown game '\(String(repeating: "g", count: 20))'; games: set, matchismo")
    }

    @Test func aKnownGameIsStillAnyCase() {
        #expect(
            Command.parse("JOIN r MatchISMO") == .success(.join(room: "r", game: .matchismo, options: [:])))
    }
}
