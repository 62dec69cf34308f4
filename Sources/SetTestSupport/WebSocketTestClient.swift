import SetDigest

/// A connection's bytes as a test sees them, in memory (``EmbeddedClient``) or over loopback
/// (``TestClient``): what the WebSocket and HTTP test clients run on, so one of each serves both.
public protocol ByteStream: AnyObject {
    /// The name used in error messages.
    var label: String { get }
    /// Sends bytes as they are.
    func send(bytes: [UInt8]) throws
    /// The next `count` bytes; throws if they do not come.
    func readBytes(_ count: Int) throws -> [UInt8]
    /// The next LF-ended line, or `nil` at the end of the stream.
    func readLineOrEOF() throws -> String?
    /// Reads to the end of the stream (the server closed it); returns the lines read on the way.
    func expectEOF() throws -> [String]
}

extension EmbeddedClient: ByteStream {}

extension TestClient: ByteStream {
    /// The next `count` bytes within the default timeout.
    public func readBytes(_ count: Int) throws -> [UInt8] { try readBytes(count, timeout: 5) }
    /// Reads to the end of the stream within the default timeout.
    @discardableResult
    public func expectEOF() throws -> [String] { try expectEOF(timeout: 5) }
}

/// A WebSocket client written from RFC 6455 apart from the server's framer, over any ``ByteStream``: it
/// makes the opening handshake and checks the accept value, masks every frame it sends (unless told
/// not to), and reads the server's frames, which must be unmasked. One text message is one line.
public final class WebSocketClient<Stream: ByteStream>: LineClient {
    /// One frame from the server.
    public struct Frame: Equatable, Sendable {
        /// The opcode: 1 text, 8 close, 9 ping, 10 pong.
        public var opcode: UInt8
        /// Whether FIN was set.
        public var isFinal: Bool
        /// The payload.
        public var payload: [UInt8]

        /// Creates a frame.
        public init(opcode: UInt8, isFinal: Bool, payload: [UInt8]) {
            self.opcode = opcode
            self.isFinal = isFinal
            self.payload = payload
        }

        /// The payload as text.
        public var text: String { String(decoding: payload, as: UTF8.self) }
        /// A close frame's code, if it has one.
        public var closeCode: UInt16? {
            opcode == 8 && payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
        }
    }

    /// The connection underneath.
    public let raw: Stream
    /// The handshake response's lines, the status line first.
    public private(set) var handshake: [String] = []
    /// The name used in error messages.
    public var label: String { raw.label }

    /// Upgrades `/ws` over `raw` (a page of `origin` asking, as a browser does; `nil` sends no `Origin`,
    /// as a bot does) and, with `expectGreeting`, reads the greeting (the first text frame, `SETD 1 …`).
    /// `fields` (`Name: value` lines, e.g. a proxy's `X-Forwarded-For`) go in the request too.
    /// `extraFrames` go in the same write as the request, to test a client that does not wait for the
    /// 101.
    public init(
        over raw: Stream, host: String, origin: String? = nil, fields: [String] = [],
        expectGreeting: Bool = true,
        extraFrames: [UInt8] = []
    ) throws {
        self.raw = raw
        let key = Base64Text.encode((0..<16).map { _ in UInt8.random(in: 0...255) })
        var request =
            "GET /ws HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        for field in fields { request += field + "\r\n" }
        request += "\r\n"
        try raw.send(bytes: Array(request.utf8) + extraFrames)
        handshake = try HTTPTestResponse.readHead(raw)
        guard handshake.first == "HTTP/1.1 101 Switching Protocols" else {
            throw ClientError(description: "\(raw.label): the upgrade got \(handshake)")
        }
        guard handshake.contains("Sec-WebSocket-Accept: \(Self.accept(forKey: key))") else {
            throw ClientError(description: "\(raw.label): wrong or missing accept value in \(handshake)")
        }
        if expectGreeting {
            let greeting = try readText()
            guard greeting.hasPrefix("SETD 1 ") else {
                throw ClientError(description: "\(raw.label): greeting was '\(greeting)'")
            }
        }
    }

