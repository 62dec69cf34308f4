import SetWeb

/// The bytes of a string.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A request head with CRLF line ends, from its lines (the blank line is added).
func head(_ lines: String...) -> [UInt8] { bytes(lines.joined(separator: "\r\n") + "\r\n\r\n") }

/// A browser's upgrade request for `/ws`, with RFC 6455's example key unless told otherwise.
func upgradeRequest(
    key: String = "dGhlIHNhbXBsZSBub25jZQ==", version: String = "13", extra: [String] = []
) -> [UInt8] {
    var lines = [
        "GET /ws HTTP/1.1", "Host: 192.168.1.5:7777", "Upgrade: websocket", "Connection: Upgrade",
        "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: \(version)", "Origin: http://192.168.1.5:7777",
    ]
    lines += extra
    return bytes(lines.joined(separator: "\r\n") + "\r\n\r\n")
}

/// Parses a whole head in one go.
func parse(_ bytes: [UInt8]) -> HTTPHeadParser.Progress {
    var parser = HTTPHeadParser()
    return parser.append(bytes)
}

/// The head of a complete parse, or nil.
func parsedHead(_ bytes: [UInt8]) -> HTTPRequestHead? {
    if case .complete(let head, _) = parse(bytes) { return head }
    return nil
}

/// The status of a failed parse, or nil.
func failedStatus(_ progress: HTTPHeadParser.Progress) -> HTTPStatus? {
    if case .failed(let status, _) = progress { return status }
    return nil
}

/// A fixed masking key, so frames are reproducible.
let testMask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]

/// A masked client frame.
func clientFrame(
    _ opcode: WebSocketFrame.Opcode, _ payload: [UInt8], isFinal: Bool = true, mask: [UInt8]? = testMask
) -> [UInt8] {
    WebSocketFrame.make(opcode, payload, isFinal: isFinal, mask: mask)
}

/// A raw masked frame with any first byte (reserved bits, reserved opcodes).
func rawFrame(firstByte: UInt8, _ payload: [UInt8]) -> [UInt8] {
    var frame = clientFrame(.text, payload)
    frame[0] = firstByte
    return frame
}

/// Decodes bytes with the protocol's message cap (a line and a CRLF).
func decode(_ bytes: [UInt8], cap: Int = 1026) -> [WebSocketDecoder.Event] {
    var decoder = WebSocketDecoder(maximumMessageLength: cap)
    return decoder.append(bytes)
}

/// Decodes bytes fed one at a time.
func decodeByteByByte(_ bytes: [UInt8], cap: Int = 1026) -> [WebSocketDecoder.Event] {
    var decoder = WebSocketDecoder(maximumMessageLength: cap)
    return bytes.flatMap { decoder.append([$0]) }
}

/// The close code of a failure event.
func failureCode(_ events: [WebSocketDecoder.Event]) -> WebSocketCloseCode? {
    if case .failure(let code, _) = events.last { return code }
    return nil
}
