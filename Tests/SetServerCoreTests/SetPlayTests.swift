import SetGame
import SetTestSupport
import Testing

/// SET played over the wire: claims, the events everyone sees, the end of a game and new games.
@Suite struct SetPlayTests {
    @Test func twoPlayersPlayAGameToTheEnd() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, annJoin) = try server.player("ann", room: "g")
        #expect(annJoin.lines.first == "ROOM g set 1 playing")
        let (bob, bobJoin) = try server.player("bob", room: "g")
        #expect(bobJoin.lines.first == "ROOM g set 2 playing")
        #expect(
            bobJoin.lines.suffix(4).dropLast() == ["PLAYER ann 0 online", "PLAYER bob 0 online", "HOST ann"])
        // The game was dealt when ann made the room: every client's clock counts from then.
        #expect(bobJoin.lines.last?.hasPrefix("STARTED ") == true && bobJoin.lines.last == annJoin.lines.last)
        #expect(try ann.readLine() == "JOINED bob")
        #expect(try ann.readLine() == "PLAYER bob 0 online")
        #expect(try ann.readLine() == "ROOM g set 2 playing")

        var board = try #require(BoardView.last(in: bobJoin.lines))
        let firstBoard = board
        #expect(board.revision == 1)
        let players = [("ann", ann), ("bob", bob)]
        var taken = ["ann": 0, "bob": 0]
        var claims: [(String, [String])] = []
        var deckCounts: [Int] = []
        var finalLines: [String] = []
        var turn = 0
        while finalLines.isEmpty {
            try #require(turn < 40, "a game of SET has at most 27 sets")
            let (name, claimer) = players[turn % 2]
            let other = players[(turn + 1) % 2].1
            turn += 1
            let set = try #require(board.sets.first, "the game is not over, so the board holds a set")
            let codes = board.codes(set)
            let reply = try claimer.request(board.claim(set))
            try #require(reply.final == "OK CHOOSE " + codes.joined(separator: " "), "\(reply)")
            taken[name, default: 0] += 1
            claims.append((name, codes))

            // The claimer's own lines are the events, then the reply.
            // The last set adds ROOM and OVER, then the score sheet: a STATS line each and DURATION,
            // then the night's standings: STANDINGS and a STANDING line each.
            try #require(reply.lines.count == 4 || reply.lines.count == 12, "\(reply)")
            #expect(reply.lines[0] == "SET \(name) " + codes.joined(separator: " "))
            let next = try #require(BoardView(line: reply.lines[1]), "\(reply)")
            #expect(next.revision > board.revision)
            #expect(codes.allSatisfy { code in !next.cards.contains { $0.code == code } })
            let deck = words(reply.lines[2])
            #expect(deck.count == 2 && deck[0] == "DECK")
            deckCounts.append(Int(deck.last ?? "") ?? -1)
            #expect(reply.lines[3] == "PLAYER \(name) \(taken[name]!) online")

            // The other player gets the same events, in the same order.
            var seen: [String] = []
            for _ in reply.lines { seen.append(try other.readLine()) }
            #expect(seen == reply.lines)
            if reply.lines.count == 12 {
                #expect(reply.lines[4] == "ROOM g set 2 over")
                #expect(reply.lines[6].hasPrefix("STATS ") && reply.lines[8].hasPrefix("DURATION "))
                #expect(reply.lines[9] == "STANDINGS 1" && reply.lines[11].hasPrefix("STANDING 2 "))
                finalLines = reply.lines
            }
            board = next
        }

        // The game ran out: no cards left to deal and no set on the board.
        #expect(deckCounts.last == 0)
        #expect(deckCounts == deckCounts.sorted(by: >), "the deck only shrinks: \(deckCounts)")
        #expect(board.sets.isEmpty)
        let total = claims.count
        #expect(total >= 20 && total <= 27, "\(total) sets in a game")

        // OVER: best first, ties in join order; the scores are the sets each took and sum to all of them.
        let over = finalLines[5]
        let ranked = [("ann", taken["ann"]!), ("bob", taken["bob"]!)].enumerated().sorted {
            $0.element.1 != $1.element.1 ? $0.element.1 > $1.element.1 : $0.offset < $1.offset
        }.map { "\($0.element.0):\($0.element.1)" }
        #expect(over == "OVER " + ranked.joined(separator: " "))
        let scores = words(over).dropFirst().compactMap { Int($0.split(separator: ":").last ?? "") }
        #expect(scores.reduce(0, +) == total)

        // STATE says over; HISTORY lists every set in order.
        let state = try ann.request("STATE")
        #expect(state.lines.first == "ROOM g set 2 over")
        #expect(state.lines.contains("DECK 0"))
        #expect(state.lines.contains("PLAYER ann \(taken["ann"]!) online"))
        // The finished game is in the archive: a header with the final scores, best first, then every set.
        let history = try bob.request("HISTORY")
        #expect(history.final == "OK HISTORY \(history.lines.count)")
        // The header, the game's record id, every set, then the score sheet (a STATS line per player and
        // DURATION).
        #expect(history.lines.count == total + 5)
        #expect(
            history.lines.dropFirst().first?.wholeMatch(of: /HISTORY GAME 1 ID [0-9a-f]{16}/) != nil,
            "\(history)")
        #expect(history.lines.suffix(3).map { words($0)[3] } == ["STATS", "STATS", "DURATION"], "\(history)")
        let header = words(history.lines.first ?? "")
        #expect(header.prefix(2) == ["HISTORY", "GAME"] && header.count == 7, "\(header)")
        #expect(Array(header.suffix(2)) == ranked, "\(header)")
        for (line, claim) in zip(history.lines.dropFirst(2).dropLast(3), claims) {
            let parts = words(line)
            #expect(
                parts.count == 8 && parts[1] == "GAME" && parts[2] == "1" && Int(parts[3]) != nil, "\(line)")
            #expect(Array(parts.dropFirst(4)) == [claim.0] + claim.1, "\(line)")
        }

        // No more claims or hints; a new game starts at once, with scores at 0 and a fresh shuffle.
        // Cards still on the board are not stale, so the claim is refused because the game is over.
        let leftover = board.codes([0, 1, 2]).joined(separator: " ")
        #expect(try ann.request("CHOOSE \(leftover)").final.hasPrefix("ERR CHOOSE OVER "))
        #expect(try ann.request("HINT").final.hasPrefix("ERR HINT OVER "))
        let new = try bob.request("NEW")
        #expect(new.final == "OK NEW started")
        #expect(new.lines.first == "NEWGAME bob")
        #expect(new.lines.dropFirst().first == "ROOM g set 2 playing")
        #expect(new.lines.suffix(4).dropLast() == ["PLAYER ann 0 online", "PLAYER bob 0 online", "HOST ann"])
        #expect(new.lines.last?.hasPrefix("STARTED ") == true)
        let fresh = try #require(BoardView.last(in: new.lines))
        #expect(fresh.revision == board.revision + 1, "a room's next game starts above its last board")
        #expect(fresh.cards != firstBoard.cards)
        #expect(new.lines.contains("DECK \(81 - fresh.cards.count)"))
        var annSees: [String] = []
        for _ in new.lines { annSees.append(try ann.readLine()) }
        #expect(annSees == new.lines)
        let after = try ann.request("HISTORY")
        #expect(
            after.lines == history.lines, "the new game has no sets yet; the old one is archived: \(after)")
        let set = try #require(fresh.sets.first)
        #expect(try ann.request(fresh.claim(set)).isOK("CHOOSE"))
    }

    @Test func simultaneousClaimsOfOneSetHaveOneWinner() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, _) = try server.player("ann", room: "race")
        let (bob, bobJoin) = try server.player("bob", room: "race")
        _ = try ann.expect(prefix: "ROOM race set 2")
        var board = try #require(BoardView.last(in: bobJoin.lines))
        var wins = ["ann": 0, "bob": 0]
        var rounds = 0
        for round in 0..<20 {
            guard let set = board.sets.first else { break }
            // Alternate who writes first, and name the cards by position with @rev or by code.
            let claim =
                round % 2 == 0
                ? board.claim(set) : "CHOOSE " + board.codes(set).joined(separator: " ")
            let order = round % 4 < 2 ? [("ann", ann), ("bob", bob)] : [("bob", bob), ("ann", ann)]
            try order[0].1.send(claim)
            try order[1].1.send(claim)
            let first = try order[0].1.readReply()
            let second = try order[1].1.readReply()
            let replies = [(order[0].0, first), (order[1].0, second)]
            let winners = replies.filter { $0.1.isOK("CHOOSE") }
            let losers = replies.filter { $0.1.error == .stale }
            try #require(
                winners.count == 1 && losers.count == 1,
                "round \(round): \(claim)\n\(order[0].0): \(first)\n\(order[1].0): \(second)")
            wins[winners[0].0, default: 0] += 1
            rounds += 1
            #expect(losers[0].1.final.hasPrefix("ERR CHOOSE STALE "))
            // The loser saw the winner's set before its refusal, and no WRONG: STALE is free.
            let setLine = "SET \(winners[0].0) " + board.codes(set).joined(separator: " ")
            #expect(losers[0].1.lines.contains(setLine), "\(losers[0].1)")
            #expect(!(first.lines + second.lines).contains { $0.hasPrefix("WRONG") })
            board = try #require(BoardView.last(in: winners[0].1.lines))
            #expect(BoardView.last(in: losers[0].1.lines) == board)
        }
        #expect(rounds == 20)
        let state = try ann.request("STATE")
        #expect(state.lines.contains("PLAYER ann \(wins["ann"]!) online"), "\(state)")
        #expect(state.lines.contains("PLAYER bob \(wins["bob"]!) online"), "\(state)")
        #expect(wins["ann"]! + wins["bob"]! == rounds)
        #expect(try bob.request("HISTORY").final == "OK HISTORY \(rounds)")
    }

    @Test func newGameMidGameIsAVote() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, annJoin) = try server.player("ann", room: "vote")
        let (bob, _) = try server.player("bob", room: "vote")
        _ = try ann.expect(prefix: "ROOM vote set 2")
        let board = try #require(BoardView.last(in: annJoin.lines))
        #expect(try ann.request(board.claim(board.sets[0])).isOK("CHOOSE"))
        _ = try bob.expect(prefix: "PLAYER ann 1")

        let vote = try ann.request("NEW")
        #expect(vote.final == "OK NEW voted 1/2")
        #expect(
            vote.lines == [
                "VOTE ann 1 2 mode=normal penalty=1 hints=on",
                "PROPOSAL 1 2 ann mode=normal penalty=1 hints=on",
            ])
        #expect(try bob.readLine() == "VOTE ann 1 2 mode=normal penalty=1 hints=on")
        #expect(try bob.readLine() == "PROPOSAL 1 2 ann mode=normal penalty=1 hints=on")
        let started = try bob.request("NEW")
        #expect(started.final == "OK NEW started")
        #expect(started.lines.first == "NEWGAME bob")
        #expect(started.lines.contains("PLAYER ann 0 online"))
        let annSees = try ann.expect(prefix: "PLAYER bob 0 online")
        #expect(annSees.skipped.first == "NEWGAME bob")
        // The new game's revisions start above the old game's, so an old `@rev` cannot name its board.
        let fresh = try #require(BoardView.last(in: started.lines))
        #expect(fresh.revision > board.revision + 1)
        let late = try ann.request(board.claim(board.sets[0]))
        #expect(late.final.hasPrefix("ERR CHOOSE STALE "), "\(late)")
        #expect(try ann.request("STATE").lines.contains("PLAYER ann 0 online"))
    }

    @Test func aLonePlayerStartsANewGameAtOnceWithNewOptions() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (solo, _) = try server.player("solo", room: "alone")
        let reply = try solo.request("NEW mode=junior penalty=0")
        #expect(reply.final == "OK NEW started")
        #expect(reply.lines.contains("OPTIONS mode=junior penalty=0 hints=on"), "\(reply)")
        let board = try #require(BoardView.last(in: reply.lines))
        #expect(board.cards.allSatisfy { $0.fill == .solid })
        #expect(reply.lines.contains("DECK \(27 - board.cards.count)"))
        let bad = try solo.request("NEW mode=giant")
        #expect(bad.final.hasPrefix("ERR NEW BADOPTION "))
    }

    @Test func hintNamesACardOfASet() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "hints")
        let board = try #require(BoardView.last(in: join.lines))
        let reply = try ann.request("HINT")
        #expect(reply.final == "OK HINT 1")
        try #require(reply.lines.count == 1)
        let hint = reply.lines[0]
        let pair = try #require(words(hint).last?.split(separator: ":").map(String.init))
        let index = Int(pair[0].utf8.first! - 97)
        #expect(board.cards[index].code == pair[1])
        #expect(board.sets.contains { $0.contains(index) }, "\(hint) is part of a set")
        // Hints are free.
        #expect(try ann.request("STATE").lines.contains("PLAYER ann 0 online"))
    }

    @Test func roomsListsEveryRoom() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, _) = try server.player("ann", room: "beta")
        let (_, _) = try server.player("bob", room: "alpha", options: "matchismo")
        let rooms = try ann.request("ROOMS")
        #expect(rooms.final == "OK ROOMS 2")
        #expect(rooms.lines == ["ROOM alpha matchismo 1 playing", "ROOM beta set 1 playing"])
        // Leaving empties and removes a room; others get LEFT.
        #expect(try ann.request("LEAVE").final == "OK LEAVE beta")
        #expect(try ann.request("ROOMS").lines == ["ROOM alpha matchismo 1 playing"])
    }

    @Test func leavingIsSeenAndScoreIsKeptOnReturn() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, annJoin) = try server.player("ann", room: "back")
        let (bob, _) = try server.player("bob", room: "back")
        _ = try ann.expect(prefix: "ROOM back set 2")
        let board = try #require(BoardView.last(in: annJoin.lines))
        #expect(try bob.request(board.claim(board.sets[0])).isOK("CHOOSE"))
        _ = try ann.expect(prefix: "PLAYER bob 1")
        #expect(try bob.request("LEAVE").final == "OK LEAVE back")
        #expect(try ann.readLine() == "LEFT bob")
        #expect(try ann.readLine() == "ROOM back set 1 playing")
        let rejoin = try bob.request("JOIN back")
        #expect(rejoin.lines.contains("PLAYER bob 1 online"), "\(rejoin)")
    }
}
