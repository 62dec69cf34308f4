// libFuzzer target for the game core: SET claims in every mode and Matchismo choices, checked against the
// rules after every operation.
//
// Input layout: byte 0 picks the game (bit 0: SET or Matchismo) and its options, bytes 1–8 are the deal's
// seed, and every following byte starts an operation that reads its own arguments from the bytes after
// it.

import SetGame

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func gameFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let prefixes = InputPrefixes(fuzzBytes(data, size))
    var input = FuzzInput(prefixes.bytes)
    let config = input.byte()
    let seed = input.word()
    // The game's own answers to "which claims are there" (possibleClaims, hasClaim, hint, isOver) are
    // checked against brute force after every change in one input of four (by the seed, so a replay
    // checks the same), and at the end of every input; the rest is checked after every operation.
    let checksQueries = seed & 3 == 0
    // An input resumes from the state after the longest prefix it shares with an earlier input (see
    // PrefixCache), and its own operations run from there.
    if config & 1 == 0 {
        var fuzzer: SetFuzzer
        if let (state, length) = SetFuzzer.states.resumption(of: prefixes) {
            (fuzzer, input) = (state, FuzzInput(prefixes.bytes, from: length))
        } else {
            let mode = SetMode.allCases[Int(config >> 1) & 3]
            fuzzer = SetFuzzer(
                options: .init(mode: mode, wrongClaimPenalty: Int(config >> 3) & 3), seed: seed,
                checksQueries: checksQueries)
            fuzzer.remember(input, prefixes)
        }
        fuzzer.run(&input, prefixes)
        fuzzer.checkQueries()
    } else {
        var fuzzer: MatchismoFuzzer
        if let (state, length) = MatchismoFuzzer.states.resumption(of: prefixes) {
            (fuzzer, input) = (state, FuzzInput(prefixes.bytes, from: length))
        } else {
            fuzzer = MatchismoFuzzer(
                matchCount: 2 + Int(config >> 1) % 29, seed: seed, checksQueries: checksQueries)
            fuzzer.remember(input, prefixes)
        }
        fuzzer.run(&input, prefixes)
        fuzzer.checkQueries()
    }
    return 0
}

/// What a claim was, for messages: its text is built only when a check fails, so passing runs stay fast
/// (and a plain struct, where a closure would be allocated for every claim).
struct ClaimDescription: CustomStringConvertible {
    let selection: Selection
    let revision: Int
    let mode: SetMode
    let seed: UInt64
    var description: String { "\(selection) at revision \(revision) in \(mode) (seed \(seed))" }
}

/// What a Matchismo choice was, for messages, as `ClaimDescription` is for claims.
struct ChoiceDescription: CustomStringConvertible {
    let player: String
    let position: Int
    let seen: Int?
    let revision: Int
    var description: String {
        "\(player) choosing \(position) seen \(seen.map(String.init) ?? "-") at \(revision)"
    }
}

// MARK: - SET

/// A set of SET cards as bits of their indices: counting, comparing and intersecting the cards of a
/// game without hashing each card.
struct CardBits: Equatable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(_ cards: [Card]) {
        for card in cards {
            if card.index < 64 {
                low |= 1 << UInt64(card.index)
            } else {
                high |= 1 << UInt64(card.index - 64)
            }
        }
    }

    var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }

    func isDisjoint(with other: CardBits) -> Bool { low & other.low == 0 && high & other.high == 0 }

    func union(_ other: CardBits) -> CardBits {
        var both = self
        both.low |= other.low
        both.high |= other.high
        return both
    }
}

/// What a claim must do, decided from the rules before the game sees it.
enum ExpectedClaim: Equatable {
    case success([Card])
    case notSet
    case stale
    case malformed
    case gameOver
}

struct SetFuzzer {
    var game: SetGame
    let mode: SetMode
    let players = ["p0", "p1", "p2"]
    /// Scores as the rules say they must be.
    var scores: [String: Int] = [:]
    /// Every valid claim on the current board, by brute force; recomputed when the revision changes.
    /// (In the order of their keys, so that the claim an input picks does not depend on hashing.)
    var claims: [SetReference.ClaimKey] = []
    var claimsRevision = 0
    var operations = 0
    /// Whether the game's claim queries are checked after every change, not only at the end.
    let checksQueries: Bool

    init(options: SetGame.Options, seed: UInt64, checksQueries: Bool) {
        game = SetGame(options: options, seed: seed)
        mode = options.mode
        self.checksQueries = checksQueries
        require(game.revision == 1, "a new game is at revision \(game.revision)")
        check()
    }

