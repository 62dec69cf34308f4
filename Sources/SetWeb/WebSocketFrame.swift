/// Writes WebSocket frames (RFC 6455 §5.2): one final frame per call, with the shortest length encoding.
/// The server's frames are never masked; a client's must be (tests and fuzzers pass a mask).
public enum WebSocketFrame {
    /// Frame opcodes.
    public enum Opcode: UInt8, Sendable {
        /// The next fragment of a message.
        case continuation = 0x0
        /// A text message (or its first fragment).
        case text = 0x1
        /// A binary message (refused by this server).
        case binary = 0x2
        /// Closes the connection.
        case close = 0x8
        /// Asks for a pong.
        case ping = 0x9
        /// Answers a ping.
        case pong = 0xA
    }

    /// The longest payload of a control frame.
    public static let maximumControlPayload = 125

    /// Appends a frame to `out`; `isFinal` false leaves the message open for continuation frames.
    public static func encode(
        _ opcode: Opcode, _ payload: [UInt8], isFinal: Bool = true, mask: [UInt8]? = nil,
        into out: inout [UInt8]
    ) {
        out.append((isFinal ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        switch payload.count {
        case ..<126:
            out.append(maskBit | UInt8(payload.count))
        case ..<65536:
            out.append(maskBit | 126)
            out.append(UInt8(payload.count >> 8))
            out.append(UInt8(payload.count & 0xFF))
        default:
            out.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(UInt64(payload.count) >> UInt64(shift) & 0xFF))
            }
        }
        if let mask {
            precondition(mask.count == 4, "a masking key is four bytes")
            out += mask
            for (index, byte) in payload.enumerated() { out.append(byte ^ mask[index & 3]) }
        } else {
            out += payload
        }
    }

    /// One frame as bytes.
    public static func make(
        _ opcode: Opcode, _ payload: [UInt8], isFinal: Bool = true, mask: [UInt8]? = nil
    ) -> [UInt8] {
        var out: [UInt8] = []
        encode(opcode, payload, isFinal: isFinal, mask: mask, into: &out)
        return out
    }

    /// A close frame with `code` and as much of `reason` as fits (123 bytes, cut on a character
    /// boundary so the reason stays UTF-8).
    public static func close(_ code: WebSocketCloseCode, reason: String = "") -> [UInt8] {
        var text = Array(reason.utf8.prefix(maximumControlPayload - 2))
        while !UTF8Validator.isValid(text) { text.removeLast() }
        return make(.close, [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)] + text)
    }
}
