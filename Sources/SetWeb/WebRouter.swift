/// What the server answers to a complete request head: the page, the WebSocket upgrade, or an error.
public enum WebRouter {
    /// The answer, and what the connection does after it: becomes a WebSocket, waits for the next
    /// request (a persistent connection), or closes once the answer is written.
    public struct Reply: Sendable, Equatable {
        /// The response to write.
        public var response: HTTPResponse
        /// Whether the connection stays open for another request once the response is written.
        public var keepsAlive = false
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
            let persists = keepsAlive(head)
            return Reply(response: pageResponse(page, persists: persists), keepsAlive: persists)
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

    /// Whether the client lets the connection persist after this request: HTTP/1.1 unless it says
    /// `Connection: close`, HTTP/1.0 only when it says `Connection: keep-alive`.
    ///
    /// The page's connection persists because of browsers' preconnects: a browser that loaded the page
    /// opens a spare connection and may leave it silent for seconds before its next request (a
    /// reload). Given a persistent connection it reuses that one first, and the spare one, greeted as
    /// a line protocol client once its sniff window ends, is never asked for the page.
    public static func keepsAlive(_ head: HTTPRequestHead) -> Bool {
        if head.listContains("Connection", "close") { return false }
        return head.minorVersion >= 1 || head.listContains("Connection", "keep-alive")
    }

    /// The page, never cached (a new setd may serve a new page).
    static func pageResponse(_ page: [UInt8], persists: Bool) -> HTTPResponse {
        HTTPResponse(
            status: .ok,
            fields: [
                ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"), ("Connection", persists ? "keep-alive" : "close"),
            ],
            body: page)
    }
}
