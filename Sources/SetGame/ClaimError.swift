/// Why a claim was refused. Only ``notSet(_:)`` is the player's fault and costs the penalty.
public enum ClaimError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The claim names a card or position the player cannot have meant on the current board: the board
    /// changed since the player saw it. Never penalised.
    case stale(String)
    /// The cards are on the board but do not form a valid claim in this mode; the reason names the rule.
    case notSet(String)
    /// The claim itself is malformed: the wrong number of cards, or one card twice.
    case malformed(String)
    /// The game is over; start a new one.
    case gameOver

    public var description: String {
        switch self {
        case .stale(let why), .notSet(let why), .malformed(let why): return why
        case .gameOver: return "the game is over"
        }
    }
}
