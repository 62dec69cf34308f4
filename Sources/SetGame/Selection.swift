/// The cards a player names in a claim: by board position, by card code, or a mix.
public struct Selection: Equatable, Sendable {
    /// One named card.
    public enum Pick: Equatable, Sendable {
        /// The card at a board position (0 is `a`).
        case position(Int)
        /// A card named by its code.
        case card(Card)
    }

    /// The named cards, in the order the player gave them.
    public var picks: [Pick]
    /// The board revision the positions refer to. When set and the board has changed since, the claim
    /// is stale: positions are only meaningful against the board the player saw.
    public var seenRevision: Int?

    /// Creates a selection.
    public init(_ picks: [Pick], seenRevision: Int? = nil) {
        self.picks = picks
        self.seenRevision = seenRevision
    }

    /// A selection of cards by code.
    public static func cards(_ cards: [Card]) -> Selection { Selection(cards.map(Pick.card)) }

    /// A selection of board positions seen at `revision`.
    public static func positions(_ positions: [Int], seenRevision: Int? = nil) -> Selection {
        Selection(positions.map(Pick.position), seenRevision: seenRevision)
    }
}
