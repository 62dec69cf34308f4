import SetGame
import SetProtocol
import SetTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Deals and plays every mode many times: how often a deal has no claim, how long a game lasts, and the
/// promises of the rules checked on every deal and board (a claim while the deck has cards, boards within
/// the mode's largest, and on a sample of boards the claims counted by brute force in `ModeReference`).
///
///     modes-sim [--deals 1000000] [--games 100000] [--modes normal,ultra9,...] [--check-every 97]
///     modes-sim --largest-claim-free set,ultra,ghost,4setjr,4set
///
/// `--by-round normal,...` adds, for those modes, how often a board of the dealt size has no claim by
/// round of play (the number of claims made before it), as Warne tabulates it for normal SET, and how
/// often three cards more (15 in normal SET) hold no claim either: on a first deal, and in play.
/// Games are played by claiming one of the possible claims chosen uniformly at random (always taking the
/// first one found biases the boards left, as Warne points out). Exits with status 1 if a promise fails.
enum ModesSimulation {
    /// What one mode did.
    struct Figures {
        var deals = 0
        var dealsWithoutClaim = 0
        var claimsInFirstDeals = 0
        var games = 0
        var rounds = 0
        var roundsWithoutClaim = 0
        var sets = 0
        var fewestSets = Int.max
        var mostSets = 0
        var cardsLeft = 0
        var gamesEmptied = 0
        var chainBreaks = 0
        var largestBoard = 0
        var checkedBoards = 0
        var failures: [String] = []
        /// By round (the number of claims made before): boards of the dealt size met, and those without a
        /// claim. Round 0 is the first deal.
        var byRound: [(boards: Int, withoutClaim: Int)] = []
        /// First deals whose dealt size and three more held no claim (a board past the dealt size + 3): the
        /// first cards of a shuffled deck are random cards, so this is how often that many hold none.
        var dealsWithoutClaimThreeMore = 0
        /// In play, boards of the dealt size + 3 (dealt because the refilled board held no claim, with
        /// cards left to deal three more), and those that held none either: Warne's "15 cards in a game".
        var roundsThreeMore = 0
        var roundsThreeMoreWithoutClaim = 0

        mutating func noteRound(_ round: Int, withoutClaim: Bool) {
            while byRound.count <= round { byRound.append((0, 0)) }
            byRound[round].boards += 1
            if withoutClaim { byRound[round].withoutClaim += 1 }
        }
    }

    static func main(_ arguments: [String]) {
        var deals = 1_000_000
        var games = 100_000
        var modes = SetMode.allCases
        var checkEvery = 97
        var byRound: [SetMode] = []
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            if flag == "--version" {
                print(Release.banner("modes-sim"))
                return
            }
            if flag == "--largest-claim-free" {
                largestClaimFree(rest.popFirst() ?? "set,ultra,ghost,4setjr")
                return
            }
            let value = rest.popFirst() ?? ""
            switch (flag, Int(value)) {
            case ("--deals", let n?): deals = n
            case ("--games", let n?): games = n
            case ("--check-every", let n?) where n > 0: checkEvery = n
            case ("--modes", _):
                modes = value.split(separator: ",").compactMap { SetMode(rawValue: String($0)) }
            case ("--by-round", _):
                byRound = value.split(separator: ",").compactMap { SetMode(rawValue: String($0)) }
            default:
                print(
                    "usage: modes-sim [--deals N] [--games N] [--modes normal,ultra9,...] [--check-every N]"
                        + " [--by-round normal,...] | --largest-claim-free set,ultra,ghost,4setjr,4set")
                exit(2)
            }
        }
        print(
            "| mode | dealt | deals | first deal without a claim | claims in a first deal | games |"
                + " boards without a claim in play | sets per game | cards left | games ending empty |"
                + " largest board | boards checked by brute force |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        var failed = false
        var roundTables: [String] = []
        for mode in modes {
            var figures = Figures()
            deal(mode, count: deals, checkEvery: checkEvery, into: &figures)
            play(mode, count: games, checkEvery: checkEvery, into: &figures)
            print(row(mode, figures))
            if byRound.contains(mode) { roundTables.append(roundTable(mode, figures)) }
            fflush(nil)  // each row as soon as it is known: a whole run takes minutes
            for failure in figures.failures.prefix(10) {
                print("FAILED \(mode): \(failure)")
                failed = true
            }
        }
        for table in roundTables { print("\n" + table) }
        exit(failed ? 1 : 0)
    }

