import Foundation
import SetGame

/// A finished game's record (`RECORD`'s JSON, protocol.md "RECORD") rebuilt step by step for
/// `set-cli --replay`: the board at the deal, at each claim (the claim's cards still on it) and at the
/// end, from the record's deck and events by the rules protocol.md gives (a set's cards replaced in place
/// up to 12 cards, the gaps closed from the end, three more while no claim is possible). Read with
/// `JSONSerialization` from the documented field names, as ``GameRecordSummary`` is; event kinds this
/// client does not know are left out.
public struct GameRecordReplay: Sendable {
    /// One moment of the game.
    public struct Step: Sendable, Equatable {
        /// What happened: `deal`, `claim`, `choose` (Matchismo) or `over`.
        public var kind: String
        /// Milliseconds since the deal.
        public var ms: Int
        /// Who claimed or chose (absent for the deal and the end).
        public var name: String?
        /// A claim's result: `set`, `wrong` or `stale`.
        public var result: String?
        /// The cards claimed, as codes; a Matchismo choice's text.
        public var cards: [String]
        /// The cards on the table when it happened.
        public var board: [Card]
        /// The positions whose card came since the step before.
        public var fresh: [Int]
        /// At a set: the claims that were on its board and left with it, untaken.
        public var missed: [[Card]]
        /// At a set: milliseconds since the set before (or the deal).
        public var sinceMs: Int?
        /// Cards not dealt yet.
        public var deckLeft: Int
        /// Every player's points after it, best first (ties in seat order).
        public var scores: [Score]
    }

    /// A player's points at a step.
    public struct Score: Sendable, Equatable {
        /// The player.
        public var name: String
        /// Points.
        public var score: Int
    }

    /// The game's id.
    public var id: String
    /// The room it was played in.
    public var room: String
    /// `set` or `matchismo`.
    public var kind: String
    /// The SET mode (`normal` for Matchismo).
    public var mode: SetMode
    /// The steps: the deal first, the end last.
    public var steps: [Step]

    /// The cards a board is refilled to after a set (protocol.md: up to 12).
    static let refilledSize = 12

    /// Rebuilds the record in `json`, or returns `nil` when it is not a record this client can read (a
    /// field missing, a card code it does not know, a claim of cards not on the board).
    public init?(json: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let id = object["id"] as? String, let room = object["room"] as? String,
            let events = object["events"] as? [[String: Any]]
        else { return nil }
        let options = object["options"] as? [String: String] ?? [:]
        kind = object["kind"] as? String ?? "set"
        (self.id, self.room) = (id, room)
        guard let mode = SetMode(rawValue: options["mode"] ?? "normal"), mode.isOffered else { return nil }
        self.mode = mode
        let penalty = Int(options["penalty"] ?? "0") ?? 0
        var deck: [Card] = []
        for code in object["deck"] as? [String] ?? [] {
            guard let card = try? Card(code: code) else { return nil }
            deck.append(card)
        }
        var builder = Builder(
            mode: mode, isSet: kind == "set", deck: deck, players: object["players"] as? [String] ?? [])
        for event in events {
            let ms = event["ms"] as? Int ?? 0
            switch (event["type"] as? String, event["name"] as? String) {
            case ("claim", let name?):
                let codes = event["cards"] as? [String] ?? []
                switch event["result"] as? String {
                case "set":
                    let cards = codes.compactMap { try? Card(code: $0) }
                    guard cards.count == codes.count, builder.takeSet(cards, by: name, at: ms) else {
                        return nil
                    }
                case let result? where result == "wrong" || result == "stale":
                    builder.note(claim: result, cards: codes, by: name, at: ms, penalty: penalty)
                default:
                    continue
                }
            case ("choose", let name?):
                builder.push(kind: "choose", ms: ms, name: name, cards: event["cards"] as? [String] ?? [])
            case ("over", _):
                builder.push(kind: "over", ms: ms)
            default:
                continue  // a kind from a later setd (joins, votes, …): nothing to draw
            }
        }
        if builder.steps.last?.kind != "over" {
            builder.push(kind: "over", ms: object["durationMs"] as? Int ?? builder.lastSetMs)
        }
        // The sheet's scores are the server's word at the end (Matchismo's points are not in the events).
        for case let row as [String: Any] in object["sheet"] as? [Any] ?? [] {
            if let name = row["name"] as? String, let score = row["score"] as? Int {
                builder.scores[name] = score
            }
        }
        builder.steps[builder.steps.count - 1].scores = builder.standings()
        steps = builder.steps
    }
}

