import SetGame
import SetProtocol
import Testing

// Telnet's bytes (RFC 854/855): commands, and the options PuTTY and telnet offer.
private let iac: UInt8 = 255
private let dont: UInt8 = 254
private let `do`: UInt8 = 253
private let wont: UInt8 = 252
private let will: UInt8 = 251
private let sb: UInt8 = 250
private let se: UInt8 = 240
private let echo: UInt8 = 1
private let sga: UInt8 = 3
private let ttype: UInt8 = 24
private let naws: UInt8 = 31
private let tspeed: UInt8 = 32
private let linemode: UInt8 = 34
private let newEnviron: UInt8 = 39

/// What PuTTY sends first in telnet mode (its `opts` table, every option it starts REQUESTED).
private let puttyOpening: [UInt8] = [
    iac, will, naws, iac, will, tspeed, iac, will, ttype, iac, will, newEnviron, iac, `do`, echo,
    iac, will, sga, iac, `do`, sga,
]

@Suite("Telnet filter")
struct TelnetFilterTests {
    /// Feeds `input` in pieces of `size` and returns all the data and all the answers.
    private func run(_ input: [UInt8], inPiecesOf size: Int = .max) -> (data: [UInt8], replies: [UInt8]) {
        var filter = TelnetFilter()
        var data: [UInt8] = []
        var replies: [UInt8] = []
        var start = 0
        while start < input.count {
            let end = start + min(size, input.count - start)
            let (d, r) = filter.filter(Array(input[start..<end]))
            data += d
            replies += r
            start = end
        }
        return (data, replies)
    }

    @Test func plainBytesPassUntouchedWithNoAnswer() {
        let input = bytes("HELLO ann\r\nJOIN fun\n\ra\rb\r\r\n\t ~é\n")
        #expect(run(input) == (input, []))
        #expect(run(input, inPiecesOf: 1) == (input, []))
    }

    @Test func aChunkWithNothingToTakeOutIsPassedOnInOnePieceUncopied() {
        var filter = TelnetFilter()
        let input = bytes("CHAT hello\r\nPING\n")
        var replies: [UInt8] = []
        var pieces: [UnsafeRawBufferPointer] = []
        input.withUnsafeBytes { raw in
            filter.filter(raw, replies: &replies) { pieces.append($0) }
            #expect(pieces.count == 1)
            #expect(pieces.first?.baseAddress == raw.baseAddress && pieces.first?.count == raw.count)
        }
        #expect(replies.isEmpty)
    }

    @Test func puttysOpeningIsRefusedOptionByOption() {
        let expected: [UInt8] = [
            iac, dont, naws, iac, dont, tspeed, iac, dont, ttype, iac, dont, newEnviron, iac, wont, echo,
            iac, dont, sga, iac, wont, sga,
        ]
        for size in [1, 2, 3, 5, .max] {
            let (data, replies) = run(puttyOpening + bytes("HELLO ann\r\n"), inPiecesOf: size)
            #expect(data == bytes("HELLO ann\r\n"), "pieces of \(size)")
            #expect(replies == expected, "pieces of \(size)")
        }
    }

    @Test func eachOptionIsRefusedOncePerVerb() {
        let input: [UInt8] = [
            iac, `do`, echo, iac, `do`, echo, iac, will, echo, iac, will, echo, iac, `do`, echo, iac, will,
            linemode,
            iac, will, linemode,
        ]
        #expect(run(input) == ([], [iac, wont, echo, iac, dont, echo, iac, dont, linemode]))
        // All 256 options, twice over: one answer each, never more.
        let all = (0...255).flatMap { [iac, `do`, UInt8($0), iac, will, UInt8($0)] }
        let (_, replies) = run(all + all, inPiecesOf: 7)
        #expect(replies == (0...255).flatMap { [iac, wont, UInt8($0), iac, dont, UInt8($0)] })
    }

    /// The refused options live in a box made at the first refusal; a copy of a filter (a value) still
    /// answers for itself: what one copy refuses after the copy, the other refuses too.
    @Test func aCopyOfAFilterRefusesOptionsOnItsOwn() {
        var first = TelnetFilter()
        #expect(first.filter([iac, `do`, echo]).replies == [iac, wont, echo])
        var second = first
        #expect(second.filter([iac, `do`, sga, iac, `do`, echo]).replies == [iac, wont, sga])
        #expect(first.filter([iac, `do`, sga]).replies == [iac, wont, sga], "the copy's refusal is its own")
        #expect(first.filter([iac, `do`, sga, iac, will, sga]).replies == [iac, dont, sga])
        #expect(second.filter([iac, will, sga]).replies == [iac, dont, sga])
    }

    @Test func wontAndDontGetNoAnswer() {
        let input: [UInt8] = [iac, wont, echo, iac, dont, sga, iac, wont, 200] + bytes("PING\n")
        #expect(run(input) == (bytes("PING\n"), []))
    }

    @Test(arguments: Array(236...249) + [240])
    func otherCommandsAreDroppedWithoutAnswer(command: Int) {
        let input = bytes("PI") + [iac, UInt8(command)] + bytes("NG\n")
        #expect(run(input) == (bytes("PING\n"), []))
        #expect(run(input, inPiecesOf: 1) == (bytes("PING\n"), []))
    }

    @Test func doubledIACIsOneDataByte() {
        let input = bytes("CHAT ") + [iac, iac] + bytes("x\n")
        #expect(run(input) == (bytes("CHAT ") + [iac] + bytes("x\n"), []))
        #expect(run(input, inPiecesOf: 1).data == bytes("CHAT ") + [iac] + bytes("x\n"))
        // So a line with it is not UTF-8, as a lone 0xFF from nc is not today.
        var framer = LineFramer()
        if case .line(let text) = framer.append(run(input).data).first {
            #expect(!text.isValidUTF8)
        } else {
            Issue.record("no line")
        }
    }

