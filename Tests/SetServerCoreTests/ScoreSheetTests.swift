import Foundation
import SetGame
import SetProtocol
import SetTestSupport
import Testing

@testable import SetServerCore

/// The score sheet after `OVER` (`STATS` per player, `DURATION`), checked against a game scripted on the
/// virtual clock; and the ratings it feeds, against arithmetic done by hand.
@Suite struct ScoreSheetTests {
    /// Whole milliseconds of a wall-clock time, as the server counts them.
    private func ms(_ time: Double) -> Int { Int((time * 1000).rounded()) }

    @Test func theScoreSheetHasTheFiguresOfAScriptedGame() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "sheet", options: "start=ready")
        let (bob, _) = try server.player("bob", room: "sheet")
        _ = try ann.request("START")
        server.advance(by: 3)
        let dealtAt = ms(server.now.wall)
        var board = try #require(BoardView.last(in: ann.readAvailable()))
        _ = bob.readAvailable()
        // The observer's own record of when each card came onto the board, from the BOARD lines alone.
        var arrivals = Dictionary(uniqueKeysWithValues: board.cards.map { ($0.code, dealtAt) })
        var times: [String: [Int]] = ["ann": [], "bob": []]
        var lastClaimAt = dealtAt

        func take(_ client: EmbeddedClient, after seconds: Double) throws -> Reply {
            server.advance(by: seconds)
            let set = try #require(board.sets.first)
            let now = ms(server.now.wall)
            let reply = try client.request(board.claim(set))
            try #require(reply.isOK("CHOOSE"), "\(reply)")
            times[client.label]!.append(now - board.codes(set).map { arrivals[$0]! }.max()!)
            lastClaimAt = now
            if let next = BoardView.last(in: reply.lines) {
                for card in next.cards where arrivals[card.code] == nil { arrivals[card.code] = now }
                board = next
            }
            return reply
        }

        // Ann finds the first set 2.5 s after the deal: every card of it was dealt then.
        _ = try take(ann, after: 2.5)
        #expect(times["ann"] == [2500])
        // Bob claims three cards that are not a set; Ann repeats a claim on the dealt board, now stale.
        #expect(try bob.request(board.claim(try #require(board.nonSet))).error == .notSet)
        server.advance(by: 0.25)
        #expect(try ann.request("CHOOSE a b c @2").error == .stale)
        // Then they take turns, at times that differ from set to set, to the end of the game.
        var last: Reply?
        for i in 0..<40 {
            let reply = try take(i % 2 == 0 ? bob : ann, after: 0.2 + 0.1 * Double(i % 7))
            if reply.lines.contains(where: { $0.hasPrefix("OVER ") }) {
                last = reply
                break
            }
        }
        let end = try #require(last, "the game ended")
        let over = try #require(end.lines.firstIndex { $0.hasPrefix("OVER ") })
        let order = words(end.lines[over]).dropFirst().map { String($0.split(separator: ":")[0]) }
        func expected(_ name: String, wrong: Int, stale: Int) -> String {
            let t = times[name]!
            let mean = Int((Double(t.reduce(0, +)) / Double(t.count)).rounded())
            return
                "STATS \(name) sets=\(t.count) wrong=\(wrong) stale=\(stale) fastest=\(t.min()!) mean=\(mean)"
        }
        let sheet = order.map { expected($0, wrong: $0 == "bob" ? 1 : 0, stale: $0 == "ann" ? 1 : 0) }
        let sheetLines = end.lines[(over + 1)...].prefix { !$0.hasPrefix("STANDING") }
        #expect(Array(sheetLines) == sheet + ["DURATION \(lastClaimAt - dealtAt)"], "\(end)")
        #expect(end.lines.last?.hasPrefix("STANDING ") == true, "the night's standings come last")
        #expect(times["ann"]!.count + times["bob"]!.count >= 20 && times["bob"]!.min()! < 2500)
        _ = bob.readAvailable()

        // HISTORY keeps the sheet of the finished game, and a client's view reads it.
        let history = try bob.request("HISTORY").lines
        #expect(
            history.suffix(3) == sheet.map { "HISTORY GAME 1 " + $0 } + [
                "HISTORY GAME 1 DURATION \(lastClaimAt - dealtAt)"
            ])
        let view = GameView(lines: Array(end.lines[over...]))
        #expect(view.scoreSheet.map(\.text) == sheet && view.gameDuration == lastClaimAt - dealtAt)
    }

    @Test func aMatchismoSheetCountsMatchesAndMismatches() throws {
        let server = EmbeddedServer()
        let (ann, _) = try server.player("ann", room: "cards", options: "matchismo")
        let room = try #require(server.core.rooms["cards"])
        func slots() -> [MatchismoGame.Slot] { room.matchismoGame!.slots }
        func pairs(_ a: PlayingCard, _ b: PlayingCard) -> Bool { a.rank == b.rank || a.suit == b.suit }
        var mismatches = 0
        var matches = 0
        var end: Reply?
        func choose(_ position: Int) throws {
            server.advance(by: 0.02)  // within the rate limit
            let reply = try ann.request("CHOOSE \(SetGame.positionName(position))")
            try #require(reply.isOK("CHOOSE"), "\(reply)")
            if reply.lines.contains(where: { $0.hasPrefix("OVER ") }) { end = reply }
        }
        // Two deliberate mismatches first: a card, then one that pairs with nothing face up.
        let first = try #require(slots().indices.first)
        try choose(first)
        for _ in 0..<2 {
            let up = try #require(slots().firstIndex { $0.isFaceUp && !$0.isMatched })
            let other = try #require(
                slots().indices.first { !slots()[$0].isFaceUp && !pairs(slots()[$0].card, slots()[up].card) })
            try choose(other)
            mismatches += 1
        }
        // Then matches, found by looking at the cards (the test's oracle), to the end.
        while end == nil {
            let open = slots().indices.filter { !slots()[$0].isMatched }
            if let up = open.first(where: { slots()[$0].isFaceUp }) {
                let partner = try #require(
                    open.first { $0 != up && pairs(slots()[$0].card, slots()[up].card) })
                try choose(partner)
            } else {
                let a = try #require(
                    open.first { a in open.contains { $0 != a && pairs(slots()[$0].card, slots()[a].card) } })
                try choose(a)
                if end != nil { break }
                let partner = try #require(open.first { $0 != a && pairs(slots()[$0].card, slots()[a].card) })
                try choose(partner)
            }
            matches += 1
        }
        let last = try #require(end)
        #expect(
            last.lines.contains("STATS ann sets=\(matches) wrong=\(mismatches) stale=0 fastest=- mean=-"),
            "\(last)")
        #expect(last.lines.contains { $0.hasPrefix("DURATION ") })
        #expect(last.lines.suffix(2).first == "STANDINGS 1", "\(last)")
    }

    /// Two new players (1500 each) play two real games of normal SET (each takes a set, the game lasts
    /// over a minute: see `RatingBook.isRealGame`).
    ///
    /// Game 1, Bob takes the first set and Ann the other n − 1: Q is the same for both, so E = 0.5 each;
    /// K = max(256/(1+0/20), 64) = 256. Ann 1500 + 256((n−1)/n − 0.5), Bob 1500 + 256(1/n − 0.5).
    ///
    /// Game 2, the other way round: E(Ann) = Q(Ann)/(Q(Ann) + Q(Bob)) with Q = 10^(R/800);
    /// K = 256/(1+1/20) = 243.8095, the mean of both players' K.
    @Test func ratingsFollowTheFormula() throws {
        let server = EmbeddedServer()
        let (ann, annJoin) = try server.player("ann", room: "rated")
        let (bob, _) = try server.player("bob", room: "rated")
        _ = ann.readAvailable()
        /// `first` takes the first set, a minute passes, `rest` takes every other; returns their sets.
        func play(_ first: EmbeddedClient, then rest: EmbeddedClient, from lines: [String]) throws -> Int {
            let board = try #require(BoardView.last(in: lines))
            let taken = try first.request(board.claim(try #require(board.sets.first)))
            #expect(taken.isOK("CHOOSE"), "\(taken)")
            _ = rest.readAvailable()
            server.advance(by: 61)
            let (sets, _) = try rest.playToTheEnd(from: taken.lines)
            _ = first.readAvailable()
            return sets
        }
        let annSets = try play(bob, then: ann, from: annJoin.lines)
        let n1 = Double(annSets + 1)
        let ann1 = 1500 + 256 * ((n1 - 1) / n1 - 0.5)
        let bob1 = 1500 + 256 * (1 / n1 - 0.5)
        #expect(
            try bob.request("STATS").lines == [
                "RATING bob normal rating=\(Int(bob1.rounded())) games=1 wins=0 sets=1 wrong=0 stale=0"
            ])
        let new = try ann.request("NEW")
        _ = bob.readAvailable()
        let bobSets = try play(ann, then: bob, from: new.lines)
        let n2 = Double(bobSets + 1)
        let k = 256 / (1 + 1.0 / 20)
        let annExpected = 1 / (1 + pow(10, (bob1 - ann1) / 800))
        let ann2 = Int((ann1 + k * (1 / n2 - annExpected)).rounded())
        let bob2 = Int((bob1 + k * ((n2 - 1) / n2 - (1 - annExpected))).rounded())
        let annStats = try bob.request("STATS ann")
        #expect(
            annStats.lines == [
                "RATING ann normal rating=\(ann2) games=2 wins=1 sets=\(annSets + 1) wrong=0 stale=0"
            ], "\(annStats)")
        #expect(annStats.final == "OK STATS 1")
        #expect(
            try ann.request("STATS").lines == [
                "RATING ann normal rating=\(ann2) games=2 wins=1 sets=\(annSets + 1) wrong=0 stale=0"
            ])
        #expect(
            try ann.request("STATS bob").lines == [
                "RATING bob normal rating=\(bob2) games=2 wins=1 sets=\(bobSets + 1) wrong=0 stale=0"
            ])
        let ranked = [("ann", ann2), ("bob", bob2)].sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        let top = try ann.request("TOP")
        #expect(
            top.lines == ["TOP 1 \(ranked[0].0) \(ranked[0].1) 2", "TOP 2 \(ranked[1].0) \(ranked[1].1) 2"]
                && top.final == "OK TOP 2", "\(top)")
        #expect(try ann.request("TOP junior").final == "OK TOP 0")
        #expect(try ann.request("TOP blitz").error == .badOption)
        #expect(try ann.request("STATS nobody").final == "OK STATS 0")

        // A game played alone changes no rating, but counts as a game.
        let (carl, carlJoin) = try server.player("carl", room: "solo", options: "mode=junior")
        _ = try carl.playToTheEnd(from: carlJoin.lines)
        let solo = try carl.request("STATS")
        #expect(
            solo.lines.count == 1 && solo.lines[0].hasPrefix("RATING carl junior rating=1500 games=1 wins=0 ")
        )
        let anon = try server.connect("anon")
        #expect(try anon.request("STATS").error == .noName)
        #expect(try anon.request("STATS carl").lines == solo.lines, "anyone may read a name's figures")
    }

    @Test func aClaimedNameNeedsItsKey() throws {
        let server = EmbeddedServer()
        let ann = try server.connect("ann")
        #expect(try ann.request("HELLO ann key=s3cret").isOK("HELLO ann"))
        #expect(server.journal.contains { $0.text.hasPrefix("name-key ann pbkdf2-sha1$") })
        #expect(!server.journal.contains { $0.text.contains("s3cret") }, "only a digest is kept")
        let rival = try server.connect("rival")
        #expect(try rival.request("HELLO ann key=s3cret").error == .taken, "ann is playing")
        _ = try ann.request("QUIT")
        #expect(try rival.request("HELLO ann").error == .denied)
        #expect(try rival.request("HELLO ann key=guess").error == .denied)
        #expect(server.logs.contains { $0.name == "wrong-claim" })
        #expect(try rival.request("HELLO ann key=s3cret").isOK("HELLO ann"), "the key gets the name")
        // Unclaimed names work as they always did.
        let bob = try server.connect("bob")
        #expect(try bob.request("HELLO bob").isOK("HELLO bob"))
        #expect(try server.connect("x").request("HELLO carl key=").error == .badOption)
    }
}