    /// The states after the operations of earlier inputs.
    nonisolated(unsafe) static var states = PrefixCache<SetFuzzer>()
    /// The valid claims of each board (with its mode and chain) seen in this process, by brute force.
    nonisolated(unsafe) static var boardClaims = ComputedOnce<[SetReference.ClaimKey]>()
    /// The card lists whose rules were checked in this process.
    nonisolated(unsafe) static var checkedRules = CheckedOnce<ByteDigest>()

    /// Remembers this state, after every fourth operation, as the one after the bytes `input` read,
    /// unless it read past their end. (Every fourth: a quarter of the states to keep and free, for at
    /// most three operations more to run again.)
    func remember(_ input: FuzzInput, _ prefixes: InputPrefixes) {
        if !input.hasReadPastEnd, operations % 4 == 0 {
            Self.states.remember(self, after: input.offset, of: prefixes)
        }
    }

    mutating func run(_ input: inout FuzzInput, _ prefixes: InputPrefixes) {
        while !input.isAtEnd, operations < 400 {
            operations += 1
            let player = players[input.number(below: players.count)]
            switch input.byte() % 9 {
            case 0, 1: claimPossible(&input, by: player)
            case 2: claimPositions(&input, by: player)
            case 3: claimCodes(&input, by: player)
            case 4: claimCards(&input, by: player)
            case 5: claimTwice(&input, by: player)
            case 6: claimWrongCount(&input, by: player)
            case 7: checkNames(&input)
            default: checkRules(&input)
            }
            remember(input, prefixes)
        }
    }

    var needed: Int { mode.cardsPerClaim }

    /// One of the valid claims, named by positions, codes or a mix, maybe against an old revision.
    mutating func claimPossible(_ input: inout FuzzInput, by player: String) {
        guard !claims.isEmpty else {
            claim(.cards(Array(game.board.prefix(needed))), by: player)
            return
        }
        var cards = claims[input.number(below: claims.count)].cards
        if input.flag() { cards.reverse() }
        if input.flag(), cards.count > 1 { cards.swapAt(0, cards.count - 1) }
        let style = input.byte()
        let picks = cards.enumerated().map { i, card -> Selection.Pick in
            guard let position = game.board.firstIndex(of: card), style >> (i + 2) & 1 == 0 else {
                return .card(card)
            }
            return .position(position)
        }
        let seen: Int?
        switch style & 3 {
        case 0: seen = nil
        case 1: seen = game.revision
        case 2: seen = game.revision - 1 - input.number(below: 3)
        default: seen = game.revision + input.signed()
        }
        claim(Selection(picks, seenRevision: seen), by: player)
    }

    /// Positions straight from the input, in range or not.
    mutating func claimPositions(_ input: inout FuzzInput, by player: String) {
        let count = input.number(below: 6)
        let picks = (0..<count).map { _ in
            Selection.Pick.position(input.flag() ? input.signed() : input.number(below: 28))
        }
        let seen: Int? = input.flag() ? game.revision - input.number(below: 3) : nil
        claim(Selection(picks, seenRevision: seen), by: player)
    }

    /// Codes typed as arbitrary text; the ones that are not cards are refused by `Card(code:)`, the rest
    /// are claimed.
    mutating func claimCodes(_ input: inout FuzzInput, by player: String) {
        let count = input.number(below: 6)
        var picks: [Selection.Pick] = []
        for _ in 0..<count {
            let typed: String
            if input.flag() {
                // A real code in random case, or one character replaced.
                var characters = Array(Card.all[input.number(below: 81)].code)
                let change = input.byte()
                for i in characters.indices where change >> i & 1 == 1 {
                    characters[i] = Character(characters[i].lowercased())
                }
                if change & 0x80 != 0 {
                    characters[Int(change >> 4) & 3] = Character(Unicode.Scalar(input.byte()))
                }
                typed = String(characters)
            } else {
                typed = String(decoding: input.bytes(upTo: 6), as: UTF8.self)
            }
            if let card = parsedCode(typed) { picks.append(.card(card)) }
        }
        claim(Selection(picks), by: player)
    }

