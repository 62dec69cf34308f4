import SetGame

/// The cards a player has picked for a claim, followed by what they are, not where they were.
///
/// A claim is sent as positions with the revision of the board they were picked on (`CHOOSE b g h @5`),
/// so the server refuses it as `STALE` (no penalty) if the board changed before it arrived: a player is
/// never charged for a card that replaced the one they picked. The revision is the one the first card
/// was picked on. When a new board is shown under a selection, the cards still on it are followed to
/// their positions (the highlight moves with them) and picked again on that board, which becomes the
/// selection's revision; the cards that left are dropped and reported, so the player sees why their
/// selection shrank. A letter typed while the old board was still on the screen names the old board's
/// card, because the selection is only moved on when the new board is drawn.
public struct ClaimSelection: Equatable, Sendable {
    /// One picked card: where it is on the selection's board, and its code there.
    public struct Pick: Equatable, Sendable {
        /// Its position on the board of ``ClaimSelection/revision``.
        public var position: Int
        /// Its card code.
        public var code: String

        /// Creates a pick.
        public init(position: Int, code: String) {
            self.position = position
            self.code = code
        }
    }

    /// What moving a selection to a new board did to it.
    public struct Change: Equatable, Sendable {
        /// Cards that are no longer on the board, with the position they had.
        public var dropped: [Pick] = []
        /// Cards still on the board at another position: where they were and where they are.
        public var moved: [(from: Int, to: Int)] = []

        /// Whether nothing changed for the player.
        public var isEmpty: Bool { dropped.isEmpty && moved.isEmpty }

        public static func == (lhs: Change, rhs: Change) -> Bool {
            lhs.dropped == rhs.dropped && lhs.moved.map(\.from) == rhs.moved.map(\.from)
                && lhs.moved.map(\.to) == rhs.moved.map(\.to)
        }
    }

    /// The picks, in the order they were typed.
    public private(set) var picks: [Pick] = []
    /// The revision of the board the picks name, set when the first card is picked; `nil` when empty.
    public private(set) var revision: Int?

    /// Creates an empty selection.
    public init() {}

    /// Whether no card is picked.
    public var isEmpty: Bool { picks.isEmpty }

    /// The picked positions, in order.
    public var positions: [Int] { picks.map(\.position) }

    /// Makes the selection the `positions` typed, read on `board` (card codes by position, `nil` where
    /// no SET card is) at `revision`, the board on the screen. Positions already picked keep their
    /// revision; the first pick of an empty selection takes `revision`.
    public mutating func update(positions: [Int], board: [String?], revision: Int) {
        let valid = positions.filter { $0 >= 0 && $0 < board.count && board[$0] != nil }
        if valid.isEmpty {
            picks = []
            self.revision = nil
            return
        }
        if self.revision == nil { self.revision = revision }
        picks = valid.map { Pick(position: $0, code: board[$0]!) }
    }

    /// Moves the selection to a new board shown at `revision`: each picked card is looked up by its
    /// code; the ones still there keep their place in the selection at their new position, the others
    /// are dropped. Returns what changed. An empty selection stays empty and unchanged.
    @discardableResult
    public mutating func follow(board: [String?], revision: Int) -> Change {
        guard !picks.isEmpty, revision != self.revision else { return Change() }
        var change = Change()
        var kept: [Pick] = []
        for pick in picks {
            if let at = board.firstIndex(where: { $0 == pick.code }) {
                if at != pick.position { change.moved.append((pick.position, at)) }
                kept.append(Pick(position: at, code: pick.code))
            } else {
                change.dropped.append(pick)
            }
        }
        picks = kept
        self.revision = kept.isEmpty ? nil : revision
        return change
    }

    /// Forgets every pick.
    public mutating func clear() {
        picks = []
        revision = nil
    }

    /// The picks as the letters an input line shows (`b g`).
    public var letters: String { picks.map { SetGame.positionName($0.position) }.joined(separator: " ") }

    /// The status line that says what `change` did, or `nil` when the player need not hear about it.
    public func describe(_ change: Change) -> String? {
        guard !change.dropped.isEmpty else { return nil }
        let gone = change.dropped.map { "\(SetGame.positionName($0.position)) (\($0.code))" }
        let what = gone.count == 1 ? "\(gone[0]) is" : gone.joined(separator: ", ") + " are"
        let rest = isEmpty ? "nothing is selected" : "kept \(letters)"
        return "board changed under your selection: \(what) gone; \(rest)"
    }
}
