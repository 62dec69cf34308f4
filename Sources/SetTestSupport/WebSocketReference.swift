import SetWeb

/// The events RFC 6455 (and protocol.md's text-only rules) give for a list of whole client frames,
/// computed frame by frame from the rules as written, for `WebSocketDecoder` to be checked against.
public enum WebSocketReference {
    /// One client frame, any bits set.
    public struct ClientFrame: Sendable {
        /// The opcode, 0–15.
        public var opcode: UInt8
        /// FIN.
        public var isFinal: Bool
        /// The three reserved bits, 0–7.
        public var reserved: UInt8
        /// Whether the frame is masked.
        public var isMasked: Bool
        /// The payload, unmasked.
        public var payload: [UInt8]

        /// Creates a frame.
        public init(
            opcode: UInt8, isFinal: Bool, reserved: UInt8 = 0, isMasked: Bool = true, payload: [UInt8]
        ) {
            self.opcode = opcode
            self.isFinal = isFinal
            self.reserved = reserved
            self.isMasked = isMasked
            self.payload = payload
        }

        /// The frame on the wire, masked with `mask` if it is masked.
        public func bytes(mask: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [(isFinal ? 0x80 : 0) | (reserved & 7) << 4 | (opcode & 0x0F)]
            let maskBit: UInt8 = isMasked ? 0x80 : 0
            if payload.count < 126 {
                out.append(maskBit | UInt8(payload.count))
            } else if payload.count < 65536 {
                out += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
            } else {
                out.append(maskBit | 127)
                out += (0..<8).reversed().map { UInt8(UInt64(payload.count) >> (8 * UInt64($0)) & 0xFF) }
            }
            guard isMasked else { return out + payload }
            return out + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        }
    }

    /// Whether `bytes` is well-formed UTF-8, by the standard library's decoder.
    static func isUTF8(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// Whether `bytes` can be the start of well-formed UTF-8: some completion of at most three
    /// continuation bytes makes it whole (80, 90 and A0 cover the narrowed second-byte ranges).
    static func isUTF8Prefix(_ bytes: [UInt8]) -> Bool {
        if isUTF8(bytes) { return true }
        let options: [UInt8] = [0x80, 0x90, 0xA0]
        var completions: [[UInt8]] = [[]]
        for length in 1...3 {
            completions += completions.filter { $0.count == length - 1 }.flatMap { c in
                options.map { c + [$0] }
            }
        }
        return completions.contains { isUTF8(bytes + $0) }
    }

    /// The events for `frames`, stopping at a close frame or the first violation, for messages of at most
    /// `cap` bytes.
    public static func events(of frames: [ClientFrame], cap: Int) -> [WebSocketDecoder.Event] {
        var events: [WebSocketDecoder.Event] = []
        var message: [UInt8]? = nil
        for frame in frames {
            func fail(_ code: UInt16) -> [WebSocketDecoder.Event] {
                events + [.failure(WebSocketCloseCode(rawValue: code), "")]
            }
            if frame.reserved != 0 || !frame.isMasked { return fail(1002) }
            switch frame.opcode {
            case 8, 9, 10:
                if !frame.isFinal || frame.payload.count > 125 { return fail(1002) }
                if frame.opcode == 9 {
                    events.append(.ping(frame.payload))
                } else if frame.opcode == 10 {
                    events.append(.pong(frame.payload))
                } else {
                    let payload = frame.payload
                    if payload.isEmpty { return events + [.close(nil, reason: [])] }
                    if payload.count == 1 { return fail(1002) }
                    let code = UInt16(payload[0]) * 256 + UInt16(payload[1])
                    let known =
                        (1000...1003).contains(code) || (1007...1014).contains(code)
                        || (3000...4999).contains(code)
                    if !known { return fail(1002) }
                    if !isUTF8(Array(payload[2...])) { return fail(1007) }
                    return events + [.close(WebSocketCloseCode(rawValue: code), reason: Array(payload[2...]))]
                }
            case 0, 1:
                if frame.opcode == 0, message == nil { return fail(1002) }
                if frame.opcode == 1, message != nil { return fail(1002) }
                let joined = (message ?? []) + frame.payload
                if joined.count > cap { return fail(1009) }
                if !isUTF8Prefix(joined) { return fail(1007) }
                if frame.isFinal {
                    if !isUTF8(joined) { return fail(1007) }
                    events.append(.text(joined))
                    message = nil
                } else {
                    message = joined
                }
            case 2:
                return fail(1003)
            default:
                return fail(1002)
            }
        }
        return events
    }
}
