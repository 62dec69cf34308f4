import SetTestSupport
import SetWeb
import Testing

/// The decoder against the reference written from RFC 6455, on frame sequences made by a seeded
/// generator (the fuzzer does the same with libFuzzer's inputs).
@Suite struct WebSocketReferenceTests {
    @Test func randomFrameSequencesDecodeAsTheReferenceSays() {
        var generator = SplitMix(seed: 12)
        let opcodes: [UInt8] = [1, 0, 0, 1, 9, 10, 8, 2, 3, 0xB]
        let alphabet: [UInt8] = [
            0x41, 0x20, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x83, 0x8F, 0xFF, 0x03, 0xE8,
        ]
        var failures: [UInt16: Int] = [:]
        for round in 0..<2000 {
            let cap = [8, 30, 1026][round % 3]
            let frames = (0..<Int(generator.next() % 6 + 1)).map { _ in
                WebSocketReference.ClientFrame(
                    opcode: opcodes[Int(generator.next() % UInt64(opcodes.count))],
                    isFinal: generator.next() % 3 != 0,
                    reserved: generator.next() % 40 == 0 ? 4 : 0, isMasked: generator.next() % 40 != 0,
                    payload: (0..<Int(generator.next() % 12)).map { _ in alphabet[Int(generator.next() % 14)]
                    })
            }
            let stream = frames.flatMap { $0.bytes(mask: [UInt8(round & 0xFF), 9, 8, 7]) }
            let expected = WebSocketReference.events(of: frames, cap: cap)
            var decoder = WebSocketDecoder(maximumMessageLength: cap)
            let events = decoder.append(stream).map { event -> WebSocketDecoder.Event in
                if case .failure(let code, _) = event {
                    failures[code.rawValue, default: 0] += 1
                    return .failure(code, "")
                }
                return event
            }
            #expect(
                events == expected, "round \(round): \(frames.map { ($0.opcode, $0.isFinal, $0.payload) })")
        }
        // The generator reached every kind of failure.
        #expect(Set(failures.keys) == [1002, 1003, 1007, 1009], "\(failures)")
    }
}

/// SplitMix64, for reproducible frame sequences.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
