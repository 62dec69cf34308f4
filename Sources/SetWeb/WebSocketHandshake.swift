import SetDigest

/// The server's side of RFC 6455's opening handshake.
public enum WebSocketHandshake {
    /// The GUID RFC 6455 appends to the client's key before hashing it.
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The only protocol version RFC 6455 defines.
    public static let version = "13"

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`: base64(SHA-1(key + GUID)).
    public static func accept(forKey key: [UInt8]) -> String {
        Base64.encode(SHA1.digest(key + Array(guid.utf8)))
    }

    /// Whether `key` is what RFC 6455 asks a client to send: 16 bytes, base64-encoded (24 characters).
    public static func isValidKey(_ key: [UInt8]) -> Bool {
        Base64.decode(key)?.count == 16
    }

    /// The answer to a request for `/ws`: `101` with the accept value, or why it cannot be upgraded —
    /// 426 (with `Upgrade: websocket`) without an upgrade to WebSocket, 426 (with
    /// `Sec-WebSocket-Version: 13`) for another version, 400 for HTTP/1.0 or a missing or malformed key.
    public static func response(to head: HTTPRequestHead) -> HTTPResponse {
        guard head.listContains("Upgrade", "websocket"), head.listContains("Connection", "upgrade") else {
            return .error(
                .upgradeRequired, "/ws is a WebSocket; the page is at /",
                fields: [("Upgrade", "websocket")])
        }
        guard head.minorVersion == 1 else { return .error(.badRequest, "a WebSocket needs HTTP/1.1") }
        guard let version = head.value("Sec-WebSocket-Version"), version == Array(Self.version.utf8) else {
            return .error(
                .upgradeRequired, "only WebSocket version 13",
                fields: [("Sec-WebSocket-Version", Self.version)])
        }
        guard let key = head.value("Sec-WebSocket-Key"), isValidKey(key) else {
            return .error(.badRequest, "Sec-WebSocket-Key must be 16 bytes in base64")
        }
        return HTTPResponse(
            status: .switchingProtocols,
            fields: [
                ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                ("Sec-WebSocket-Accept", accept(forKey: key)),
            ])
    }
}
