/// The machine-readable code in an `ERR <VERB> <CODE> <text>` line.
public enum ErrorCode: String, Sendable, CaseIterable {
    /// The verb is not one the server knows.
    case unknown = "UNKNOWN"
    /// Arguments are missing, extra or malformed.
    case args = "ARGS"
    /// A name is not 1–16 of `A–Z a–z 0–9 _ -`.
    case badName = "BADNAME"
    /// The name belongs to a connected (or away) player.
    case taken = "TAKEN"
    /// The command needs `HELLO` first.
    case noName = "NONAME"
    /// `HELLO` or `RESUME` was already said on this connection.
    case already = "ALREADY"
    /// The `RESUME` token is unknown or expired.
    case badToken = "BADTOKEN"
    /// The command needs a room and the connection is in none (or only watching).
    case noRoom = "NOROOM"
    /// The named room does not exist.
    case noSuchRoom = "NOSUCHROOM"
    /// The room is private and the password is missing or wrong.
    case denied = "DENIED"
    /// The room exists with a different game or options.
    case mismatch = "MISMATCH"
    /// An option name or value is not valid.
    case badOption = "BADOPTION"
    /// The claim names cards the player cannot have meant on the current board.
    case stale = "STALE"
    /// The cards are not a valid set in this room's mode.
    case notSet = "NOTSET"
    /// It is another player's turn (Matchismo).
    case notYourTurn = "NOTYOURTURN"
    /// The game is over; `NEW` starts another.
    case over = "OVER"
    /// Hints are switched off in this room.
    case noHints = "NOHINTS"
    /// A setting is locked until a new game.
    case locked = "LOCKED"
    /// The server's room limit is reached.
    case tooManyRooms = "TOOMANYROOMS"
    /// The line was longer than the cap.
    case tooLong = "TOOLONG"
    /// The line was not valid UTF-8.
    case badUTF8 = "BADUTF8"
    /// The connection sends commands faster than the rate limit.
    case slowDown = "SLOWDOWN"
    /// The server is full.
    case full = "FULL"
}

/// A refusal to send as `ERR <VERB> <CODE> <text>`.
public struct ProtocolError: Error, Equatable, Sendable {
    /// The upper-cased verb, or `-` when there is none.
    public var verb: String
    /// The machine-readable code.
    public var code: ErrorCode
    /// A reason a person can read.
    public var text: String

    /// Creates an error.
    public init(_ verb: String, _ code: ErrorCode, _ text: String) {
        self.verb = verb
        self.code = code
        self.text = text
    }

    /// The `ERR` line.
    public var line: ServerLine { .err(verb: verb, code: code.rawValue, text: text) }
}
