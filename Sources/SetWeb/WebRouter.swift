import SetQR

/// What the server answers to a complete request head: the page, the TV table, the QR code of a room's
/// join link, the WebSocket upgrade, or an error.
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

        /// Creates a reply; the engine makes its own for the paths that read the core (`/games`).
        public init(response: HTTPResponse, keepsAlive: Bool = false) {
            self.response = response
            self.keepsAlive = keepsAlive
        }
    }

    /// Routes a request: `GET /` (any query string) is the page, `GET /tv` the TV table (`tvPage`),
    /// `GET /replay/<game-id>` the replay viewer (`replayPage`, see ``replayReply(to:page:)``),
    /// `GET /qr.svg?room=NAME` the QR code of the room's join link (see ``JoinLink``: `publicURL` is
    /// `--public-url`), `GET /ws` the WebSocket, any other path 404 and any other method 405. A request
    /// from a page of another origin is 403 (see ``isSameOrigin(_:allowing:)``).
    public static func reply(
        to head: HTTPRequestHead, page: [UInt8], tvPage: [UInt8] = WebPage.tvBytes,
        replayPage: [UInt8] = WebPage.replayBytes, publicURL: String? = nil, allowedOrigins: [String] = []
    ) -> Reply {
        guard isSameOrigin(head, allowing: allowedOrigins) else {
            return Reply(response: .error(.forbidden, "a page of another site may not use this server"))
        }
        guard head.method == Array("GET".utf8) else {
            return Reply(response: .error(.methodNotAllowed, "only GET", fields: [("Allow", "GET")]))
        }
        switch head.path {
        case Array("/".utf8):
            let persists = keepsAlive(head)
            return Reply(response: pageResponse(page, persists: persists), keepsAlive: persists)
        case Array("/tv".utf8):
            let persists = keepsAlive(head)
            return Reply(response: pageResponse(tvPage, persists: persists), keepsAlive: persists)
        case Array("/qr.svg".utf8):
            return qrReply(to: head, publicURL: publicURL)
        case Array("/ws".utf8):
            return Reply(response: WebSocketHandshake.response(to: head))
        default:
            if let viewer = replayReply(to: head, page: replayPage) { return viewer }
            return Reply(response: .error(.notFound, "the page is at /, the TV table at /tv?room=NAME"))
        }
    }

    /// Whether a request may be served by its `Origin`: a browser names the page that makes a request
    /// (every WebSocket, every cross-site fetch), and a page on some web site that a player opens must
    /// not play as them on the LAN host (cross-site WebSocket hijacking). Allowed: no `Origin` (not a
    /// browser page: `curl`, a bot), an origin whose host and port are the request's `Host`, or one of
    /// `allowed` (`--allow-origin`, for a host behind a proxy). `Origin: null` is refused.
    public static func isSameOrigin(_ head: HTTPRequestHead, allowing allowed: [String]) -> Bool {
        guard let origin = head.value("Origin") else { return true }
        let text = lowercased(origin)
        if allowed.contains(where: { lowercased(Array($0.utf8)) == text }) { return true }
        guard let host = head.value("Host") else { return false }
        let separator = Array("://".utf8)
        guard let at = text.indices.first(where: { text[$0...].starts(with: separator) }) else {
            return false
        }
        let scheme = Array(text[..<at])
        var authority = Array(text[(at + separator.count)...])
        var hostText = lowercased(host)
        // The default port may be written or left out on either side.
        let defaultPort = scheme == Array("https".utf8) ? ":443" : scheme == Array("http".utf8) ? ":80" : nil
        if let port = defaultPort.map({ Array($0.utf8) }) {
            if authority.count > port.count, authority.suffix(port.count).elementsEqual(port) {
                authority.removeLast(port.count)
            }
            if hostText.count > port.count, hostText.suffix(port.count).elementsEqual(port) {
                hostText.removeLast(port.count)
            }
        }
        return !authority.isEmpty && authority == hostText
    }

    /// ASCII letters in lower case; other bytes as they are.
    private static func lowercased(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
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

    /// The QR code of the join link of the room the query names, as SVG: never cached (the link depends
    /// on the `Host` asked), never sniffed as anything but an image, and with a policy that lets it load
    /// and run nothing. A bad room name, a bad `Host` or a link too long for a code is `400`.
    static func qrReply(to head: HTTPRequestHead, publicURL: String?) -> Reply {
        let link: String
        let code: QRCode
        do throws(JoinLink.Refusal) {
            link = try JoinLink.link(target: head.target, host: head.value("Host"), publicURL: publicURL)
            do {
                code = try QRCode(text: link)
            } catch {
                throw .tooLong(byteCount: link.utf8.count)
            }
        } catch {
            return Reply(response: .error(.badRequest, error.description))
        }
        let persists = keepsAlive(head)
        let response = HTTPResponse(
            status: .ok,
            fields: [
                ("Content-Type", "image/svg+xml"), ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"),
                ("Content-Security-Policy", "default-src 'none'; sandbox"),
                ("Connection", persists ? "keep-alive" : "close"),
            ],
            body: Array(code.svg().utf8))
        return Reply(response: response, keepsAlive: persists)
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
