import SetProtocol
import SetTestSupport
import Testing

@Suite("Properties over random input")
struct PropertyTests {
    /// Random bytes shaped like what a hostile or broken client sends: mostly junk, some LFs and CRs, now and
    /// then a real verb or a run long enough to pass the cap.
    static func randomInput(_ random: inout Xorshift) -> [UInt8] {
        let verbs =
            Command.synopses.map { $0.verb.rawValue + " " } + [
                "choose a f k @", "join x matchismo n=", "chat \u{1B}[",
            ]
        var input: [UInt8] = []
        let pieces = Int.random(in: 1...12, using: &random)
        for _ in 0..<pieces {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: input.append(0x0A)
            case 1: input += [0x0D, 0x0A]
            case 2: input += bytes(verbs.randomElement(using: &random)!)
            case 3:
                input += [UInt8](
                    repeating: UInt8.random(in: 0...255, using: &random),
                    count: Int.random(in: 900...1100, using: &random))
            case 4:
                input += random.bytes(Int.random(in: 1000...2100, using: &random)).map { 0x20 + $0 % 95 }
            default:
                input += random.bytes(Int.random(in: 0...40, using: &random))
            }
        }
        return input
    }

    @Test func framingAndParsingRandomBytesMatchesTheRules() {
        var random = Xorshift(seed: 0x5E7D_0001)
        let verbs = Set(Command.synopses.map(\.verb))
        var lineCount = 0
        for _ in 0..<2000 {
            let input = Self.randomInput(&random)
            var framer = LineFramer()
            let pieceSize = [3, 64, 1000, 1024, 1025, 4096, 1 << 20].randomElement(using: &random)!
            let frames = framer.frames(feeding: input, inPiecesOf: pieceSize)
            #expect(frames == FramingReference.frames(input).frames)
            for frame in frames {
                switch frame {
                case .tooLong(let prefix):
                    #expect(prefix.count == 64)
                case .line(let line):
                    lineCount += 1
                    #expect(line.count <= LineFramer.maximumLineLength)
                    switch Command.parse(line) {
                    case .success(let command):
                        #expect(verbs.contains(command.verb))
                        if case .chat(let text) = command {
                            #expect(
                                !text.isEmpty
                                    && !text.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{1B}" })
                        }
                    case .failure(let error):
                        // Every refusal names a verb HELP lists, or none (`-`).
                        #expect(error.verb.map(verbs.contains) ?? true)
                        // The reply must stay one clean line whatever the client sent.
                        let reply = error.line.text
                        #expect(
                            !reply.unicodeScalars.contains {
                                $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                            })
                        #expect(reply.utf8.count < 300)
                    }
                }
            }
        }
        #expect(lineCount > 2000)  // the generator really does make lines
    }

    @Test func parsingRandomServerLinesIsStable() {
        var random = Xorshift(seed: 0x5E7D_0002)
        let words = [
            "SETD", "OK", "ERR", "ROOM", "OPTIONS", "BOARD", "DECK", "CHAIN", "TURN", "PLAYER", "JOINED",
            "LEFT",
            "SET", "WRONG", "CHOSE", "CHAT", "NEWGAME", "VOTE", "OVER", "HINT", "HISTORY", "HELP", "PING",
            "BYE",
            "1", "-2", "x", ":", "a:1RFS", "bob:3", "mode=chain", "online", "away", "-", "=", "", "♥", "\t",
        ]
        for _ in 0..<5000 {
            let count = Int.random(in: 1...7, using: &random)
            let text = (0..<count).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            let parsed = ServerLine(parsing: text)
            // Formatting what was parsed and parsing it again changes nothing.
            let again = ServerLine(parsing: parsed.text)
            #expect(isSameStructure(again, parsed), "\(text.debugDescription)")
            if case .unknown(let raw) = parsed { #expect(raw == text) }
        }
    }
}
