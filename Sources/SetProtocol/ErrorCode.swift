/// The machine-readable code in an `ERR <VERB> <CODE> <text>` line.
///
/// A code this version does not know, from a newer server, is kept as ``unrecognized(_:)`` instead of
/// making the line unreadable: an `ERR` line must still end the oldest outstanding reply, or every reply
/// after it would be paired with the wrong command. Codes compare and hash by their text (the standard
/// library's `RawRepresentable` equality), but a `switch` tells `.unrecognized("STALE")` from `.stale`,
/// so make codes with ``init(rawValue:)``, which picks the known case for every known code.
public enum ErrorCode: Hashable, Sendable {
    /// The verb is not one the server knows.
    case unknown
    /// Arguments are missing, extra or malformed.
    case args
    /// A name is not 1–16 of `A–Z a–z 0–9 _ -`.
    case badName
    /// The name belongs to a connected (or away) player.
    case taken
    /// The command needs `HELLO` first.
    case noName
    /// `HELLO` or `RESUME` was already said on this connection.
    case already
    /// The `RESUME` token is unknown or expired.
    case badToken
    /// The command needs a room and the connection is in none (or only watching).
    case noRoom
    /// The named room does not exist.
    case noSuchRoom
    /// The room is private and the password is missing or wrong.
    case denied
    /// The room exists with a different game or options.
    case mismatch
    /// An option name or value is not valid.
    case badOption
    /// The claim names cards the player cannot have meant on the current board.
    case stale
    /// The cards are not a valid set in this room's mode.
    case notSet
    /// It is another player's turn (Matchismo).
    case notYourTurn
    /// The game is over; `NEW` starts another.
    case over
    /// Hints are switched off in this room.
    case noHints
    /// The server's room limit is reached.
    case tooManyRooms
    /// The line was longer than the cap.
    case tooLong
    /// The line was not valid UTF-8.
    case badUTF8
    /// The connection sends commands faster than the rate limit.
    case slowDown
    /// The server is full.
    case full
    /// The server cannot make the change durable now (its journal cannot be written), so it did not
    /// make it; reading commands still work.
    case unavailable
    /// The room is waiting for its players to be ready: nobody may claim yet.
    case notStarted
    /// `READY` or `START` outside a room's waiting time.
    case notWaiting
    /// The room's host has locked it: no new players.
    case locked
    /// Too many wrong keys or passwords (from this address, or for this name), or too many names
    /// claimed from this address lately: the text says how long to wait before trying again.
    case backoff
    /// The address holds as many claimed names as it may, or the server as many as it keeps.
    case tooManyNames
    /// `RECORD`: no kept game has that id (or it was a private room's, and you are not in it).
    case noSuchGame
    /// `REMATCH`: the game is not over yet (a vote with `NEW` ends it early).
    case notOver
    /// A code this version does not know, as the server sent it.
    case unrecognized(String)
}

extension ErrorCode: RawRepresentable, CaseIterable {
    /// Every code protocol.md lists, in its order; ``unrecognized(_:)`` is not among them.
    public static let allCases: [ErrorCode] = [
        .unknown, .args, .badName, .taken, .noName, .already, .badToken, .noRoom, .noSuchRoom, .denied,
        .mismatch, .badOption, .stale, .notSet, .notYourTurn, .over, .noHints, .tooManyRooms,
        .tooLong, .badUTF8, .slowDown, .full, .unavailable, .notStarted, .notWaiting, .locked,
        .backoff, .tooManyNames, .noSuchGame, .notOver,
    ]

    /// Known codes by their text, so parsing an `ERR` line is one lookup.
    private static let byRawValue: [String: ErrorCode] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The code named by `rawValue`: a known case, or ``unrecognized(_:)`` for any other text. Never fails,
    /// so a client reads every `ERR` line.
    public init(rawValue: String) {
        self = Self.byRawValue[rawValue] ?? .unrecognized(rawValue)
    }

    /// The code as it appears on the wire.
    public var rawValue: String {
        switch self {
        case .unknown: return "UNKNOWN"
        case .args: return "ARGS"
        case .badName: return "BADNAME"
        case .taken: return "TAKEN"
        case .noName: return "NONAME"
        case .already: return "ALREADY"
        case .badToken: return "BADTOKEN"
        case .noRoom: return "NOROOM"
        case .noSuchRoom: return "NOSUCHROOM"
        case .denied: return "DENIED"
        case .mismatch: return "MISMATCH"
        case .badOption: return "BADOPTION"
        case .stale: return "STALE"
        case .notSet: return "NOTSET"
        case .notYourTurn: return "NOTYOURTURN"
        case .over: return "OVER"
        case .noHints: return "NOHINTS"
        case .tooManyRooms: return "TOOMANYROOMS"
        case .tooLong: return "TOOLONG"
        case .badUTF8: return "BADUTF8"
        case .slowDown: return "SLOWDOWN"
        case .full: return "FULL"
        case .unavailable: return "UNAVAILABLE"
        case .notStarted: return "NOTSTARTED"
        case .notWaiting: return "NOTWAITING"
        case .locked: return "LOCKED"
        case .backoff: return "BACKOFF"
        case .tooManyNames: return "TOOMANYNAMES"
        case .noSuchGame: return "NOSUCHGAME"
        case .notOver: return "NOTOVER"
        case .unrecognized(let code): return code
        }
    }
}

/// A refusal to send as `ERR <VERB> <CODE> <text>`.
public struct ProtocolError: Error, Equatable, Sendable {
    /// The verb of the command refused, `nil` when the line was no command (`-` on the wire).
    public var verb: Verb?
    /// The machine-readable code.
    public var code: ErrorCode
    /// A reason a person can read.
    public var text: String

    /// Creates an error.
    public init(_ verb: Verb?, _ code: ErrorCode, _ text: String) {
        self.verb = verb
        self.code = code
        self.text = text
    }

    /// The `ERR` line.
    public var line: ServerLine { .err(verb: verb?.rawValue ?? "-", code: code, text: text) }
}
