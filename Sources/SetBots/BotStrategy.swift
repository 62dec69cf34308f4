import SetGame
import SetProtocol

/// The choices a bot makes from what it sees: which claim to send, which card to turn.
///
/// Pure functions of a ``GameView`` and a seeded generator, so that a bot's play can be tested and
/// replayed without a server.
public enum BotStrategy {
    /// What a claim is meant to be.
    public enum Intent: Equatable, Sendable {
        /// A set on the board the bot sees; the server should take it unless somebody was faster.
        case valid
        /// Cards that are not a set, on purpose; the server must answer `NOTSET`.
        case wrong
        /// A set seen on an older board, on purpose; the server must answer `STALE`.
        case stale
        /// Memory: face-down cards turned over to see what they are; a set or `NOTSET` both fit.
        case explore
    }

    /// A claim to send as `CHOOSE <picks> @<revision>`.
    public struct Claim: Equatable, Sendable {
        /// The named cards: positions on the board, or codes for chain cards that are not on it.
        public var picks: [Selection.Pick]
        /// The cards named, in order.
        public var cards: [Card]
        /// The board revision the picks refer to.
        public var revision: Int
        /// What the claim is meant to be.
        public var intent: Intent

        /// The `CHOOSE` that makes the claim.
        public var command: Command {
            let named = picks.map { pick -> Command.Pick in
                switch pick {
                case .position(let p): return .position(p)
                case .card(let card): return .code(card.code)
                }
            }
            return .choose(picks: named, revision: revision)
        }
    }

    /// A board a bot saw earlier, kept to make a stale claim from.
    public struct EarlierBoard: Equatable, Sendable {
        /// Its revision.
        public var revision: Int
        /// Its cards, by position.
        public var cards: [Card]

        /// Creates a record of a board.
        public init(revision: Int, cards: [Card]) {
            self.revision = revision
            self.cards = cards
        }
    }

    /// Every valid claim on the board the view shows, by the rules of the room's mode (``SetMode``'s
    /// own, so a bot and the server cannot disagree about what a set is): board cards by position, a
    /// chain card (which is not on the board) by its code.
    public static func validClaims(in view: GameView) -> [[Selection.Pick]] {
        guard view.game == .set else { return [] }
        let slots = view.setCards
        guard slots.allSatisfy({ $0 != nil }) else { return [] }
        let cards = slots.map { $0! }
        // A board of the last game's mode, read before this game's BOARD line came: nothing to claim yet.
        guard cards.allSatisfy(view.setMode.hasCard) else { return [] }
        var position = [Int](repeating: -1, count: Card.universe.count)
        for (i, card) in cards.enumerated() { position[card.index] = i }
        var claims = view.setMode.claims(on: cards, chain: view.chain)
        if view.setMode.isPuzzle, !view.found.isEmpty {
            // Puzzle: a claim found before on this board is taken; only the others are left to find.
            let found = Set(view.found.map(Set.init))
            claims.removeAll { found.contains(Set($0)) }
        }
        return claims.map { claim in
            claim.map { card in position[card.index] >= 0 ? .position(position[card.index]) : .card(card) }
        }
    }

    /// Memory's claim: a set among the face-down cards `remembered` (seen turned over, by position) if
    /// there is one, else three positions to turn over, unseen ones first, to learn what lies there.
    public static func planMemoryClaim(
        in view: GameView, remembered: [Int: Card], using generator: inout SeededGenerator
    ) -> Claim? {
        guard view.game == .set, view.status == .playing, view.board.count >= 3 else { return nil }
        let known = remembered.filter { $0.key < view.board.count }.sorted { $0.key < $1.key }
        let cards = known.map(\.value)
        if let set = view.setMode.claims(on: cards, chain: nil).first {
            let positions = set.map { card in known.first { $0.value == card }!.key }
            return Claim(
                picks: positions.map(Selection.Pick.position), cards: set, revision: view.revision,
                intent: .valid)
        }
        var unseen = view.board.indices.filter { remembered[$0] == nil }
        var seen = known.map(\.key)
        var positions: [Int] = []
        while positions.count < 3 {
            if !unseen.isEmpty {
                positions.append(unseen.remove(at: generator.next(below: unseen.count)))
            } else {
                positions.append(seen.remove(at: generator.next(below: seen.count)))
            }
        }
        return Claim(
            picks: positions.map(Selection.Pick.position), cards: [], revision: view.revision,
            intent: .explore)
    }