extension GameRecordReplay {
    /// The game as it goes, one event at a time.
    fileprivate struct Builder {
        let mode: SetMode
        let isSet: Bool
        let players: [String]
        var board: [Card]
        var rest: [Card]
        var chain: [Card]?
        var scores: [String: Int]
        var steps: [Step] = []
        var previous: [Card] = []
        var lastSetMs = 0

        init(mode: SetMode, isSet: Bool, deck: [Card], players: [String]) {
            (self.mode, self.isSet, self.players) = (mode, isSet, players)
            board = isSet ? Array(deck.prefix(GameRecordReplay.refilledSize)) : []
            rest = isSet ? Array(deck.dropFirst(GameRecordReplay.refilledSize)) : []
            scores = Dictionary(players.map { ($0, 0) }, uniquingKeysWith: { first, _ in first })
            dealUntilPlayable()
            push(kind: "deal", ms: 0)
        }

        /// Three more cards while no claim is possible; a chain that cannot go on breaks instead.
        mutating func dealUntilPlayable() {
            guard isSet else { return }
            while mode.claims(on: board, chain: chain).isEmpty {
                if chain != nil, rest.isEmpty || board.count >= SetGame.maximumBoardSize {
                    chain = nil
                    continue
                }
                guard !rest.isEmpty else { return }
                board += rest.prefix(3)
                rest.removeFirst(min(3, rest.count))
            }
        }

        /// Players best first, ties in seat order (then in the order they first claimed).
        func standings() -> [Score] {
            let order = players + scores.keys.filter { !players.contains($0) }.sorted()
            return order.map { Score(name: $0, score: scores[$0] ?? 0) }
                .enumerated().sorted { ($0.element.score, -$0.offset) > ($1.element.score, -$1.offset) }
                .map(\.element)
        }

        mutating func push(
            kind: String, ms: Int, name: String? = nil, result: String? = nil, cards: [String] = [],
            missed: [[Card]] = [], sinceMs: Int? = nil
        ) {
            let fresh =
                steps.isEmpty
                ? [] : board.indices.filter { $0 >= previous.count || previous[$0] != board[$0] }
            previous = board
            steps.append(
                Step(
                    kind: kind, ms: ms, name: name, result: result, cards: cards, board: board, fresh: fresh,
                    missed: missed, sinceMs: sinceMs, deckLeft: rest.count, scores: standings()))
        }

        mutating func note(claim result: String, cards: [String], by name: String, at ms: Int, penalty: Int) {
            if result == "wrong" { scores[name, default: 0] -= penalty }
            push(kind: "claim", ms: ms, name: name, result: result, cards: cards)
        }

        /// A set taken: its step (on the board it was taken from), then the board after it. `false` when
        /// none of its cards is on the board (not a record of this game).
        mutating func takeSet(_ cards: [Card], by name: String, at ms: Int) -> Bool {
            guard isSet, cards.contains(where: board.contains) else { return false }
            let before = mode.claims(on: board, chain: chain).map(Set.init)
            let after = Self.boardAfterTaking(cards, from: board, deck: rest)
            let nextChain = mode.chainReuse != nil ? cards : nil
            let stillThere = Set(mode.claims(on: after.board, chain: nextChain).map(Set.init))
            let missed = before.filter { $0 != Set(cards) && !stillThere.contains($0) }
                .map { claim in
                    board.filter(claim.contains) + cards.filter { claim.contains($0) && !board.contains($0) }
                }
            scores[name, default: 0] += 1
            push(
                kind: "claim", ms: ms, name: name, result: "set", cards: cards.map(\.code), missed: missed,
                sinceMs: ms - lastSetMs)
            lastSetMs = ms
            board = after.board
            rest.removeFirst(after.used)
            chain = nextChain
            dealUntilPlayable()
            return true
        }

        /// protocol.md's board after a set: its places refilled in order from `deck` while the board would
        /// hold fewer than 12, the places left closed by moving the last card into the first, again and
        /// again.
        static func boardAfterTaking(_ cards: [Card], from board: [Card], deck: [Card]) -> (
            board: [Card], used: Int
        ) {
            var slots: [Card?] = board
            var holes = board.indices.filter { cards.contains(board[$0]) }
            var used = 0
            while let hole = holes.first, board.count - holes.count < GameRecordReplay.refilledSize,
                used < deck.count
            {
                slots[hole] = deck[used]
                used += 1
                holes.removeFirst()
            }
            for hole in holes { slots[hole] = nil }
            while let hole = slots.firstIndex(where: { $0 == nil }) {
                let last = slots.removeLast()
                if let last, hole < slots.count { slots[hole] = last }
            }
            return (slots.compactMap { $0 }, used)
        }
    }
}
