import SetWeb
import Testing

/// The WebSocket framer on bytes: lengths, masking, fragments, control frames between them, the close
/// handshake, UTF-8 and the message cap.
@Suite struct WebSocketDecoderTests {
    @Test func rfc6455sMaskedHelloDecodes() {
        // RFC 6455 §5.7: a single-frame masked text message "Hello".
        let frame: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(decode(frame) == [.text(bytes("Hello"))])
        #expect(clientFrame(.text, bytes("Hello")) == frame)
    }

    @Test func anUnmaskedClientFrameIsAProtocolError() {
        // The same frame as the server would send it, unmasked.
        #expect(failureCode(decode([0x81, 0x05] + bytes("Hello"))) == .protocolError)
        #expect(failureCode(decode(clientFrame(.ping, [], mask: nil))) == .protocolError)
    }

    @Test func sixteenAndSixtyFourBitLengthsDecode() {
        let medium = [UInt8](repeating: UInt8(ascii: "m"), count: 300)
        let frame16 = clientFrame(.text, medium)
        #expect(frame16[1] == 0x80 | 126)
        #expect(decode(frame16, cap: 1000) == [.text(medium)])
        // A 64-bit length is legal for a short payload too (only the server must use the shortest).
        var frame64: [UInt8] = [0x81, 0x80 | 127, 0, 0, 0, 0, 0, 0, 0x01, 0x2C] + testMask
        frame64 += medium.enumerated().map { $0.element ^ testMask[$0.offset & 3] }
        #expect(decode(frame64, cap: 1000) == [.text(medium)])
        #expect(decodeByteByByte(frame64, cap: 1000) == [.text(medium)])
        // The server encodes 70,000 bytes with a 64-bit length.
        let big = WebSocketFrame.make(.text, [UInt8](repeating: 0x61, count: 70_000))
        #expect(Array(big[0..<10]) == [0x81, 127, 0, 0, 0, 0, 0, 0x01, 0x11, 0x70])
        #expect(big.count == 70_010)
    }

    @Test func aSixtyFourBitLengthWithItsTopBitSetIsAProtocolError() {
        let frame: [UInt8] = [0x81, 0x80 | 127, 0x80, 0, 0, 0, 0, 0, 0, 1] + testMask + [0]
        #expect(failureCode(decode(frame, cap: .max)) == .protocolError)
    }

    @Test func aMessageOverTheCapIsRefusedFromItsHeaderBeforeThePayload() {
        let cap = 1026
        #expect(decode(clientFrame(.text, [UInt8](repeating: 0x61, count: cap)), cap: cap).count == 1)
        // Only the header of a 1 MiB frame: refused at once, nothing waits for the megabyte.
        let header: [UInt8] = [0x81, 0x80 | 127, 0, 0, 0, 0, 0, 0x10, 0, 0]
        var decoder = WebSocketDecoder(maximumMessageLength: cap)
        #expect(failureCode(decoder.append(header)) == .messageTooBig)
        #expect(decoder.isFinished && decoder.bufferedCount == 0)
        // Fragments that add up to more than the cap.
        let half = [UInt8](repeating: 0x62, count: 600)
        let fragments = clientFrame(.text, half, isFinal: false) + clientFrame(.continuation, half)
        #expect(failureCode(decode(fragments, cap: cap)) == .messageTooBig)
    }

