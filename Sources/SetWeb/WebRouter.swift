/// What the server answers to a complete request head: the page, the WebSocket upgrade, or an error.
public enum WebRouter {
    /// The answer, and whether the connection becomes a WebSocket after it (otherwise it closes once
    /// the answer is written).
    public struct Reply: Sendable, Equatable {
        /// The response to write.
        public var response: HTTPResponse
        /// Whether the response is a `101` and the connection now speaks WebSocket.
        public var isUpgrade: Bool { response.status == .switchingProtocols }
    }

    /// Routes a request: `GET /` (any query string) is the page, `GET /ws` the WebSocket, any other
    /// path 404 and any other method 405.
    public static func reply(to head: HTTPRequestHead, page: [UInt8]) -> Reply {
        guard head.method == Array("GET".utf8) else {
            return Reply(response: .error(.methodNotAllowed, "only GET", fields: [("Allow", "GET")]))
        }
        switch head.path {
        case Array("/".utf8):
            return Reply(response: pageResponse(page))
        case Array("/ws".utf8):
            return Reply(response: WebSocketHandshake.response(to: head))
        default:
            return Reply(response: .error(.notFound, "the page is at /"))
        }
    }

    /// The answer to a head that failed to parse.
    public static func reply(toFailure status: HTTPStatus, _ detail: String) -> Reply {
        Reply(response: .error(status, detail))
    }

    /// The page, never cached (a new setd may serve a new page), and the connection closed after it.
    static func pageResponse(_ page: [UInt8]) -> HTTPResponse {
        HTTPResponse(
            status: .ok,
            fields: [
                ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"), ("Connection", "close"),
            ],
            body: page)
    }
}
