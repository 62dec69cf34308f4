/// Reads a client's WebSocket frames (RFC 6455 §5) from bytes that arrive in pieces, and hands back
/// whole text messages and control frames.
///
/// Rules, each failing the connection with the close code beside it:
/// - every client frame is masked (1002); reserved bits and opcodes are never set (1002);
/// - a message is text (binary: 1003), possibly in fragments: a text frame without FIN, then
///   continuation frames, the last with FIN; a continuation outside a message or a new message inside
///   one is 1002; control frames may come between fragments;
/// - control frames are final and carry at most 125 bytes (1002); a close frame carries nothing, or a
///   valid code (1002) and a UTF-8 reason (1007);
/// - a message is valid UTF-8 (1007), checked frame by frame so a bad byte is caught in the fragment it
///   arrives in, and a character split across fragments is fine;
/// - a message is at most ``maximumMessageLength`` bytes (1009), refused from the frame header, before
///   its payload arrives.
///
/// So between reads the decoder holds at most a capped message and one incomplete frame after it (a
/// data frame that fits beside the message, or a control frame of 125 bytes). After a close frame
/// or a failure it is finished and ignores what follows.
public struct WebSocketDecoder: Sendable {
    /// What the decoder found.
    public enum Event: Sendable, Equatable {
        /// A complete text message (its fragments joined).
        case text([UInt8])
        /// A ping; answer with a pong carrying the same payload.
        case ping([UInt8])
        /// A pong (unsolicited ones are allowed, and ignored).
        case pong([UInt8])
        /// The client's close frame: its code (none if the payload was empty) and reason.
        case close(WebSocketCloseCode?, reason: [UInt8])
        /// The client broke the protocol: close with this code and reason.
        case failure(WebSocketCloseCode, String)
    }

    /// The longest text message accepted, in bytes.
    public let maximumMessageLength: Int
    private var buffer: [UInt8] = []
    /// The message being reassembled from fragments, and whether one is open.
    private var message: [UInt8] = []
    private var isInMessage = false
    private var utf8 = UTF8Validator()
    /// Whether a close frame or a failure ended the stream.
    public private(set) var isFinished = false

    /// Creates a decoder for messages of at most `maximumMessageLength` bytes.
    public init(maximumMessageLength: Int) {
        precondition(maximumMessageLength >= 0, "a message cap is a number of bytes")
        self.maximumMessageLength = maximumMessageLength
    }

    /// Bytes held: an incomplete frame, and the fragments of an open message.
    public var bufferedCount: Int { buffer.count + message.count }

    /// Feeds bytes and calls `body` with every event they complete, in order.
    public mutating func append<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ body: (Event) -> Void) {
        guard !isFinished else { return }
        buffer.append(contentsOf: bytes)
        var start = 0
        while !isFinished, let event = nextEvent(from: &start) { body(event) }
        if isFinished {
            buffer = []
            message = []
        } else if start > 0 {
            buffer.removeSubrange(..<start)
        }
    }

    /// Feeds bytes and returns the events they complete.
    public mutating func append(_ bytes: [UInt8]) -> [Event] {
        var events: [Event] = []
        append(bytes) { events.append($0) }
        return events
    }

    /// The event of the next complete frame at `start` (moved past it), or `nil` if the next frame is
    /// not complete yet or carried no event (a fragment).
    private mutating func nextEvent(from start: inout Int) -> Event? {
        while true {
            let available = buffer.count - start
            guard available >= 2 else { return nil }
            let first = buffer[start]
            let second = buffer[start + 1]
            let isFinal = first & 0x80 != 0
            let opcode = first & 0x0F
            guard first & 0x70 == 0 else { return fail(.protocolError, "reserved bits set") }
            guard second & 0x80 != 0 else { return fail(.protocolError, "client frames must be masked") }
            if opcode >= 0x8 {
                guard opcode <= 0xA else { return fail(.protocolError, "reserved opcode \(opcode)") }
                guard isFinal else { return fail(.protocolError, "fragmented control frame") }
                guard second & 0x7F <= 125 else {
                    return fail(.protocolError, "control frame over 125 bytes")
                }
            } else {
                switch opcode {
                case 0x0:
                    guard isInMessage else { return fail(.protocolError, "continuation outside a message") }
                case 0x1:
                    guard !isInMessage else {
                        return fail(.protocolError, "new message inside a fragmented one")
                    }
                case 0x2: return fail(.unsupportedData, "text frames only")
                default: return fail(.protocolError, "reserved opcode \(opcode)")
                }
            }
            var length = UInt64(second & 0x7F)
            var headerLength = 2
            if length == 126 {
                guard available >= 4 else { return nil }
                length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
                headerLength = 4
            } else if length == 127 {
                guard available >= 10 else { return nil }
                length = (0..<8).reduce(0) { $0 << 8 | UInt64(buffer[start + 2 + $1]) }
                guard length >> 63 == 0 else {
                    return fail(.protocolError, "64-bit length with its top bit set")
                }
                headerLength = 10
            }
            if opcode < 0x8, length > UInt64(maximumMessageLength - message.count) {
                return fail(.messageTooBig, "a message is at most \(maximumMessageLength) bytes")
            }
            let payloadStart = start + headerLength + 4
            // `length` is capped above (data) or at 125 (control), so it fits an Int.
            guard available >= headerLength + 4 + Int(length) else { return nil }
            let maskStart = start + headerLength
            var payload = Array(buffer[payloadStart..<(payloadStart + Int(length))])
            for index in payload.indices { payload[index] ^= buffer[maskStart + (index & 3)] }
            start = payloadStart + Int(length)
            switch opcode {
            case 0x8: return closeEvent(payload)
            case 0x9: return .ping(payload)
            case 0xA: return .pong(payload)
            default:
                guard utf8.consume(payload) else {
                    return fail(.invalidPayload, "a text message must be UTF-8")
                }
                message += payload
                guard isFinal else {
                    isInMessage = true
                    continue
                }
                guard utf8.isAtBoundary else { return fail(.invalidPayload, "a text message must be UTF-8") }
                defer {
                    message = []
                    isInMessage = false
                    utf8 = UTF8Validator()
                }
                return .text(message)
            }
        }
    }

    private mutating func closeEvent(_ payload: [UInt8]) -> Event {
        isFinished = true
        guard !payload.isEmpty else { return .close(nil, reason: []) }
        guard payload.count >= 2 else { return fail(.protocolError, "a close payload of one byte") }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidOnTheWire else {
            return fail(.protocolError, "close code \(code) is not for the wire")
        }
        let reason = Array(payload[2...])
        guard UTF8Validator.isValid(reason) else {
            return fail(.invalidPayload, "a close reason must be UTF-8")
        }
        return .close(code, reason: reason)
    }

    private mutating func fail(_ code: WebSocketCloseCode, _ reason: String) -> Event {
        isFinished = true
        return .failure(code, reason)
    }
}