    /// How often a board of the dealt size has no claim, by round of play, as a table.
    static func roundTable(_ mode: SetMode, _ f: Figures) -> String {
        var lines = [
            "| \(mode.rawValue): round (claims made before) | boards | without a claim | odds against none |",
            "|---|---|---|---|",
        ]
        func odds(_ part: Int, _ whole: Int) -> String {
            guard whole > 0 else { return "–" }
            let share = Double(part) / Double(whole)
            return format(100 * share, 2) + " % (" + (part > 0 ? format((1 - share) / share, 1) + ":1" : "–")
                + ")"
        }
        for (round, counts) in f.byRound.enumerated() where counts.boards >= 1_000 {
            let share = Double(counts.withoutClaim) / Double(counts.boards)
            let odds = counts.withoutClaim > 0 ? format((1 - share) / share, 1) + ":1" : "–"
            lines.append("| \(round) | \(counts.boards) | \(format(100 * share, 2)) % | \(odds) |")
        }
        let more = mode.boardSize + 3
        lines.append("")
        lines.append(
            "\(mode.rawValue): \(more) cards of a first deal without a claim: \(f.dealsWithoutClaimThreeMore) of"
                + " \(f.deals), \(odds(f.dealsWithoutClaimThreeMore, f.deals)); \(more)-card boards in play without"
                + " a claim: \(f.roundsThreeMoreWithoutClaim) of \(f.roundsThreeMore),"
                + " \(odds(f.roundsThreeMoreWithoutClaim, f.roundsThreeMore))")
        return lines.joined(separator: "\n")
    }

    /// Prints the largest collections without a claim of each kind named (`set`, `ultra`, `ghost`,
    /// `4setjr`, `4set`; `4set` takes a few minutes, the others seconds).
    static func largestClaimFree(_ kinds: String) {
        for kind in kinds.split(separator: ",") {
            let found: [Int]
            switch kind {
            case "set": found = ClaimFreeSearch.largest(base: 3, digits: 4, claimSize: 3)
            case "ultra": found = ClaimFreeSearch.largest(base: 3, digits: 4, claimSize: 4, isUltra: true)
            case "ghost": found = ClaimFreeSearch.largest(base: 3, digits: 4, claimSize: 6)
            case "4setjr": found = ClaimFreeSearch.largest(base: 2, digits: 6, claimSize: 4)
            case "4set": found = ClaimFreeSearch.largest(base: 2, digits: 8, claimSize: 4)
            default:
                print("kinds: set, ultra, ghost, 4setjr, 4set")
                exit(2)
            }
            print("\(kind): \(found.count) cards without a claim at most, e.g. vectors \(found)")
            fflush(nil)
        }
    }

    /// Deals `count` games and looks at the first board: whether the mode's number of cards held a claim
    /// (if not, the game dealt more), and that the board it shows holds one.
    static func deal(_ mode: SetMode, count: Int, checkEvery: Int, into figures: inout Figures) {
        for seed in 0..<UInt64(count) {
            let game = SetGame(options: SetGame.Options(mode: mode), seed: seed &+ 0x5E7_0000_0000)
            figures.deals += 1
            if game.board.count > mode.boardSize { figures.dealsWithoutClaim += 1 }
            if game.board.count > mode.boardSize + 3 { figures.dealsWithoutClaimThreeMore += 1 }
            let claims = game.possibleClaims.count
            figures.claimsInFirstDeals += claims
            if claims == 0 { figures.failures.append("seed \(seed): a first deal without a claim") }
            if seed % UInt64(checkEvery) == 0 { check(game, into: &figures) }
        }
    }

    /// Plays `count` games to the end.
    static func play(_ mode: SetMode, count: Int, checkEvery: Int, into figures: inout Figures) {
        var boards = 0
        for seed in 0..<UInt64(count) {
            var game = SetGame(options: SetGame.Options(mode: mode), seed: seed)
            var chooser = SeededGenerator(seed: ~seed)
            var sets = 0
            // The first deal is round 0.
            figures.noteRound(0, withoutClaim: game.board.count > mode.boardSize)
            while true {
                boards += 1
                figures.largestBoard = max(figures.largestBoard, game.board.count)
                if game.board.count > mode.maximumBoardSize {
                    figures.failures.append("seed \(seed): \(game.board.count) cards on the board")
                }
                if game.deckCount > 0, !game.hasClaim {
                    figures.failures.append(
                        "seed \(seed): no claim while the deck has \(game.deckCount) cards")
                }
                if boards % checkEvery == 0 { check(game, into: &figures) }
                let claims = game.possibleClaims
                guard !claims.isEmpty else { break }
                let claim = claims[chooser.next(below: claims.count)]
                let (revision, hadChain) = (game.revision, game.chainCards != nil)
                let before = game
                let selection: Selection =
                    mode.dealsFaceDown
                    ? .positions(claim.map { game.board.firstIndex(of: $0)! }, seenRevision: revision)
                    : .cards(claim)
                guard case .success = game.claim(selection, by: "p") else {
                    figures.failures.append("seed \(seed): a possible claim was refused")
                    break
                }
                sets += 1
                if hadChain, game.chainCards == nil { figures.chainBreaks += 1 }
                noteRound(before: before, after: game, claim: claim, round: sets, into: &figures)
            }
            if !game.isOver { figures.failures.append("seed \(seed): no claim, yet the game is not over") }
            figures.games += 1
            figures.sets += sets
            figures.fewestSets = min(figures.fewestSets, sets)
            figures.mostSets = max(figures.mostSets, sets)
            figures.cardsLeft += game.board.count
            if game.board.isEmpty { figures.gamesEmptied += 1 }
        }
    }

