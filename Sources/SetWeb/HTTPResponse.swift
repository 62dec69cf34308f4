/// One HTTP/1.1 response: a status, header fields and a body, serialised with a `Content-Length`.
public struct HTTPResponse: Sendable, Equatable {
    /// The status.
    public var status: HTTPStatus
    /// Header fields in order, without `Content-Length` (added from the body, except for `101`).
    public var fields: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: HTTPStatus, fields: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.fields = fields
        self.body = body
    }

    /// An error response: a one-line plain-text body saying `detail`, and `Connection: close`.
    public static func error(
        _ status: HTTPStatus, _ detail: String, fields: [(name: String, value: String)] = []
    )
        -> HTTPResponse
    {
        HTTPResponse(
            status: status,
            fields: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")] + fields
                + [
                    ("Connection", "close")
                ],
            body: Array("\(status): \(detail)\n".utf8))
    }

    /// The value of the first field called `name` (compared without case).
    public func value(_ name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The response as it goes on the wire.
    public var bytes: [UInt8] {
        // Written into one array: a head grown as a string, copied out and then copied again with the
        // body made three buffers for every page and WebSocket upgrade the engine answers.
        var out: [UInt8] = []
        out.reserveCapacity(128 + body.count)
        let lineEnd: [UInt8] = [0x0D, 0x0A]
        out += "HTTP/1.1 ".utf8
        out += status.description.utf8
        out += lineEnd
        for field in fields {
            out += field.name.utf8
            out += ": ".utf8
            out += field.value.utf8
            out += lineEnd
        }
        // A 101 has no body, and the bytes after it belong to the new protocol.
        if status != .switchingProtocols {
            out += "Content-Length: ".utf8
            out += String(body.count).utf8
            out += lineEnd
        }
        out += lineEnd
        out += body
        return out
    }

    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