    @Test func iacBeforeANonCommandStaysInTheData() {
        let input = bytes("A") + [iac] + bytes("B\n")
        #expect(run(input) == (input, []))
        #expect(run(input, inPiecesOf: 1) == (input, []))
    }

    @Test func subnegotiationsAreDroppedWithDoubledIACInside() {
        let input =
            bytes("HEL") + [iac, sb, naws, 0, 80, iac, iac, 24, iac, se] + bytes("LO ann\n")
            + [iac, sb, ttype, 0] + bytes("XTERM") + [iac, se] + bytes("PING\n")
        for size in [1, 2, 4, .max] {
            #expect(run(input, inPiecesOf: size) == (bytes("HELLO ann\nPING\n"), []), "pieces of \(size)")
        }
    }

    @Test func aCommandInsideASubnegotiationEndsIt() {
        let input = [iac, sb, naws, 1, 2, iac, `do`, echo] + bytes("PING\n")
        #expect(run(input) == (bytes("PING\n"), [iac, wont, echo]))
    }

    @Test func anUnterminatedSubnegotiationIsGivenUpAtTheCap() {
        let cap = TelnetFilter.maximumSubnegotiationLength
        // `IAC SB` and exactly the cap of bytes are skipped; what follows is data again.
        let input = [iac, sb] + filler(cap) + bytes("PING\n")
        for size in [1, 100, .max] {
            #expect(run(input, inPiecesOf: size) == (bytes("PING\n"), []), "pieces of \(size)")
        }
        // A doubled IAC inside counts as two bytes of it.
        let doubled = [iac, sb] + [UInt8](repeating: iac, count: cap) + bytes("PING\n")
        #expect(run(doubled) == (bytes("PING\n"), []))
        // One byte short of the cap, the subnegotiation still swallows everything.
        var filter = TelnetFilter()
        _ = filter.filter([iac, sb] + filler(cap - 1))
        #expect(filter.isInsideCommand)
        #expect(filter.filter(bytes("X")).data.isEmpty)
        #expect(!filter.isInsideCommand)
        #expect(filter.filter(bytes("PING\n")).data == bytes("PING\n"))
    }

    @Test func crNulIsALineEndLikeCrLf() {
        let input = bytes("HELLO ann\r") + [0] + bytes("JOIN fun\r") + [0]
        for size in [1, 2, .max] {
            let (data, replies) = run(input, inPiecesOf: size)
            #expect(data == bytes("HELLO ann\r\nJOIN fun\r\n"), "pieces of \(size)")
            #expect(replies.isEmpty)
            var framer = LineFramer()
            #expect(framer.append(data) == [line("HELLO ann"), line("JOIN fun")])
        }
    }

    @Test func crNulAcrossACommandIsStillALineEnd() {
        let input = bytes("PING\r") + [iac, 241, 0]
        #expect(run(input) == (bytes("PING\r\n"), []))
        #expect(run(input, inPiecesOf: 1) == (bytes("PING\r\n"), []))
    }

    @Test func aNulNotAfterCrAndABareCrStayData() {
        let input = bytes("a") + [0] + bytes("b\rc\r") + [iac, iac, 0] + bytes("\n")
        #expect(run(input).data == bytes("a") + [0] + bytes("b\rc\r") + [iac, 0] + bytes("\n"))
    }

    @Test func randomBytesWithoutIACNeverGetAnAnswer() {
        var generator = SeededGenerator(seed: 12)
        for _ in 0..<200 {
            let input = (0..<Int(generator.next() % 300)).map { _ in UInt8(generator.next() % 255) }
            let whole = run(input)
            #expect(whole.replies.isEmpty)
            #expect(run(input, inPiecesOf: Int(generator.next() % 9) + 1) == whole)
            // Only CR NUL changes: every NUL after a CR became an LF.
            var expected = input
            for index in expected.indices.dropFirst()
            where expected[index] == 0 && expected[index - 1] == 0x0D {
                expected[index] = 0x0A
            }
            #expect(whole.data == expected)
        }
    }

    /// Junk with every byte value, IAC and NUL among them (what a flood sends): the filter skips
    /// long runs of plain data at once, and must read them as it does one byte at a time.
    @Test func junkReadsTheSameWholeAsByteByByte() {
        var generator = SeededGenerator(seed: 21)
        for _ in 0..<100 {
            let input = (0..<Int(generator.next() % 2_000)).map { _ in
                UInt8(truncatingIfNeeded: generator.next())
            }
            let whole = run(input)
            #expect(run(input, inPiecesOf: 1) == whole)
            #expect(run(input, inPiecesOf: Int(generator.next() % 300) + 2) == whole)
        }
    }

    @Test func anySplitOfAnyNegotiationGivesTheSameResult() {
        var generator = SeededGenerator(seed: 7)
        let pieces: [[UInt8]] = [
            puttyOpening, [iac, iac], [iac, sb, 5, iac, iac, 1, iac, se], [iac, 241], bytes("PING\r\n"),
            bytes("CHAT x\r"), [0], [iac, `do`, 99], [iac, wont, 3], bytes("é"),
        ]
        for _ in 0..<200 {
            let input = (0..<12).flatMap { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
            let whole = run(input)
            #expect(run(input, inPiecesOf: 1) == whole)
            #expect(run(input, inPiecesOf: Int(generator.next() % 13) + 2) == whole)
        }
    }
}

extension [UInt8] {
    fileprivate var isValidUTF8: Bool { String(validating: self, as: UTF8.self) != nil }
}