    /// The claim a bot makes when its think time is up, or `nil` when it sees nothing to claim.
    ///
    /// With probability `mistakes` the claim is a deliberate mistake: half the time cards that are not a
    /// set, half the time a set from `earlier` (an older board). Otherwise a valid claim picked at random,
    /// as a person finds whichever set they happen to see first.
    public static func planClaim(
        in view: GameView, earlier: EarlierBoard?, mistakes: Double, using generator: inout SeededGenerator
    ) -> Claim? {
        guard view.game == .set, view.status == .playing else { return nil }
        let cards = view.setCards.compactMap { $0 }
        guard cards.count == view.board.count, !cards.isEmpty else { return nil }
        let roll = unitRandom(&generator)
        if roll < mistakes {
            // The mistake the roll picked, or the other kind when that one is impossible here (no
            // earlier board to be stale about).
            let wrong = { (g: inout SeededGenerator) in wrongClaim(in: view, cards: cards, using: &g) }
            let stale = { (g: inout SeededGenerator) in staleClaim(in: view, earlier: earlier, using: &g) }
            let order = roll < mistakes / 2 ? [wrong, stale] : [stale, wrong]
            for make in order {
                if let claim = make(&generator) { return claim }
            }
        }
        let claims = validClaims(in: view)
        guard !claims.isEmpty else { return nil }
        let picks = claims[generator.next(below: claims.count)]
        return Claim(
            picks: picks, cards: picks.map { card(for: $0, on: cards) }, revision: view.revision,
            intent: .valid)
    }

    /// Cards on the board that are not a valid claim, as a deliberate wrong claim.
    static func wrongClaim(in view: GameView, cards: [Card], using generator: inout SeededGenerator) -> Claim?
    {
        let mode = view.setMode
        let size = mode.cardsPerClaim
        guard cards.count >= size, cards.allSatisfy(mode.hasCard) else { return nil }
        for _ in 0..<32 {
            var positions: [Int] = []
            while positions.count < size {
                let p = generator.next(below: cards.count)
                if !positions.contains(p) { positions.append(p) }
            }
            let picked = positions.map { cards[$0] }
            if !mode.isValidClaim(picked) {
                return Claim(
                    picks: positions.map(Selection.Pick.position), cards: picked, revision: view.revision,
                    intent: .wrong)
            }
        }
        return nil
    }

    /// A set from an older board, claimed by position against that board's revision.
    static func staleClaim(in view: GameView, earlier: EarlierBoard?, using generator: inout SeededGenerator)
        -> Claim?
    {
        guard let earlier, earlier.revision != view.revision, view.setMode != .chain,
            earlier.cards.allSatisfy(view.setMode.hasCard)
        else { return nil }
        let sets = view.setMode.claims(on: earlier.cards, chain: nil)
        guard !sets.isEmpty else { return nil }
        let cards = sets[generator.next(below: sets.count)]
        let positions = cards.map { card in earlier.cards.firstIndex(of: card)! }
        return Claim(
            picks: positions.map(Selection.Pick.position), cards: cards, revision: earlier.revision,
            intent: .stale)
    }

    private static func card(for pick: Selection.Pick, on cards: [Card]) -> Card {
        switch pick {
        case .position(let p): return cards[p]
        case .card(let card): return card
        }
    }

    /// The position a Matchismo bot turns on its turn, or `nil` when no card can be turned up.
    ///
    /// It plays like a person with a good memory: with a card up, it turns a remembered card of the same
    /// rank (worth most), else of the same suit; otherwise a card it has never seen; with nothing up and
    /// two remembered cards of one rank, it starts that pair.
    public static func matchismoChoice(
        in view: GameView, memory: [Int: PlayingCard], using generator: inout SeededGenerator
    ) -> Int? {
        guard view.game == .matchismo, view.status == .playing else { return nil }
        var up: [PlayingCard] = []
        var down: [Int] = []
        for (i, slot) in view.board.enumerated() {
            guard case .playing(let card, let isMatched) = slot, !isMatched else { continue }
            if let card { up.append(card) } else { down.append(i) }
        }
        guard !down.isEmpty else { return nil }
        let known = down.compactMap { p in memory[p].map { (position: p, card: $0) } }
        if !up.isEmpty {
            if let same = known.first(where: { k in up.contains { $0.rank == k.card.rank } }) {
                return same.position
            }
            if let suited = known.first(where: { k in up.contains { $0.suit == k.card.suit } }) {
                return suited.position
            }
        } else {
            for (i, a) in known.enumerated()
            where known[(i + 1)...].contains(where: { $0.card.rank == a.card.rank }) {
                return a.position
            }
        }
        let unseen = down.filter { memory[$0] == nil }
        let pool = unseen.isEmpty ? down : unseen
        return pool[generator.next(below: pool.count)]
    }

    /// Updates a Matchismo bot's memory from the board: face-up cards are remembered where they lie,
    /// matched cards are forgotten.
    public static func remember(_ view: GameView, into memory: inout [Int: PlayingCard]) {
        for (i, slot) in view.board.enumerated() {
            guard case .playing(let card, let isMatched) = slot else { continue }
            if isMatched {
                memory[i] = nil
            } else if let card {
                memory[i] = card
            }
        }
    }

    /// A uniform number in `0..<1`.
    static func unitRandom(_ generator: inout SeededGenerator) -> Double {
        Double(generator.next() >> 11) / Double(1 << 53)
    }
}
