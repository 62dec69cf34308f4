/// Reads an HTTP/1.0 or HTTP/1.1 request head from bytes that arrive in pieces, and stops at the blank
/// line that ends it; what follows is handed back untouched (the first WebSocket frames, after an
/// upgrade).
///
/// It holds at most ``maximumHeadLength`` bytes of a head plus one read: a longer head fails with 431
/// at once. Lines end in CRLF, or a bare LF (RFC 9112 allows a recipient to accept one). Anything the
/// grammar does not allow fails with 400: a request line that is not three parts split by single spaces,
/// a field line folded onto the previous one or with whitespace before its colon, control bytes in a
/// value, an HTTP/1.1 request without exactly one `Host`, a body (`Content-Length` above 0 or any
/// `Transfer-Encoding`: a `GET` here never has one).
public struct HTTPHeadParser: Sendable {
    /// What the bytes so far amount to.
    public enum Progress: Sendable, Equatable {
        /// The head is not complete yet.
        case incomplete
        /// The head, and the bytes that came after it.
        case complete(HTTPRequestHead, rest: [UInt8])
        /// The request cannot be served; answer with this status and close.
        case failed(HTTPStatus, String)
    }

    /// The longest request head accepted, blank line included: 8 KiB, what nginx's and Node's defaults
    /// allow. A browser's `GET` is well under 1 KiB; a longer head is a mistake or an attack.
    public static let maximumHeadLength = 8 * 1024

    private var buffer: [UInt8] = []
    /// Where the line being read starts, and how far the buffer has been scanned for its end.
    private var lineStart = 0
    private var scanned = 0
    /// What the parser decided, once it did; later bytes change nothing.
    public private(set) var progress = Progress.incomplete

    /// Creates a parser at the start of a request.
    public init() {}

    /// Bytes held so far.
    public var bufferedCount: Int { buffer.count }

    /// Feeds bytes; returns the progress (``Progress/incomplete`` until the head is complete or failed).
    @discardableResult
    public mutating func append<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Progress {
        guard case .incomplete = progress else { return progress }
        buffer.append(contentsOf: bytes)
        while scanned < buffer.count {
            let index = scanned
            scanned += 1
            guard buffer[index] == UInt8(ascii: "\n") else { continue }
            var end = index
            if end > lineStart, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            if end == lineStart {
                // The blank line: the head ends here.
                let headEnd = index + 1
                guard headEnd <= Self.maximumHeadLength else { return fail(.headTooLarge, "head over 8 KiB") }
                progress = Self.parse(buffer[..<lineStart])
                if case .complete(let head, _) = progress {
                    progress = .complete(head, rest: Array(buffer[headEnd...]))
                }
                buffer = []
                return progress
            }
            lineStart = index + 1
        }
        if buffer.count > Self.maximumHeadLength { return fail(.headTooLarge, "head over 8 KiB") }
        return progress
    }

    private mutating func fail(_ status: HTTPStatus, _ detail: String) -> Progress {
        progress = .failed(status, detail)
        buffer = []
        return progress
    }

    /// Parses the lines of a head (each ending in LF or CRLF, the blank line excluded).
    static func parse(_ head: ArraySlice<UInt8>) -> Progress {
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0
        }
        if lines.last?.isEmpty == true { lines.removeLast() }  // the split after the last LF
        guard let requestLine = lines.first else { return .failed(.badRequest, "no request line") }
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
            parts[0].allSatisfy(HTTPBytes.isTokenByte),
            parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return .failed(.badRequest, "malformed request line") }
        let version = Array(parts[2])
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), version[6] == UInt8(ascii: "."),
            isDigit(version[5]), isDigit(version[7])
        else { return .failed(.badRequest, "malformed HTTP version") }
        guard version[5] == UInt8(ascii: "1"), version[7] <= UInt8(ascii: "1") else {
            return .failed(.versionNotSupported, "only HTTP/1.0 and HTTP/1.1")
        }
        var fields: [(name: [UInt8], value: [UInt8])] = []
        for line in lines.dropFirst() {
            guard let first = line.first, !HTTPBytes.isSpace(first) else {
                return .failed(.badRequest, "folded or empty field line")
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[..<colon].allSatisfy(HTTPBytes.isTokenByte)
            else { return .failed(.badRequest, "malformed field line") }
            let value = HTTPBytes.trimmed(line[(colon + 1)...])
            guard value.allSatisfy({ ($0 >= 0x20 && $0 != 0x7F) || $0 == UInt8(ascii: "\t") }) else {
                return .failed(.badRequest, "control byte in a field value")
            }
            fields.append((Array(line[..<colon]), Array(value)))
        }
        let head = HTTPRequestHead(
            method: Array(parts[0]), target: Array(parts[1]),
            minorVersion: Int(version[7] - UInt8(ascii: "0")),
            fields: fields)
        if head.minorVersion == 1, head.values("Host").count != 1 {
            return .failed(.badRequest, "HTTP/1.1 needs exactly one Host")
        }
        if !head.values("Transfer-Encoding").isEmpty
            || head.values("Content-Length").contains(where: { $0 != Array("0".utf8) })
        {
            return .failed(.badRequest, "a GET has no body here")
        }
        return .complete(head, rest: [])
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
