/// One protocol line per WebSocket text message, both ways.
public enum WebSocketLines {
    /// What a client's text message holds.
    public enum Message: Sendable, Equatable {
        /// One line, without a line end.
        case line([UInt8])
        /// More than `maximumLength` bytes: closed with 1009.
        case tooLong
        /// A CR or LF inside the message (more than one line, or a stray CR): closed with 1008.
        case lineBreak
    }

    /// The line a client's message carries. One trailing LF or CRLF is forgiven (a client that sends
    /// lines as it would over TCP) and dropped; any other CR or LF makes the message
    /// ``Message/lineBreak``, since one message is one command and splitting it would make one
    /// message several commands with several replies.
    public static func line(fromMessage message: [UInt8], maximumLength: Int) -> Message {
        var line = message[...]
        if line.last == UInt8(ascii: "\n") {
            line = line.dropLast()
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        }
        if line.count > maximumLength { return .tooLong }
        if line.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
            return .lineBreak
        }
        return .line(Array(line))
    }

    /// The frames for bytes the core sends: each LF-ended line becomes one text frame without its LF (a
    /// last line without one, which the core never sends, becomes a frame too).
    public static func frames(forLines bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 16 + 4)
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast(
            bytes.last == UInt8(ascii: "\n") ? 1 : 0)
        {
            WebSocketFrame.encode(.text, Array(line), into: &out)
        }
        return out
    }
}