    @Test func fragmentsJoinIntoOneMessageWithControlFramesBetween() {
        let stream =
            clientFrame(.text, bytes("CHA"), isFinal: false) + clientFrame(.ping, bytes("p1"))
            + clientFrame(.continuation, bytes("T h"), isFinal: false) + clientFrame(.pong, bytes("x"))
            + clientFrame(.continuation, bytes("i"))
        let expected: [WebSocketDecoder.Event] = [
            .ping(bytes("p1")), .pong(bytes("x")), .text(bytes("CHAT hi")),
        ]
        #expect(decode(stream) == expected)
        #expect(decodeByteByByte(stream) == expected)
        // An empty final fragment ends the message too.
        #expect(
            decode(clientFrame(.text, bytes("ab"), isFinal: false) + clientFrame(.continuation, [])) == [
                .text(bytes("ab"))
            ])
    }

    @Test func badFragmentSequencesAreProtocolErrors() {
        #expect(failureCode(decode(clientFrame(.continuation, bytes("x")))) == .protocolError)
        let nested = clientFrame(.text, bytes("a"), isFinal: false) + clientFrame(.text, bytes("b"))
        #expect(failureCode(decode(nested)) == .protocolError)
        // A fragmented control frame.
        #expect(failureCode(decode(clientFrame(.ping, bytes("p"), isFinal: false))) == .protocolError)
    }

    @Test func controlFramesCarryAtMost125Bytes() {
        #expect(
            decode(clientFrame(.ping, [UInt8](repeating: 7, count: 125))) == [
                .ping([UInt8](repeating: 7, count: 125))
            ])
        #expect(failureCode(decode(clientFrame(.ping, [UInt8](repeating: 7, count: 126)))) == .protocolError)
    }

    @Test func binaryIsUnsupportedAndReservedBitsAndOpcodesAreProtocolErrors() {
        #expect(failureCode(decode(clientFrame(.binary, [1, 2, 3]))) == .unsupportedData)
        for first: UInt8 in [0xC1, 0xA1, 0x91, 0x83, 0x87, 0x8B, 0x8F] {
            #expect(failureCode(decode(rawFrame(firstByte: first, bytes("x")))) == .protocolError, "\(first)")
        }
    }

    @Test func invalidUTF8InATextMessageIs1007EvenSplitAcrossFragments() {
        #expect(failureCode(decode(clientFrame(.text, [0x61, 0xFF]))) == .invalidPayload)
        #expect(failureCode(decode(clientFrame(.text, [0xC0, 0xAF]))) == .invalidPayload)  // overlong "/"
        // A surrogate.
        #expect(failureCode(decode(clientFrame(.text, [0xED, 0xA0, 0x80]))) == .invalidPayload)
        // A character cut by a message's end.
        #expect(failureCode(decode(clientFrame(.text, [0xE2, 0x82]))) == .invalidPayload)
        // "€" (E2 82 AC) split across two fragments is fine...
        let euro =
            clientFrame(.text, [0x61, 0xE2], isFinal: false) + clientFrame(.continuation, [0x82, 0xAC])
        #expect(decode(euro) == [.text([0x61, 0xE2, 0x82, 0xAC])])
        // ...and a bad byte is caught in the fragment it arrives in, before the message ends.
        var decoder = WebSocketDecoder(maximumMessageLength: 1026)
        let firstHalf = decoder.append(clientFrame(.text, [0x61, 0xE2], isFinal: false))
        #expect(firstHalf.isEmpty)
        #expect(
            failureCode(decoder.append(clientFrame(.continuation, [0x41], isFinal: false))) == .invalidPayload
        )
    }

    @Test func theCloseFrameEndsTheStreamWithItsCodeAndReason() {
        let close = clientFrame(.close, [0x03, 0xE8] + bytes("bye"))
        var decoder = WebSocketDecoder(maximumMessageLength: 1026)
        let closing = decoder.append(close + clientFrame(.text, bytes("after")))
        #expect(closing == [.close(.normal, reason: bytes("bye"))])
        #expect(decoder.isFinished)
        let later = decoder.append(clientFrame(.text, bytes("later")))
        #expect(later.isEmpty)
        #expect(decode(clientFrame(.close, [])) == [.close(nil, reason: [])])
        #expect(
            decode(clientFrame(.close, [0x0F, 0xA0])) == [
                .close(WebSocketCloseCode(rawValue: 4000), reason: [])
            ])
    }

    @Test func malformedCloseFramesAreRefused() {
        #expect(failureCode(decode(clientFrame(.close, [0x03]))) == .protocolError)  // one byte
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000] {
            let payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
            #expect(failureCode(decode(clientFrame(.close, payload))) == .protocolError, "\(code)")
        }
        #expect(failureCode(decode(clientFrame(.close, [0x03, 0xE8, 0xFF]))) == .invalidPayload)
    }

    @Test func manyFramesInOneReadAndOneFrameInManyReadsGiveTheSameEvents() {
        var stream: [UInt8] = []
        var expected: [WebSocketDecoder.Event] = []
        for n in 0..<50 {
            let text = bytes("CHAT message \(n) " + String(repeating: "x", count: n * 7))
            stream += clientFrame(.text, text, mask: [UInt8(n), 1, 2, 3])
            expected.append(.text(text))
        }
        #expect(decode(stream) == expected)
        #expect(decodeByteByByte(stream) == expected)
        var decoder = WebSocketDecoder(maximumMessageLength: 1026)
        var events: [WebSocketDecoder.Event] = []
        var start = 0
        var size = 1
        while start < stream.count {
            let end = min(stream.count, start + size)
            events += decoder.append(Array(stream[start..<end]))
            // A capped message and one incomplete frame after it.
            #expect(decoder.bufferedCount <= 1026 + 125 + 14)
            start = end
            size = size * 3 % 97 + 1
        }
        #expect(events == expected)
    }

    @Test func serverFramesAreUnmaskedAndTheCloseReasonIsCutOnACharacter() {
        #expect(WebSocketFrame.make(.text, bytes("OK PING")) == [0x81, 7] + bytes("OK PING"))
        let close = WebSocketFrame.close(.messageTooBig, reason: "too long")
        #expect(close == [0x88, 10, 0x03, 0xF1] + bytes("too long"))
        // 62 two-byte characters are 124 bytes; only 61 fit beside the code.
        let long = WebSocketFrame.close(.normal, reason: String(repeating: "é", count: 62))
        #expect(long[1] == 2 + 122)
        #expect(UTF8Validator.isValid(long[4...]))
    }

    @Test func oneLinePerMessage() {
        let cap = 1024
        #expect(
            WebSocketLines.line(fromMessage: bytes("HELLO ann"), maximumLength: cap)
                == .line(bytes("HELLO ann")))
        #expect(
            WebSocketLines.line(fromMessage: bytes("HELLO ann\n"), maximumLength: cap)
                == .line(bytes("HELLO ann")))
        #expect(
            WebSocketLines.line(fromMessage: bytes("HELLO ann\r\n"), maximumLength: cap)
                == .line(bytes("HELLO ann")))
        #expect(WebSocketLines.line(fromMessage: bytes(""), maximumLength: cap) == .line([]))
        #expect(WebSocketLines.line(fromMessage: bytes("HELLO a\nJOIN b"), maximumLength: cap) == .lineBreak)
        #expect(WebSocketLines.line(fromMessage: bytes("HELLO a\r"), maximumLength: cap) == .lineBreak)
        #expect(WebSocketLines.line(fromMessage: bytes("A\n\n"), maximumLength: cap) == .lineBreak)
        let full = [UInt8](repeating: 0x61, count: cap)
        #expect(WebSocketLines.line(fromMessage: full + bytes("\r\n"), maximumLength: cap) == .line(full))
        #expect(WebSocketLines.line(fromMessage: full + [0x61], maximumLength: cap) == .tooLong)
    }

    @Test func theCoresLinesBecomeOneTextFrameEach() {
        let frames = WebSocketLines.frames(forLines: bytes("CHAT bob hi\nOK CHAT\n"))
        #expect(frames == [0x81, 11] + bytes("CHAT bob hi") + [0x81, 7] + bytes("OK CHAT"))
        #expect(WebSocketLines.frames(forLines: []).isEmpty)
    }
}
