import SetGame
import SetProtocol
import SetTestSupport
import Testing

/// Rooms of every SET mode, played by the line protocol as from `nc`; the embedded server replays its
/// journal after every input and compares it with live play, so each of these games is also a restore
/// check at every step.
@Suite struct LaterModeRoomTests {
    /// Each mode's room is made by `JOIN`, shows the mode's cards, and is played to `OVER` by lines.
    @Test(arguments: SetMode.allCases) func everyModeIsPlayedToTheEnd(mode: SetMode) throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "r", options: "mode=\(mode.rawValue)")
        #expect(join.lines.contains("OPTIONS mode=\(mode.rawValue) penalty=1 hints=on"), "\(join)")
        let board = try #require(join.lines.first { $0.hasPrefix("BOARD ") })
        let codes = board.split(separator: " ").dropFirst(2).map { $0.split(separator: ":")[1] }
        #expect(codes.count >= mode.boardSize && (codes.count - mode.boardSize) % 3 == 0, "\(board)")
        if mode.dealsFaceDown {
            #expect(codes.allSatisfy { $0 == "??" }, "memory deals face down: \(board)")
        } else {
            let cards = try codes.map { try Card(anyCode: $0) }
            #expect(cards.allSatisfy(mode.cards.contains), "\(mode) deals its own deck: \(board)")
        }
        #expect(join.lines.contains { $0.hasPrefix("CHAIN ") } == (mode.chainReuse != nil), "\(join)")
        #expect(join.lines.contains { $0.hasPrefix("FOUND 0 ") } == mode.isPuzzle, "\(join)")
        let play = try ann.playMode(from: join.lines)
        #expect(play.last.lines.contains { $0.hasPrefix("OVER ann:") }, "\(play.last)")
        // The game ended the one way an untimed game ends: the deck is empty and no claim is left.
        #expect(play.view.deckCount == 0, "\(mode) ends with an empty deck, not \(play.view.deckCount)")
        #expect(play.sets >= 5, "\(mode): \(play.sets) claims taken")
        let state = try ann.request("STATE")
        #expect(state.lines.contains { $0.hasPrefix("ROOM r set 1 over") }, "\(state)")
        // The finished game counts in the mode's own rating.
        let stats = try ann.request("STATS")
        #expect(stats.lines.contains { $0.hasPrefix("RATING ann \(mode.rawValue) ") }, "\(stats)")
        #expect(try ann.request("TOP \(mode.rawValue)").lines.first?.hasPrefix("TOP 1 ann ") == true)
    }

    /// A restart in the middle of a game of each mode restores it exactly: the snapshot a returning
    /// player reads is the one they left, and the game goes on to its end.
    @Test(arguments: SetMode.allCases) func aRestartInTheMiddleRestoresTheGame(mode: SetMode) throws {
        let server = EmbeddedServer()
        let (ann, join) = try server.player("ann", room: "r", options: "mode=\(mode.rawValue)")
        // Five claims in (memory's misses among them), then the server restarts from its journal.
        let play = try ann.playMode(from: join.lines, stoppingAfter: 5)
        #expect(play.view.status == .playing)
        let before = try ann.request("STATE").lines
        let restarted = try server.restarted(after: 5)
        defer { restarted.stop() }
        let watcher = try restarted.connect("eve")
        let watched = try watcher.request("WATCH r")
        let shown = { (lines: [String]) in lines.filter { !$0.hasPrefix("PLAYER ") } }
        #expect(shown(watched.lines) == shown(before), "\(mode)")
    }

    @Test func everyModeMakesRoomsByJoinAndNew() throws {
        #expect(SetMode.offered == SetMode.allCases)
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, _) = try server.player("ann", room: "home")
        for mode in SetMode.allCases {
            let new = try ann.request("NEW mode=\(mode.rawValue)")
            #expect(new.final == "OK NEW started", "\(mode): \(new)")
            #expect(new.lines.contains("OPTIONS mode=\(mode.rawValue) penalty=1 hints=on"), "\(new)")
        }
        let bad = try ann.request("JOIN other mode=tetris")
        #expect(
            bad.final.hasPrefix(
                "ERR JOIN BADOPTION mode=tetris: mode is normal, junior, chain, ultra, ultrachain,"))
        #expect(bad.final.hasSuffix("puzzle, shuffle, memory"), "\(bad)")
    }

    /// Memory: every card face down, claims by position only, a miss shows the three cards to everyone
    /// and leaves the board (and its revision) as it was.
    @Test func memoryDealsFaceDownAndAMissShowsTheCards() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "m", options: "mode=memory")
        let (bob, _) = try server.player("bob", room: "m")
        let board = try #require(join.lines.first { $0.hasPrefix("BOARD ") })
        #expect(board.split(separator: " ").dropFirst(2).allSatisfy { $0.hasSuffix(":??") }, "\(board)")
        #expect(board.split(separator: " ").count == 2 + 21)
        let hint = try ann.request("HINT")
        let hinted = try #require(hint.lines.first { $0.hasPrefix("HINT ") }, "\(hint)")
        #expect(hinted.hasSuffix(":??"), "a hint keeps the card's secret: \(hint)")
        let byCode = try ann.request("CHOOSE 1RFS 2GHT 3PEC")
        #expect(byCode.error == .args, "\(byCode)")
        var view = GameView(lines: join.lines)
        var miss: Reply?
        for first in 0..<19 where miss == nil {
            let positions = (first..<first + 3).map(BoardView.position).joined(separator: " ")
            let reply = try ann.request("CHOOSE \(positions) @\(view.revision)")
            for line in reply.lines { view.apply(text: line) }
            if reply.error == .notSet { miss = reply }
        }
        let missed = try #require(miss)
        let revision = view.revision
        #expect(missed.final.hasPrefix("ERR CHOOSE NOTSET turned over "), "\(missed)")
        #expect(!missed.lines.contains { $0.hasPrefix("BOARD ") }, "a miss changes no board: \(missed)")
        let seen = try bob.expect(prefix: "WRONG ann 1 ").line
        let shown = missed.final.split(separator: " ").dropFirst(5).prefix(3).map { String($0.prefix(4)) }
        #expect(
            seen.hasPrefix("WRONG ann 1 \(shown.joined(separator: " ")) : "),
            "everyone sees the cards: \(seen)")
        let state = try ann.request("STATE")
        #expect(state.lines.contains { $0.hasPrefix("BOARD \(revision) ") }, "\(state)")
    }

    /// Puzzle: a set found stays on the board, shows in `FOUND`, and found again is `STALE` at no cost.
    @Test func puzzleShowsFoundSetsAndRefusesThemTwice() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "p", options: "mode=puzzle")
        let board = try #require(BoardView.last(in: join.lines))
        let sets = board.sets
        #expect(join.lines.contains("FOUND 0 \(sets.count)"), "\(join)")
        let first = sets[0]
        let reply = try ann.request(board.claim(first))
        #expect(reply.isOK("CHOOSE"), "\(reply)")
        if sets.count > 1 {
            #expect(BoardView.last(in: reply.lines) == board, "the board stays, revision and all: \(reply)")
            let found = "FOUND 1 \(sets.count) " + board.codes(first).joined(separator: ",")
            #expect(reply.lines.contains(found), "\(reply)")
            #expect(try ann.request("STATE").lines.contains(found))
            let again = try ann.request(board.claim(first))
            #expect(again.error == .stale, "\(again)")
            #expect(again.final.contains("already found"))
            #expect(try ann.request("STATE").lines.contains("PLAYER ann 1 online"), "stale costs nothing")
        }
    }

    /// Shuffle: every set deals a new revision with the cards in new places, so positions seen before
    /// are `STALE`.
    @Test func shuffleMovesTheCardsAfterASet() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "s", options: "mode=shuffle")
        let board = try #require(BoardView.last(in: join.lines))
        let reply = try ann.request(board.claim(board.sets[0]))
        let after = try #require(BoardView.last(in: reply.lines))
        #expect(after.revision > board.revision)
        let kept = board.cards.indices.filter { !board.sets[0].contains($0) }
        let moved = kept.filter { after.cards.indices.contains($0) && after.cards[$0] != board.cards[$0] }
        #expect(!moved.isEmpty, "the cards changed places: \(board.cards) → \(after.cards)")
        let old = try ann.request(board.claim(board.sets.last!))
        #expect(old.error == .stale || board.sets.count == 1, "\(old)")
    }

    /// MegaSet's and 4Set's codes: a card of another deck named in a room is `ARGS`, not `STALE`.
    @Test func aCardOfAnotherDeckIsNoCard() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, _) = try server.player("ann", room: "mega", options: "mode=megaset")
        #expect(try ann.request("CHOOSE 4BDX 1RFS 2RFS").error == .args)
        let (bob, _) = try server.player("bob", room: "four", options: "mode=4set")
        #expect(try bob.request("CHOOSE 1RFSW 1RFS 2RFS 3RFS").error == .args)
        let (cy, _) = try server.player("cy", room: "classic")
        #expect(try cy.request("CHOOSE 4BDX 1RFS 2RFS").error == .args)
    }

    /// Ultrachain: the `CHAIN` line holds the last UltraSet's four cards.
    @Test func ultrachainShowsTheChain() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "u", options: "mode=ultrachain")
        #expect(join.lines.contains("CHAIN -"))
        let board = try #require(BoardView.last(in: join.lines))
        let quad = try #require(SetRules.allUltraSets(in: board.cards).first)
        let reply = try ann.request(board.claim(quad))
        #expect(reply.lines.contains("CHAIN " + board.codes(quad).joined(separator: " ")), "\(reply)")
    }
}