    /// Counts the board a claim left, refilled to the mode's dealt size with cards still in the deck (a
    /// round, as Warne counts them), and whether it held a claim: the game dealt more (one revision a deal,
    /// after the claim's own) when it did not. The refill is worked out as the rules say: the claimed board
    /// cards' places are refilled from the deck up to the dealt size; in puzzle, a board that moved on is
    /// dealt afresh, and a claim that leaves the board as it was makes no round.
    static func noteRound(
        before: SetGame, after: SetGame, claim: [Card], round: Int, into figures: inout Figures
    ) {
        let changes = after.revision - before.revision
        guard changes > 0 else { return }
        let dealt = before.options.mode.boardSize
        let left: Int
        if before.options.mode.isPuzzle {
            left = 0
        } else {
            left = before.board.count - claim.filter(before.board.contains).count
        }
        let refill = max(0, min(dealt - left, before.deckCount, before.board.count - left))
        let refilled = before.options.mode.isPuzzle ? min(dealt, before.deckCount) : left + refill
        guard refilled == dealt, before.deckCount > refill else { return }
        let withoutClaim = changes > 1
        // Three more were dealt; with three more still in the deck, one more revision says they held none.
        if withoutClaim, before.deckCount - refill >= 6, !before.options.mode.isPuzzle {
            figures.roundsThreeMore += 1
            if changes > 2 { figures.roundsThreeMoreWithoutClaim += 1 }
        }
        figures.rounds += 1
        if withoutClaim { figures.roundsWithoutClaim += 1 }
        figures.noteRound(round, withoutClaim: withoutClaim)
    }

    /// Counts the claims on the board by brute force, as the rules say them, and compares.
    static func check(_ game: SetGame, into figures: inout Figures) {
        figures.checkedBoards += 1
        let mode = game.options.mode
        let expected = ModeReference.allClaims(
            board: game.board, mode: mode, chain: game.chainCards, found: game.foundClaims)
        let possible = game.possibleClaims
        if possible.count != expected.count || Set(possible.map(Set.init)) != expected {
            figures.failures.append(
                "seed \(game.seed): \(possible.count) claims, brute force says \(expected.count)")
        }
    }

    /// The figures as a table row.
    static func row(_ mode: SetMode, _ f: Figures) -> String {
        func percent(_ part: Int, _ whole: Int) -> String {
            guard whole > 0 else { return "–" }
            let value = 100 * Double(part) / Double(whole)
            let odds = part > 0 ? " (1 in \(format(Double(whole) / Double(part), 1)))" : ""
            return format(value, value < 0.1 ? 4 : 2) + " %" + odds
        }
        func mean(_ total: Int, _ count: Int) -> String {
            count > 0 ? format(Double(total) / Double(count), 2) : "–"
        }
        let sets = "\(mean(f.sets, f.games)) (\(f.games > 0 ? f.fewestSets : 0)–\(f.mostSets))"
        let chain = f.chainBreaks > 0 ? "; chain broke \(mean(f.chainBreaks, f.games)) times a game" : ""
        let cells = [
            mode.rawValue, "\(mode.boardSize)", "\(f.deals)", percent(f.dealsWithoutClaim, f.deals),
            mean(f.claimsInFirstDeals, f.deals), "\(f.games)", percent(f.roundsWithoutClaim, f.rounds),
            sets + chain, mean(f.cardsLeft, f.games), percent(f.gamesEmptied, f.games), "\(f.largestBoard)",
            "\(f.checkedBoards)",
        ]
        return "| " + cells.joined(separator: " | ") + " |"
    }

    /// `value` with `decimals` places.
    static func format(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        guard decimals > 0 else { return "\(whole)" }
        var fraction = String(abs(scaled) % Int(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        return "\(whole).\(fraction)"
    }
}