    /// `Card(code:)` accepts exactly the four-character codes that spell a card, in any case;
    /// `Card(anyCode:)` reads those as the same cards, and every code it reads round-trips.
    func parsedCode(_ typed: String) -> Card? {
        if let any = try? Card(anyCode: typed) {
            require(
                typed.uppercased() == any.code, "\(typed.debugDescription) parsed as \(any.code) by anyCode")
            require(try! Card(anyCode: any.code) == any, "\(any) does not round-trip by anyCode")
            require(
                any.isClassic == ((try? Card(code: typed)) != nil),
                "\(typed.debugDescription): the parsers differ")
        }
        do {
            let card = try Card(code: typed)
            require(typed.count == 4, "\(typed.debugDescription) parsed though it is not 4 characters")
            require(typed.uppercased() == card.code, "\(typed.debugDescription) parsed as \(card.code)")
            require(
                try! Card(code: card.code) == card && Card(card.code) == card, "\(card) does not round-trip")
            return card
        } catch {
            switch error {
            case .wrongLength(let text):
                require(typed.count != 4 && text == typed, "wrongLength for \(typed.debugDescription)")
            case .badCharacter(let position, let found, _, _):
                require(typed.count == 4, "badCharacter for \(typed.debugDescription)")
                require(Array(typed)[position - 1] == found, "badCharacter names the wrong character")
            case .wrongLengthForAnyDeck, .borderWithFourthValue:
                require(false, "Card(code:) threw \(error), which only Card(anyCode:) throws")
            }
            require(!error.description.isEmpty && Card(typed) == nil, "an error without a reason")
            return nil
        }
    }

    /// Cards by index: on the board, in the chain, in the deck or already taken.
    mutating func claimCards(_ input: inout FuzzInput, by player: String) {
        let count = input.number(below: 6)
        let pool = mode.cards
        let cards = (0..<count).map { _ in pool[input.number(below: pool.count)] }
        claim(.cards(cards), by: player)
    }

    /// A valid claim with one card named twice (by position and by code, or the same way twice).
    mutating func claimTwice(_ input: inout FuzzInput, by player: String) {
        guard let cards = claims.first?.cards else { return }
        var picks = cards.map(Selection.Pick.card)
        let from = input.number(below: picks.count)
        let to = (from + 1 + input.number(below: picks.count - 1)) % picks.count
        if input.flag(), let position = game.board.firstIndex(of: cards[from]) {
            picks[to] = .position(position)
        } else {
            picks[to] = picks[from]
        }
        claim(Selection(picks, seenRevision: input.flag() ? game.revision : nil), by: player)
    }

    /// A valid claim with a card too few or too many.
    mutating func claimWrongCount(_ input: inout FuzzInput, by player: String) {
        guard var cards = claims.first?.cards else { return }
        if input.flag() {
            cards.removeLast()
        } else if let extra = game.board.first(where: { !cards.contains($0) }) {
            cards.append(extra)
        }
        claim(.cards(cards), by: player)
    }

    /// The searches in `SetRules` agree with trying every combination, on any collection of distinct
    /// cards (not only boards a game deals).
    func checkRules(_ input: inout FuzzInput) {
        var pool = Card.all
        let cards = (0..<input.number(below: 22)).map { _ in pool.remove(at: input.number(below: pool.count))
        }
        // The checks depend on the cards alone: each list once per process.
        guard Self.checkedRules.isNew(cards.map { UInt8($0.index) }) else { return }
        for i in cards.indices {
            for j in cards.indices where j > i {
                let third = SetRules.completing(cards[i], cards[j])
                require(SetReference.isSet(cards[i], cards[j], third), "completing(\(cards[i]), \(cards[j]))")
            }
        }
        let sets = SetReference.allSets(in: cards)
        require(SetRules.allSets(in: cards) == sets, "allSets(in: \(cards))")
        require(SetRules.containsSet(cards) == !sets.isEmpty, "containsSet(\(cards))")
        if let card = cards.first {
            require(SetRules.completing(card, card) == card, "completing(\(card), itself)")
        }
        guard cards.count <= 16 else { return }
        let ultras = SetReference.allUltraSets(in: cards)
        require(SetRules.allUltraSets(in: cards) == ultras, "allUltraSets(in: \(cards))")
        require(SetRules.containsUltraSet(cards) == !ultras.isEmpty, "containsUltraSet(\(cards))")
        if cards.count == 4 {
            let pairing = SetRules.ultraPairing(cards)
            require(
                (pairing != nil) == !ultras.isEmpty && SetRules.isUltraSet(cards) == !ultras.isEmpty, "ultra")
            if let ((a, b), (c, d)) = pairing {
                require(
                    SetReference.samePairSum(cards[a], cards[b], cards[c], cards[d]), "ultraPairing(\(cards))"
                )
                require(Set([a, b, c, d]) == [0, 1, 2, 3], "ultraPairing(\(cards)) repeats a card")
            }
        }
    }

