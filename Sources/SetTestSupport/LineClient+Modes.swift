import SetGame
import SetProtocol

/// A game of any SET mode played to its end by `CHOOSE` lines, as a person at `nc` would.
public struct ModePlay {
    /// Sets (claims) taken.
    public var sets = 0
    /// Claims the server refused as `NOTSET` (in memory, the cards turned over to see them).
    public var wrong = 0
    /// Claims the server answered `STALE`.
    public var stale = 0
    /// The view of the room, built from every line the player was sent.
    public var view = GameView()
    /// Every line the player was sent during the game, replies' final lines included.
    public var lines: [String] = []
    /// The reply that ended the game.
    public var last = Reply(lines: [], final: "")
}

extension LineClient {
    /// Plays the SET room whose snapshot is `lines` to its end, whatever its mode: the mode's own claims
    /// (asked of ``SetMode/claims(on:chain:)``, chain cards by code, puzzle's found sets left out), and in
    /// memory, where every card lies face down, three positions at a time, unseen ones first, remembering
    /// what each `NOTSET` turned over until a set is among the remembered cards. `check` runs after every
    /// reply (a test's replay or restore check). With `stoppingAfter`, returns after that many claims
    /// (or at the end, if sooner). Throws when the server refuses a claim the rules accept, or the game
    /// does not end within `limit` claims.
    @discardableResult
    public func playMode(
        from lines: [String], stoppingAfter claims: Int? = nil, atMost limit: Int = 3000,
        check: (ModePlay) throws -> Void = { _ in }
    ) throws -> ModePlay {
        var play = ModePlay()
        for line in lines { play.view.apply(text: line) }
        var remembered: [Int: Card] = [:]
        var unseenOrder = 0
        for claimNumber in 0..<limit {
            if claimNumber == claims { return play }
            let view = play.view
            let mode = view.setMode
            var picks: [String] = []
            var expectsSet = true
            if view.isFaceDown {
                let known = remembered.filter { $0.key < view.board.count }.sorted { $0.key < $1.key }
                if let set = mode.claims(on: known.map(\.value), chain: nil).first {
                    picks = set.map { card in SetGame.positionName(known.first { $0.value == card }!.key) }
                } else {
                    expectsSet = false
                    var unseen = view.board.indices.filter { remembered[$0] == nil }
                    let seen = view.board.indices.filter { remembered[$0] != nil }
                    // Turn the unseen cards over in a rotating order, so every one is seen in turn.
                    if !unseen.isEmpty {
                        unseen = Array(
                            unseen[(unseenOrder % unseen.count)...] + unseen[..<(unseenOrder % unseen.count)])
                    }
                    unseenOrder += 1
                    picks = (unseen + seen).prefix(3).map(SetGame.positionName)
                }
            } else {
                let cards = view.setCards.compactMap { $0 }
                guard cards.count == view.board.count else {
                    throw ClientError(description: "\(label): an unreadable board: \(view.board)")
                }
                let found = Set(view.found.map(Set.init))
                guard
                    let claim = mode.claims(on: cards, chain: view.chain).first(where: {
                        !found.contains(Set($0))
                    })
                else {
                    throw ClientError(
                        description: "\(label): no claim on a board of a game not over: \(cards)")
                }
                picks = claim.map { card in
                    cards.firstIndex(of: card).map(SetGame.positionName) ?? card.code
                }
            }
            let reply = try request("CHOOSE \(picks.joined(separator: " ")) @\(view.revision)")
            play.lines += reply.lines + [reply.final]
            let boardBefore = view.board.count
            for line in reply.lines { play.view.apply(text: line) }
            play.last = reply
            switch reply.error {
            case nil:
                play.sets += 1
                if case .choose(let taken) = reply.ok {
                    let cards = taken.compactMap { try? Card(anyCode: $0) }
                    remembered = remembered.filter { !cards.contains($0.value) }
                }
                // A board that shrank closed its gaps by moving cards: what lay where is unknown again.
                if play.view.board.count < boardBefore { remembered = [:] }
            case .notSet?:
                play.wrong += 1
                guard !expectsSet else {
                    throw ClientError(description: "\(label): \(picks) refused: \(reply)")
                }
                // `NOTSET turned over <card> <card> <card>: <why>`: what the positions hold.
                let words = reply.final.split(separator: " ")
                guard let at = words.firstIndex(of: "over") else {
                    throw ClientError(description: "\(label): a memory NOTSET that shows no cards: \(reply)")
                }
                for (position, code) in zip(picks, words[(at + 1)...]) {
                    let code = code.hasSuffix(":") ? code.dropLast() : code
                    if let p = SetGame.position(named: position), let card = try? Card(anyCode: code) {
                        remembered[p] = card
                    }
                }
            default:
                throw ClientError(description: "\(label): CHOOSE \(picks): \(reply)")
            }
            try check(play)
            if play.view.status == .over { return play }
        }
        throw ClientError(description: "\(label): the game did not end within \(limit) claims")
    }
}
