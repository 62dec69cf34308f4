/// The HTTP status codes the server answers with, and their reason phrases.
public struct HTTPStatus: Sendable, Equatable, CustomStringConvertible {
    /// The three-digit code.
    public var code: Int
    /// The reason phrase of the status line.
    public var reason: String

    /// The page.
    public static let ok = HTTPStatus(code: 200, reason: "OK")
    /// The WebSocket upgrade.
    public static let switchingProtocols = HTTPStatus(code: 101, reason: "Switching Protocols")
    /// A request the parser or the handshake cannot accept.
    public static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    /// A page of another origin asked for the page or the WebSocket (`Origin` is not this server's).
    public static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
    /// Any path but `/` and `/ws`.
    public static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    /// Any method but `GET`.
    public static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    /// A head not finished within the registration timeout.
    public static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    /// `/ws` without a WebSocket upgrade, or with a WebSocket version other than 13.
    public static let upgradeRequired = HTTPStatus(code: 426, reason: "Upgrade Required")
    /// Requests faster than the rate limit every connection pays.
    public static let tooManyRequests = HTTPStatus(code: 429, reason: "Too Many Requests")
    /// A request head over ``HTTPHeadParser/maximumHeadLength``.
    public static let headTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    /// More connections outside the game (sniffing, reading heads) than the server takes clients.
    public static let serviceUnavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
    /// An HTTP version other than 1.0 and 1.1.
    public static let versionNotSupported = HTTPStatus(code: 505, reason: "HTTP Version Not Supported")

    /// Creates a status.
    public init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// `code reason`, as in a status line.
    public var description: String { "\(code) \(reason)" }
}