    /// Position names round-trip.
    mutating func checkNames(_ input: inout FuzzInput) {
        let position = input.signed()
        let name = SetGame.positionName(position)
        // Every board position has a name (a SET board has at most 26 cards, Matchismo's 30).
        let back = SetGame.position(named: name)
        if (0..<MatchismoGame.boardSize).contains(position) {
            require(back == position, "position \(position) is named \(name)")
            require(SetGame.position(named: name.uppercased()) == position, "\(name.uppercased())")
        } else {
            require(back == nil || back == position, "position \(position) is named \(name)")
        }
    }

    /// What the rules say `selection` must do on the current game.
    func expected(_ selection: Selection) -> ExpectedClaim {
        // The player's own mistakes first (a card named twice, a position no board has, a revision the
        // board has not reached), then the end of the game, unless the claim was aimed at the board the
        // last set was taken from (the loser of the last set was late, not wrong), then staleness.
        guard selection.picks.count == needed else { return .malformed }
        for (i, pick) in selection.picks.enumerated() where selection.picks[(i + 1)...].contains(pick) {
            return .malformed
        }
        for case .position(let position) in selection.picks
        where position < 0 || position >= SetGame.maximumBoardSize + 2 {
            return .malformed
        }
        if let seen = selection.seenRevision, seen > game.revision { return .malformed }
        let isOver = game.deckCount == 0 && claims.isEmpty
        if isOver {
            let late =
                (selection.seenRevision.map { $0 != game.revision } ?? false)
                || selection.picks.contains { pick in
                    guard case .card(let card) = pick else { return false }
                    return game.takenSets.last?.cards.contains(card) ?? false
                }
            if !late { return .gameOver }
        }
        var cards: [Card] = []
        for pick in selection.picks {
            switch pick {
            case .position(let position):
                if let seen = selection.seenRevision, seen != game.revision { return .stale }
                guard game.board.indices.contains(position) else { return .stale }
                cards.append(game.board[position])
            case .card(let card):
                guard game.board.contains(card) || (game.chainCards ?? []).contains(card) else {
                    return .stale
                }
                cards.append(card)
            }
        }
        // (As bits of card indices: no set built for every claim.)
        guard CardBits(cards).count == cards.count else { return .malformed }
        if isOver { return .gameOver }
        if cards.count == 3 {
            // The library's own rule agrees with the definition on every triple a claim names.
            let isSet = SetReference.isSet(cards[0], cards[1], cards[2])
            require(SetRules.isSet(cards[0], cards[1], cards[2]) == isSet, "isSet of \(cards)")
            require(
                (SetRules.whyNotSet(cards[0], cards[1], cards[2]) == nil) == isSet, "whyNotSet of \(cards)")
        }
        return SetReference.isValidClaim(cards, mode: mode, chain: game.chainCards)
            ? .success(cards) : .notSet
    }

    mutating func claim(_ selection: Selection, by player: String) {
        let before = game
        let wanted = expected(selection)
        let result = game.claim(selection, by: player)
        if case .failure(let error) = result { require(!error.description.isEmpty, "\(error) has no text") }
        let what = ClaimDescription(
            selection: selection, revision: before.revision, mode: mode, seed: before.seed)
        switch (wanted, result) {
        case (.success(let cards), .success(let taken)):
            scores[player, default: 0] += 1
            require(taken.cards == cards && taken.player == player, "\(what) took \(taken.cards)")
            require(taken.revision == game.revision && game.revision > before.revision, "\(what): revision")
            require(
                game.takenSets.count == before.takenSets.count + 1 && game.takenSets.last == taken
                    && game.takenSets.dropLast().elementsEqual(before.takenSets),
                "\(what): the taken sets")
            require(game.wrongClaims == before.wrongClaims, "\(what) counted as wrong")
            checkBoard(after: cards, before: before, what)
        case (.notSet, .failure(.notSet(let why))):
            scores[player, default: 0] -= game.options.wrongClaimPenalty
            require(!why.isEmpty, "\(what): no reason")
            requireUnchanged(before, what, wrongClaims: before.wrongClaims + 1)
        case (.stale, .failure(.stale(let why))), (.malformed, .failure(.malformed(let why))):
            require(!why.isEmpty, "\(what): no reason")
            requireUnchanged(before, what, wrongClaims: before.wrongClaims)
        case (.gameOver, .failure(.gameOver)):
            requireUnchanged(before, what, wrongClaims: before.wrongClaims)
        default:
            require(false, "\(what): expected \(wanted), got \(result)")
        }
        check()
    }

