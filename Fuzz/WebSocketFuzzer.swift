// libFuzzer target for the WebSocket framer: client frames in, events out.
//
// Input layout: byte 0 picks the mode (bit 0) and the message cap (bits 1–6: below 48 that many bytes,
// to reach the cap with short inputs; otherwise the protocol's 1026), byte 1 seeds the chunk sizes.
// - Raw mode: the rest is the byte stream a client sends.
// - Frame mode: the rest describes frames (two bytes of bits, a length byte, the payload), which are
//   encoded, masked and decoded, and the events checked against WebSocketReference, written from RFC 6455.
// Either way, feeding the stream whole and in random pieces must give the same events, and the decoder
// must hold no more than a capped message and one incomplete frame.

import SetWeb

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func webSocketFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    WebSocketFuzzer.run(fuzzBytes(data, size))
    return 0
}

enum WebSocketFuzzer {
    static let chunkLimits = [1, 2, 3, 9, 64, 200, 1100, 8192]
    /// RFC 6455's opcodes, the ones the server takes most often.
    static let opcodes: [UInt8] = [1, 0, 0, 1, 9, 10, 8, 2, 3, 0xB, 1, 0, 1, 0, 9, 0xF]

    static func run(_ input: [UInt8]) {
        var reader = FuzzInput(input)
        let modeByte = reader.byte()
        let chunkByte = reader.byte()
        let capBits = Int(modeByte >> 1 & 0x3F)
        let cap = capBits < 48 ? capBits : 1026
        let stream: [UInt8]
        var expected: [WebSocketDecoder.Event]?
        if modeByte & 1 == 0 {
            stream = Array(reader.remaining)
        } else {
            var frames: [WebSocketReference.ClientFrame] = []
            var bytes: [UInt8] = []
            while !reader.isAtEnd, frames.count < 64 {
                let kind = reader.byte()
                let bits = reader.byte()
                let lengthByte = Int(reader.byte())
                // Lengths up to 200 from the input; above, long payloads of a repeated byte, 40 to 2,240
                // bytes: 16-bit lengths, past the largest cap, never come from a short input otherwise.
                // (Longer ones test nothing more, and each byte costs: 64 frames of 16 KB, as up to 300
                // times a length byte once gave, made a megabyte to decode byte by byte.)
                let length = lengthByte < 200 ? lengthByte : (lengthByte - 199) * 40
                var payload = (0..<min(length, 200)).map { _ in reader.byte() }
                if length > payload.count {
                    payload += [UInt8](repeating: 0x61, count: length - payload.count)
                }
                let frame = WebSocketReference.ClientFrame(
                    opcode: opcodes[Int(kind & 0x0F)], isFinal: kind & 0x10 == 0,
                    reserved: bits & 0xF8 == 0xF8 ? bits & 7 : 0, isMasked: bits & 0xF0 != 0x70,
                    payload: payload)
                frames.append(frame)
                bytes += frame.bytes(mask: [kind, bits, UInt8(lengthByte), 0x5A])
            }
            stream = bytes
            expected = WebSocketReference.events(of: frames, cap: cap)
        }

        var whole = WebSocketDecoder(maximumMessageLength: cap)
        let wholeEvents = whole.append(stream)
        var chunked = WebSocketDecoder(maximumMessageLength: cap)
        var chunkedEvents: [WebSocketDecoder.Event] = []
        var random = FuzzRandom(seed: UInt64(chunkByte) << 32 | UInt64(stream.count))
        let limit = chunkLimits[Int(chunkByte & 7)]
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + random.next(in: 1...limit))
            // Slices through the callback API (the array API above wraps it): no copy of each piece.
            chunked.append(stream[start..<end]) { chunkedEvents.append($0) }
            // An open message of up to `cap` bytes, and the incomplete frame after it: a data frame that
            // fits beside the message, or a control frame of up to 125 bytes, with a 14-byte header.
            require(
                chunked.bufferedCount <= cap + 125 + 14,
                "the decoder holds \(chunked.bufferedCount) bytes (cap \(cap), pieces of \(limit))")
            start = end
        }
        require(wholeEvents == chunkedEvents, "whole \(wholeEvents) != chunked \(chunkedEvents)")
        for (index, event) in wholeEvents.enumerated() {
            switch event {
            case .text(let message):
                require(
                    message.count <= cap && UTF8Validator.isValid(message),
                    "text \(message) over cap or not UTF-8")
            case .ping(let payload), .pong(let payload):
                require(payload.count <= 125, "a control payload of \(payload.count) bytes")
            case .close, .failure:
                require(index == wholeEvents.count - 1, "events after the end: \(wholeEvents)")
                require(whole.isFinished, "a close or failure left the decoder running")
            }
        }
        if let expected {
            // The reference gives no reasons for failures; compare codes.
            let strip = { (events: [WebSocketDecoder.Event]) in
                events.map { event -> WebSocketDecoder.Event in
                    if case .failure(let code, _) = event { return .failure(code, "") }
                    return event
                }
            }
            require(strip(wholeEvents) == expected, "decoder \(strip(wholeEvents)) != reference \(expected)")
        }
        // Whatever came in, a server frame made from a text decodes back with a client's mask added.
        if case .text(let message)? = wholeEvents.first {
            var echo = WebSocketDecoder(maximumMessageLength: cap)
            let frame = WebSocketFrame.make(.text, message, mask: [1, 2, 3, 4])
            require(echo.append(frame) == [.text(message)], "re-encoded text did not decode")
        }
    }
}
