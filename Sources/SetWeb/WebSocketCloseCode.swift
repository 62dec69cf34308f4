/// A close frame's status code (RFC 6455 §7.4).
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code on the wire.
    public var rawValue: UInt16

    /// Creates a code from its number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The connection did what it was for (the server's `BYE`, or an echoed close).
    public static let normal = WebSocketCloseCode(rawValue: 1000)
    /// The server is going away.
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// A frame broke RFC 6455: unmasked, reserved bits or opcodes, a bad fragment sequence, an oversized
    /// or fragmented control frame, a malformed close.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// A binary message: the protocol is text.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// A text message that is not UTF-8.
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// A message that breaks a rule of setd's own (more than one line in it).
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// A message over the protocol's line cap.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)

    /// Whether a peer may send this code in a close frame: 1000–1003 and 1007–1014 are defined for the
    /// wire, 3000–4999 are for libraries and applications; 1004–1006, 1015 and the rest never appear there.
    public var isValidOnTheWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The number.
    public var description: String { "\(rawValue)" }
}