    /// The board after an accepted claim is the documented one, position by position: holes refilled,
    /// then closed, then three cards at a time appended only while no claim is possible.
    func checkBoard(after cards: [Card], before: SetGame, _ what: ClaimDescription) {
        // (`deck` makes a new array each time it is read: read once.)
        let deckBefore = before.deck
        let (expected, used) = SetReference.boardAfterTaking(cards, from: before.board, deck: deckBefore)
        let board = game.board
        let extra = board.count - expected.count
        require(extra >= 0 && Array(board.prefix(expected.count)) == expected, "\(what): positions moved")
        let next = deckBefore.dropFirst(used)
        require(Array(board.suffix(extra)) == Array(next.prefix(extra)), "\(what) dealt out of order")
        require(game.deck == Array(next.dropFirst(extra)), "\(what) changed the deck")
        require(extra % 3 == 0 || game.deckCount == 0, "\(what) dealt \(extra) cards")
        // One revision for taking the set, one for each deal.
        let deals = (extra + 2) / 3
        require(game.revision == before.revision + 1 + deals, "\(what): revision \(game.revision)")
        if mode == .chain {
            if let chain = game.chainCards {
                require(chain == cards, "\(what): the chain is \(chain)")
            } else {
                // The chain breaks only when no chained set is possible and no more cards can help.
                require(
                    game.deckCount == 0 || board.count >= SetGame.maximumBoardSize, "\(what) broke the chain")
                let chained = SetReference.allClaims(board: board, mode: .chain, chain: cards)
                require(chained.isEmpty, "\(what) broke the chain with a chained set on the board")
            }
        } else if deals > 0 {
            // Cards are dealt only while they are needed: before the last deal there was no claim.
            let lastDeal = extra - 3 * (deals - 1)
            let earlier = SetReference.allClaims(
                board: Array(board.dropLast(lastDeal)), mode: mode, chain: nil)
            require(earlier.isEmpty, "\(what) dealt \(extra) cards though a claim was on the board")
        }
    }

    func requireUnchanged(_ before: SetGame, _ what: ClaimDescription, wrongClaims: Int) {
        require(game.board == before.board && game.deck == before.deck, "\(what) changed the cards")
        require(game.revision == before.revision, "\(what) changed the revision")
        require(game.takenSets == before.takenSets, "\(what) changed the taken sets")
        require(game.chainCards == before.chainCards, "\(what) changed the chain")
        require(game.wrongClaims == wrongClaims, "\(what): \(game.wrongClaims) wrong claims")
    }

    /// The invariants of every game state. The cards are checked again only when the revision moved: a
    /// refused claim was already checked to leave them as they were.
    mutating func check() {
        if claimsRevision != game.revision { checkCards() }
        checkScores()
    }

