import SetProtocol
import Testing

@Suite("Line framing")
struct LineFramerTests {
    @Test func lfAndCrlfLinesLoseTheirTerminators() {
        var framer = LineFramer()
        #expect(framer.append(bytes("HELLO bob\n")) == [line("HELLO bob")])
        #expect(framer.append(bytes("PING\r\n")) == [line("PING")])
        #expect(framer.bufferedCount == 0)
    }

    @Test func aDrainedFramerHoldsNoBuffer() {
        var framer = LineFramer()
        #expect(framer.append(bytes("HELLO b")).isEmpty)
        #expect(framer.heldCapacity >= 7)
        #expect(framer.append(bytes("ob\nPING\n")) == [line("HELLO bob"), line("PING")])
        // An idle connection keeps no buffer between its lines.
        #expect(framer.heldCapacity == 0)
    }

    @Test func onlyOneCrBeforeTheLfIsDropped() {
        var framer = LineFramer()
        // A CR elsewhere is part of the line; Command.parse decides what it means.
        #expect(framer.append(bytes("a\rb\r\r\n")) == [line("a\rb\r")])
        #expect(framer.append(bytes("\r\n\n")) == [line(""), line("")])
    }

    @Test func manyLinesInOneAppendComeOutInOrder() {
        var framer = LineFramer()
        let input = (0..<500).map { "CHAT line \($0)\n" }.joined()
        let frames = framer.append(bytes(input))
        #expect(frames == (0..<500).map { line("CHAT line \($0)") })
        #expect(framer.bufferedCount == 0)
    }

    @Test func aLineFedOneByteAtATimeIsTheSameLine() {
        var framer = LineFramer()
        let input = bytes("JOIN fun matchismo n=3\r\nCHOOSE a f k @17\nHALF")
        var frames: [LineFramer.Frame] = []
        for byte in input {
            frames += framer.append([byte])
        }
        #expect(frames == [line("JOIN fun matchismo n=3"), line("CHOOSE a f k @17")])
        #expect(framer.bufferedCount == 4)
    }

    @Test(arguments: [1, 2, 3, 7, 64, 1000, 4096])
    func chunkingDoesNotChangeTheFrames(pieceSize: Int) {
        let input =
            bytes("HELLO bob\r\nPING\n\nCHAT hi\r\r\n") + filler(1024) + bytes("\r\n") + filler(3000)
            + bytes("\nSTATE\n")
        var whole = LineFramer()
        var pieces = LineFramer()
        let expected = [
            line("HELLO bob"), line("PING"), line(""), line("CHAT hi\r"), .line(filler(1024)),
            .tooLong(prefix: filler(64)), line("STATE"),
        ]
        #expect(whole.append(input) == expected)
        #expect(pieces.frames(feeding: input, inPiecesOf: pieceSize) == expected)
    }

    @Test func aHalfLineProducesNothingUntilItsLf() {
        var framer = LineFramer()
        #expect(framer.append(bytes("HELLO b")).isEmpty)
        #expect(framer.append(bytes("o")).isEmpty)
        #expect(framer.bufferedCount == 8)
        #expect(framer.append(bytes("b\nPI")) == [line("HELLO bob")])
        #expect(framer.bufferedCount == 2)
        #expect(framer.append([]).isEmpty)
    }

    @Test func aLineOfExactlyTheCapIsAccepted() {
        var framer = LineFramer()
        #expect(LineFramer.maximumLineLength == 1024)
        #expect(framer.append(filler(1024) + [0x0A]) == [.line(filler(1024))])
    }

    @Test func aLineOfTheCapPlusCrlfIsAccepted() {
        var framer = LineFramer()
        #expect(framer.append(filler(1024) + [0x0D, 0x0A]) == [.line(filler(1024))])
        // The same with the CR and the LF arriving separately, after the buffer is already full.
        #expect(framer.append(filler(1024)).isEmpty)
        #expect(framer.append([0x0D]).isEmpty)
        #expect(framer.bufferedCount == 1025)
        #expect(framer.append([0x0A]) == [.line(filler(1024))])
    }