    /// The accept value RFC 6455 §4.2.2 derives from a key.
    public static func accept(forKey key: String) -> String {
        Base64Text.encode(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
    }

    // MARK: Writing

    /// A client frame: FIN as given, masked with a random key unless `masked` is false.
    public static func frame(_ opcode: UInt8, _ payload: [UInt8], isFinal: Bool = true, masked: Bool = true)
        -> [UInt8]
    {
        var out: [UInt8] = [(isFinal ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            out.append(maskBit | UInt8(payload.count))
        } else if payload.count < 65536 {
            out += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            out.append(maskBit | 127)
            out += (0..<8).reversed().map { UInt8(UInt64(payload.count) >> (8 * UInt64($0)) & 0xFF) }
        }
        guard masked else { return out + payload }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        return out + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    /// Sends one masked text message.
    public func send(_ text: String) throws {
        try raw.send(bytes: Self.frame(1, Array(text.utf8)))
    }

    /// Sends bytes as they are (frames made with ``frame(_:_:isFinal:masked:)``, or anything else).
    public func send(bytes: [UInt8]) throws {
        try raw.send(bytes: bytes)
    }

    // MARK: Reading

    /// The next frame; throws at end of file, when none comes, or on a masked server frame.
    public func readFrame() throws -> Frame {
        let header = try raw.readBytes(2)
        guard header[1] & 0x80 == 0 else {
            throw ClientError(description: "\(raw.label): the server masked a frame")
        }
        var length = Int(header[1] & 0x7F)
        if length == 126 {
            let extended = try raw.readBytes(2)
            length = Int(extended[0]) << 8 | Int(extended[1])
        } else if length == 127 {
            length = try raw.readBytes(8).reduce(0) { $0 << 8 | Int($1) }
        }
        let payload = try raw.readBytes(length)
        return Frame(opcode: header[0] & 0x0F, isFinal: header[0] & 0x80 != 0, payload: payload)
    }

    /// The next frame's text; throws if it is not a final text frame.
    public func readText() throws -> String {
        let frame = try readFrame()
        guard frame.opcode == 1, frame.isFinal else {
            throw ClientError(description: "\(raw.label): expected a text frame, got \(frame)")
        }
        return frame.text
    }

    /// The next text message as a line; `nil` at the server's close frame.
    public func readLineOrEOF() throws -> String? {
        let frame = try readFrame()
        if frame.opcode == 8 { return nil }
        guard frame.opcode == 1, frame.isFinal else {
            throw ClientError(description: "\(raw.label): expected a text frame, got \(frame)")
        }
        return frame.text
    }

    /// Reads frames up to the server's close frame (returning it and the text messages before it), then
    /// checks that the server closes the connection.
    public func expectClose() throws -> (close: Frame, texts: [String]) {
        var texts: [String] = []
        while true {
            let frame = try readFrame()
            if frame.opcode == 1 {
                texts.append(frame.text)
                continue
            }
            guard frame.opcode == 8 else {
                throw ClientError(description: "\(raw.label): expected a close frame, got \(frame)")
            }
            let rest = try raw.expectEOF()
            guard rest.isEmpty else {
                throw ClientError(description: "\(raw.label): bytes after the close frame: \(rest)")
            }
            return (frame, texts)
        }
    }
}

/// A WebSocket client over loopback.
public typealias WebSocketTestClient = WebSocketClient<TestClient>

extension WebSocketClient where Stream == TestClient {
    /// Connects to 127.0.0.1:`port`, upgrades `/ws` as the server's own page would (its `Origin`), and
    /// with `expectGreeting` reads the greeting.
    public convenience init(
        port: UInt16, label: String, expectGreeting: Bool = true, extraFrames: [UInt8] = []
    ) throws {
        try self.init(
            over: try TestClient(port: port, label: label), host: "127.0.0.1:\(port)",
            origin: "http://127.0.0.1:\(port)", expectGreeting: expectGreeting, extraFrames: extraFrames)
    }
}

/// Base64 (RFC 4648) for the handshake's key, written apart from the server's.
enum Base64Text {
    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = chunk.enumerated().reduce(UInt32(0)) {
                $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset))
            }
            for slot in 0..<4 {
                out.append(
                    slot <= chunk.count
                        ? alphabet[Int(value >> (18 - 6 * UInt32(slot)) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// One HTTP response read from a raw connection: status line, fields and body (by `Content-Length`).
public struct HTTPTestResponse: Sendable {
    /// The status line, e.g. `HTTP/1.1 200 OK`.
    public var statusLine: String
    /// The header lines, as `Name: value`.
    public var fields: [String]
    /// The body.
    public var body: [UInt8]

    /// The status code.
    public var status: Int { Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0 }

    /// The value of the first field called `name` (without case).
    public func value(_ name: String) -> String? {
        for field in fields {
            guard let colon = field.firstIndex(of: ":") else { continue }
            if field[..<colon].lowercased() == name.lowercased() {
                return String(field[field.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
            }
        }
        return nil
    }

    /// Sends `request` on a new connection to 127.0.0.1:`port`, reads the response and checks that the
    /// server then closes the connection.
    public static func fetch(port: UInt16, _ request: [UInt8], label: String = "http") throws
        -> HTTPTestResponse
    {
        let client = try TestClient(port: port, label: label)
        try client.send(bytes: request)
        return try read(from: client)
    }

    /// `GET target` with a Host, as curl sends it, and `Connection: close` (the page's connection
    /// otherwise stays open for the next request).
    public static func get(port: UInt16, _ target: String) throws -> HTTPTestResponse {
        try fetch(port: port, getRequest(target, host: "127.0.0.1:\(port)"))
    }

    /// Reads one response from `client`, then (unless `thenClosed` is false) its end of file.
    public static func read(from client: some ByteStream, thenClosed: Bool = true) throws -> HTTPTestResponse
    {
        let head = try readHead(client)
        guard let statusLine = head.first else {
            throw ClientError(description: "\(client.label): no status line")
        }
        var response = HTTPTestResponse(statusLine: statusLine, fields: Array(head.dropFirst()), body: [])
        let length = Int(response.value("Content-Length") ?? "0") ?? 0
        response.body = try client.readBytes(length)
        guard thenClosed else { return response }
        let rest = try client.expectEOF()
        guard rest.isEmpty else {
            throw ClientError(description: "\(client.label): bytes after the body: \(rest)")
        }
        return response
    }

    /// Reads an HTTP response head: lines up to the blank one, without their CRs.
    static func readHead(_ raw: some ByteStream) throws -> [String] {
        var lines: [String] = []
        while true {
            guard var line = try raw.readLineOrEOF() else {
                throw ClientError(description: "\(raw.label): end of file in a response head after \(lines)")
            }
            if line.hasSuffix("\r") { line.removeLast() }
            if line.isEmpty { return lines }
            lines.append(line)
        }
    }

    /// `GET target` with a Host, as curl sends it, and `Connection: close`.
    public static func getRequest(_ target: String, host: String) -> [UInt8] {
        Array("GET \(target) HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: test\r\nConnection: close\r\n\r\n".utf8)
    }
}