    mutating func checkCards() {
        let board = game.board
        let deck = game.deck
        // (In chain mode a card is in two taken sets: the next set reuses one card of the last.)
        let taken = game.takenSets.flatMap(\.cards)
        // The cards as sets of card indices, so that no card is counted twice or lost.
        let (onBoard, inDeck, out) = (CardBits(board), CardBits(deck), CardBits(taken))
        require(onBoard.count == board.count, "a card twice on the board: \(board)")
        require(deck.count == game.deckCount && inDeck.count == deck.count, "the deck: \(deck)")
        require(
            onBoard.isDisjoint(with: inDeck) && out.isDisjoint(with: onBoard) && out.isDisjoint(with: inDeck),
            "a card is in two places")
        require(onBoard.union(inDeck).union(out) == CardBits(mode.cards), "cards went missing or appeared")
        require(game.takenSets.allSatisfy { $0.cards.count == needed }, "a taken set of the wrong size")

        // The board never needs more positions than a…z, and each mode stays within its documented size.
        let largest: Int
        switch mode {
        case .normal, .junior: largest = SetGame.maximumBoardSize
        case .chain: largest = SetGame.maximumBoardSize + 2
        case .ultra: largest = SetGame.boardSize + 3  // an Ultra-free board has at most 12 cards
        // The later modes are not fuzzed yet (the mode is one of the first four), but keep their limits.
        default: largest = mode.maximumBoardSize
        }
        require(board.count <= largest && board.count <= 26, "\(board.count) cards on a \(mode) board")
        if game.deckCount > 0 {
            require(board.count >= SetGame.boardSize, "\(board.count) cards while the deck has cards")
        }

        // Brute force once per process for each board: many inputs deal the same boards.
        let chain = game.chainCards
        let modeByte = UInt8(SetMode.allCases.firstIndex(of: mode) ?? 0)
        // (Built in one array: joining arrays made one per part, after every claim that moved the board.)
        var boardKey: [UInt8] = []
        boardKey.reserveCapacity(2 + (chain?.count ?? 0) + board.count)
        boardKey.append(modeByte)
        boardKey.append(UInt8(chain?.count ?? 0))
        for card in chain ?? [] { boardKey.append(UInt8(card.index)) }
        for card in board { boardKey.append(UInt8(card.index)) }
        claims = Self.boardClaims.value(for: boardKey[...]) { _ in
            SetReference.allClaims(board: board, mode: mode, chain: chain).sorted {
                ($0.high, $0.low) < ($1.high, $1.low)
            }
        }
        claimsRevision = game.revision
        if game.deckCount > 0 {
            require(!claims.isEmpty, "no claim while the deck has \(game.deckCount) cards")
        }
        if mode == .chain, let chain = game.chainCards {
            require(chain == game.takenSets.last?.cards, "the chain is not the last set")
        } else {
            require(game.chainCards == nil, "a chain outside chain mode")
        }
        if checksQueries { checkQueries() }
    }

    /// The game's own answers about claims agree with brute force: the possible claims, whether there is
    /// one, the hint, and whether the game is over.
    func checkQueries() {
        let possible = game.possibleClaims
        require(
            possible.count == claims.count && Set(possible.map(SetReference.key)) == Set(claims),
            "possibleClaims \(possible) are not the \(claims.count) valid claims")
        require(possible.allSatisfy { $0.count == needed }, "a possible claim of the wrong size")
        require(game.hasClaim == !claims.isEmpty, "hasClaim is \(game.hasClaim) with \(claims.count) claims")
        if let hint = game.hint {
            require(possible.contains { $0.contains(hint) }, "hint \(hint) is in no claim")
        } else {
            require(claims.isEmpty, "no hint though there are claims")
        }
        require(game.isOver == (game.deckCount == 0 && claims.isEmpty), "isOver is \(game.isOver)")
    }

    func checkScores() {
        // Every point is a set taken or a penalty paid.
        for player in players {
            require(game.score(of: player) == scores[player, default: 0], "the score of \(player)")
        }
        let total = game.scores.values.reduce(0, +)
        require(
            total == game.takenSets.count - game.wrongClaims * game.options.wrongClaimPenalty,
            "scores add up to \(total)")
    }
}

// MARK: - Matchismo

struct MatchismoFuzzer {
    var game: MatchismoGame
    let names = ["ann", "bob", "cy", "dee"]
    // The turn order and presence as the rules say they must be.
    var players: [String] = []
    var absent: Set<String> = []
    var turn: String?
    var scores: [String: Int] = [:]
    /// The choices as the game returned them, in order: its history must be exactly these.
    var history: [MatchismoGame.Choice] = []
    var operations = 0
    /// Whether the game's `isOver` is checked after every operation, not only at the end.
    let checksQueries: Bool

    init(matchCount: Int, seed: UInt64, checksQueries: Bool) {
        game = MatchismoGame(matchCount: matchCount, seed: seed)
        self.checksQueries = checksQueries
        check()
    }

    /// The states after the operations of earlier inputs.
    nonisolated(unsafe) static var states = PrefixCache<MatchismoFuzzer>()

    /// Remembers this state, after every fourth operation, as the one after the bytes `input` read,
    /// unless it read past their end. (Every fourth: a quarter of the states to keep and free, for at
    /// most three operations more to run again.)
    func remember(_ input: FuzzInput, _ prefixes: InputPrefixes) {
        if !input.hasReadPastEnd, operations % 4 == 0 {
            Self.states.remember(self, after: input.offset, of: prefixes)
        }
    }