    @Test func aCrThatIsNotBeforeTheLfCountsTowardsTheCap() {
        var framer = LineFramer()
        // 1024 bytes, CR, one more byte: 1026 bytes of line.
        #expect(framer.append(filler(1024) + [0x0D]).isEmpty)
        #expect(framer.append(bytes("y\nPING\n")) == [.tooLong(prefix: filler(64)), line("PING")])
        // 1024 bytes and two CRs: after dropping one, 1025 bytes.
        #expect(framer.append(filler(1024) + [0x0D, 0x0D, 0x0A]) == [.tooLong(prefix: filler(64))])
    }

    @Test func aLineOfTheCapPlusOneIsTooLongAndTheNextLineIsIntact() {
        var framer = LineFramer()
        let long = bytes("CHAT ") + filler(1020)
        #expect(long.count == 1025)
        let frames = framer.append(long + bytes("\nPING\n"))
        #expect(frames == [.tooLong(prefix: Array(long.prefix(64))), line("PING")])
        #expect(framer.bufferedCount == 0)
    }

    @Test func theRestOfATooLongLineIsDiscardedUpToItsLf() {
        var framer = LineFramer()
        // Overflow first, then the tail of the same line, which must not come out as a command.
        #expect(framer.append(filler(1030)) == [.tooLong(prefix: filler(64))])
        #expect(framer.bufferedCount == 0)
        #expect(framer.append(bytes("QUIT")).isEmpty)
        #expect(framer.append(bytes(" still the long line\r\nHELLO bob\n")) == [line("HELLO bob")])
    }

    @Test func theTooLongPrefixIsTheStartOfTheLine() {
        var framer = LineFramer()
        let long = (0..<2000).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        let frames = framer.frames(feeding: long + [0x0A], inPiecesOf: 100)
        #expect(frames == [.tooLong(prefix: Array(long.prefix(64)))])
    }

    @Test func aMultiMegabyteLineIsReportedOnceAndNeverBuffered() {
        var framer = LineFramer()
        var frames: [LineFramer.Frame] = []
        var peak = 0
        let chunk = filler(65536, UInt8(ascii: "z"))
        for _ in 0..<64 {  // 4 MiB without an LF
            frames += framer.append(chunk)
            peak = max(peak, framer.bufferedCount)
        }
        frames += framer.append(bytes("\nPING\n"))
        #expect(peak <= 1025)
        #expect(frames == [.tooLong(prefix: filler(64, UInt8(ascii: "z"))), line("PING")])
    }

    @Test func aMultiMegabyteLineInOneAppendIsReportedOnce() {
        var framer = LineFramer()
        let frames = framer.append(filler(3 << 20) + bytes("\r\nPING\n") + filler(5000))
        #expect(
            frames == [.tooLong(prefix: filler(64)), .line(bytes("PING"))] + [.tooLong(prefix: filler(64))])
        #expect(framer.bufferedCount == 0)
        // Still discarding the unterminated 5000-byte line: its tail must not leak into the next line.
        #expect(framer.append(bytes("xx\nSTATE\n")) == [line("STATE")])
    }

    @Test func nulAndBinaryBytesPassThroughAsBytes() {
        var framer = LineFramer()
        let junk: [UInt8] = [0x00, 0xFF, 0xFE, 0x1B, 0x5B, 0x32, 0x4A, 0x80, 0x0D, 0x00]
        #expect(framer.append(junk + [0x0A] + [0x00, 0x0A]) == [.line(junk), .line([0x00])])
    }

    @Test func aSmallerCapIsEnforcedTheSameWay() {
        var framer = LineFramer(maximumLineLength: 8)
        #expect(framer.maximumLineLength == 8)
        #expect(
            framer.append(bytes("12345678\n123456789\n12345678\r\nok\n")) == [
                line("12345678"), .tooLong(prefix: bytes("123456789")), line("12345678"), line("ok"),
            ])
    }
}
