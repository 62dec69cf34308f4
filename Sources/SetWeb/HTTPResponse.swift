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
        var head = "HTTP/1.1 \(status)\r\n"
        for field in fields { head += "\(field.name): \(field.value)\r\n" }
        // A 101 has no body, and the bytes after it belong to the new protocol.
        if status != .switchingProtocols { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