    mutating func run(_ input: inout FuzzInput, _ prefixes: InputPrefixes) {
        while !input.isAtEnd, operations < 600 {
            operations += 1
            let name = names[input.number(below: names.count)]
            switch input.byte() % 8 {
            case 0:
                let position = input.flag() ? input.signed() : input.number(below: 32)
                let seen: Int? = input.flag() ? game.revision - input.number(below: 2) : nil
                choose(position, by: name, seen: seen)
            case 1, 2:
                // The player whose turn it is turns a card, preferring one that matches a face-up card.
                let up = game.slots.filter { $0.isFaceUp && !$0.isMatched }.map(\.card)
                let open = game.slots.indices.filter { !game.slots[$0].isMatched }
                guard !open.isEmpty else { break }
                let matching = open.filter { i in
                    !game.slots[i].isFaceUp
                        && up.contains {
                            $0.rank == game.slots[i].card.rank || $0.suit == game.slots[i].card.suit
                        }
                }
                let pool = matching.isEmpty || input.flag() ? open : matching
                choose(pool[input.number(below: pool.count)], by: turn ?? name, seen: game.revision)
            case 3:
                game.addPlayer(name)
                if !players.contains(name) { players.append(name) }
                absent.remove(name)
                if turn == nil { turn = name }
            case 4:
                // A player drops, comes back, or leaves the room (or their grace runs out).
                let change = input.number(below: 3)
                switch change {
                case 0: game.setPresent(name, false)
                case 1: game.setPresent(name, true)
                default: game.removeFromTurn(name)
                }
                guard players.contains(name) else { break }
                if change == 1 {
                    // A player who comes back takes the turn only when it is nobody's.
                    absent.remove(name)
                    if turn == nil { turn = name }
                } else {
                    absent.insert(name)
                    // A player who goes away with the turn keeps it when nobody else is present (so a
                    // restart, which finds everyone away, gives it back to them); one who leaves passes it.
                    let nobodyElsePresent = players.allSatisfy(absent.contains)
                    if turn == name, change == 2 || !nobodyElsePresent { passTurn() }
                }
            case 5:
                game.passTurn()
                passTurn()
            case 6:
                setMatchCount(input.signed())
            default:
                checkCode(String(decoding: input.bytes(upTo: 4), as: UTF8.self))
            }
            check()
            remember(input, prefixes)
        }
    }

    /// The next present player after the current one (the current one last), or the first present one.
    mutating func passTurn() {
        guard let current = turn, let at = players.firstIndex(of: current) else {
            turn = players.first { !absent.contains($0) }
            return
        }
        turn = (players[(at + 1)...] + players[...at]).first { !absent.contains($0) }
    }

    mutating func setMatchCount(_ n: Int) {
        let before = game.matchCount
        var refusal: MatchismoError?
        do { try game.setMatchCount(n) } catch { refusal = error }
        if game.hasStarted {
            require(refusal == .modeLocked(before) && game.matchCount == before, "set n=\(n) mid-game")
        } else if n < 2 || n > MatchismoGame.boardSize {
            require(refusal == .badMatchCount(n) && game.matchCount == before, "set n=\(n)")
        } else {
            require(refusal == nil && game.matchCount == n, "set n=\(n) before the first choice")
        }
    }

    func checkCode(_ typed: String) {
        guard let card = PlayingCard(code: typed) else { return }
        require(PlayingCard(code: card.code) == card, "\(card.code) does not round-trip")
        require(typed.uppercased() == card.code, "\(typed.debugDescription) parsed as \(card.code)")
    }

    var referenceIsOver: Bool { MatchismoReference.isOver(slots: game.slots, matchCount: game.matchCount) }

