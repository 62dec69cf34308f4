import SetGame

extension SetMode {
    /// Whether `card` is in this mode's deck: a claim naming any other card is a mistake, never a card
    /// that merely left the board; and a board a client kept from a game of another mode (before a `NEW`
    /// changed it) is no board to look for this mode's claims on.
    public func hasCard(_ card: Card) -> Bool {
        switch self {
        case .junior: return card.isClassic && card.fill == .solid
        case .megaset: return !card.hasFourthValue
        case .fourSet: return card.border == .single
        case .fourSetJunior: return card.border == .single && card.fill == .solid
        case .normal, .chain, .ultra, .ultrachain, .ultra9, .ghostset, .puzzle, .shuffle, .memory:
            return card.isClassic
        }
    }
}
