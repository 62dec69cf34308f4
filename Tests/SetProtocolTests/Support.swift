import SetProtocol
import Testing

// Helpers shared by the protocol tests.

/// The UTF-8 bytes of `text`.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A `.line` frame holding the UTF-8 bytes of `text`.
func line(_ text: String) -> LineFramer.Frame { .line(bytes(text)) }

/// `count` copies of an ASCII letter, for lines of an exact length.
func filler(_ count: Int, _ byte: UInt8 = UInt8(ascii: "x")) -> [UInt8] {
    [UInt8](repeating: byte, count: count)
}

extension LineFramer {
    /// Feeds `input` in pieces of `size` bytes and returns every frame, checking after each piece that the
    /// framer never holds more than the cap plus one byte (room for a CR before the LF).
    mutating func frames(feeding input: [UInt8], inPiecesOf size: Int) -> [Frame] {
        var frames: [Frame] = []
        var peak = 0
        var start = 0
        while start < input.count {
            let end = min(start + size, input.count)
            frames += append(Array(input[start..<end]))
            peak = max(peak, bufferedCount)
            start = end
        }
        #expect(peak <= maximumLineLength + 1)
        return frames
    }
}

/// Parses `text` the way the server does (from the framed bytes), and checks that the `String` overload
/// agrees.
func parse(_ text: String) -> Result<Command, ProtocolError> {
    let fromBytes = Command.parse(bytes(text))
    #expect(fromBytes == Command.parse(text), "the two parse overloads disagree on \(text.debugDescription)")
    return fromBytes
}

/// The command `text` parses to, or nil when it is refused.
func command(_ text: String) -> Command? { try? parse(text).get() }

/// The refusal `text` gets, or nil when it parses.
func refusal(_ text: String) -> ProtocolError? {
    guard case .failure(let error) = parse(text) else { return nil }
    return error
}

/// Whether two server lines are the same case with the same fields, not just the same text (`==` on
/// `ServerLine` compares the text only, so `.unknown("DECK 3") == .deck(3)`).
func isSameStructure(_ a: ServerLine, _ b: ServerLine) -> Bool {
    a == b && String(reflecting: a) == String(reflecting: b)
}

/// A tiny deterministic generator (xorshift64*), so the property tests replay the same inputs every run.
struct Xorshift: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// `count` random bytes, eight from each draw (generic `UInt8.random` is slow in debug builds).
    mutating func bytes(_ count: Int) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count + 8)
        while result.count < count {
            withUnsafeBytes(of: next()) { result += $0 }
        }
        return Array(result.prefix(count))
    }
}