    mutating func choose(_ position: Int, by player: String, seen: Int?) {
        let before = game
        let n = game.matchCount
        let what = ChoiceDescription(
            player: player, position: position, seen: seen, revision: before.revision)
        let refusal: MatchismoError?
        if referenceIsOver {
            refusal = .gameOver
        } else if !players.contains(player) {
            refusal = .notPlaying
        } else if turn != player {
            refusal = .notYourTurn(turn)
        } else if let seen, seen != before.revision {
            refusal = .stale(seen, before.revision)
        } else if !before.slots.indices.contains(position) {
            refusal = .noSuchPosition(position)
        } else if before.slots[position].isMatched {
            refusal = .alreadyMatched(before.slots[position].card)
        } else {
            refusal = nil
        }
        let result = game.choose(position, by: player, seenRevision: seen)
        if case .failure(let error) = result { require(!error.description.isEmpty, "\(error) has no text") }
        if let refusal {
            require(result == .failure(refusal), "\(what): expected \(refusal), got \(result)")
            require(
                game.slots == before.slots && game.revision == before.revision, "\(what) changed the board")
            require(
                game.history.count == history.count && game.history.last == history.last,
                "\(what) changed the history")
            return
        }
        guard case .success(let choice) = result else {
            require(false, "\(what) was refused: \(result)")
            return
        }
        require(game.revision == before.revision + 1, "\(what): revision \(game.revision)")
        history.append(choice)
        require(
            game.history.count == history.count && game.history.last == choice && choice.player == player,
            "\(what): history")
        var slots = before.slots
        var points = -MatchismoGame.costToChoose * n
        if slots[position].isFaceUp {
            slots[position].isFaceUp = false
            require(choice.scored.isEmpty, "\(what): turning a card down scored")
        } else {
            slots[position].isFaceUp = true
            let up = slots.indices.filter { slots[$0].isFaceUp && !slots[$0].isMatched }
            if up.count == n {
                let cards = up.map { slots[$0].card }
                require(Set(choice.scored) == Set(cards) && choice.scored.count == n, "\(what): scored")
                require(choice.scored.last == slots[position].card, "\(what): the chosen card is not last")
                let total = MatchismoReference.score(cards)
                require(MatchismoGame.matchScore(cards) == total, "matchScore of \(cards)")
                require(choice.isMatch == (total > 0), "\(what): isMatch")
                if total > 0 {
                    points += total * MatchismoGame.matchBonus * n
                    for i in up { slots[i].isMatched = true }
                } else {
                    points -= MatchismoGame.mismatchPenalty * n
                    for i in up where i != position { slots[i].isFaceUp = false }
                    passTurn()
                }
            } else {
                require(choice.scored.isEmpty, "\(what): scored \(up.count) of \(n) cards")
            }
        }
        require(game.slots == slots, "\(what): the board is not as the rules say")
        require(choice.points == points, "\(what): \(choice.points) points, not \(points)")
        scores[player, default: 0] += points
    }

    /// The invariants of every state. The history is compared by its length and last entry here, and
    /// entry by entry at the end (`checkQueries`): comparing it all after every choice made long inputs
    /// quadratic.
    func check() {
        let slots = game.slots
        require(slots.count == MatchismoGame.boardSize, "\(slots.count) slots")
        let distinct = slots.reduce(UInt64(0)) { $0 | 1 << UInt64($1.card.rank * 4 + $1.card.suit.rawValue) }
        require(distinct.nonzeroBitCount == slots.count, "a card twice on the board")
        require(game.deckCount == 52 - MatchismoGame.boardSize, "deckCount \(game.deckCount)")
        require(slots.allSatisfy { !$0.isMatched || $0.isFaceUp }, "a matched card face down")
        // (Counted, not filtered into arrays: this runs after every operation.)
        let up = slots.count(where: { $0.isFaceUp && !$0.isMatched })
        require(up < game.matchCount, "\(up) cards up with n = \(game.matchCount)")
        let matched = slots.count(where: \.isMatched)
        require(matched % game.matchCount == 0, "\(matched) cards matched with n = \(game.matchCount)")
        require(game.revision == 1 + game.history.count, "revision \(game.revision)")
        require(game.hasStarted == !game.history.isEmpty, "hasStarted")
        if checksQueries { checkIsOver() }
        require(game.players == players, "players \(game.players), not \(players)")
        require(game.turn == turn, "turn \(game.turn ?? "-"), not \(turn ?? "-")")
        // The turn is a player's; it is nobody's only when nobody is present. (An away player may hold it:
        // the last one to go away keeps it until they come back, leave, or their grace runs out.)
        if let turn { require(players.contains(turn), "the turn is \(turn)'s") }
        require(turn != nil || players.allSatisfy(absent.contains), "nobody has the turn")
        for name in names {
            require(game.score(of: name) == scores[name, default: 0], "the score of \(name)")
        }
        let total = game.scores.values.reduce(0, +)
        require(total == scores.values.reduce(0, +), "scores add up to \(total)")
    }

    /// The game's `isOver` agrees with the rules.
    func checkIsOver() {
        require(game.isOver == referenceIsOver, "isOver is \(game.isOver)")
    }

    /// What is checked once per input: `isOver` (after every operation in sampled inputs) and the whole
    /// history.
    func checkQueries() {
        checkIsOver()
        require(game.history == history, "the history is not the choices made")
    }
}
