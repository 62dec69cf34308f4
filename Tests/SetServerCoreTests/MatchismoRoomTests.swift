import SetTestSupport
import Testing

/// Matchismo over the wire: turns, choices and their history.
@Suite struct MatchismoRoomTests {
    /// `AS` → `A♠`: how the history names a card.
    private func symbol(_ code: String) -> String {
        let suits: [Character: String] = ["S": "♠", "H": "♥", "D": "♦", "C": "♣"]
        return String(code.dropLast()) + (suits[code.last!] ?? "?")
    }

    /// The cards of a Matchismo `BOARD` line, by position: `??`, a code, or `=` and a code.
    private func slots(_ line: String) -> [String] {
        words(line).dropFirst(2).map { String($0.split(separator: ":", maxSplits: 1).last ?? "") }
    }

    @Test func playersTakeTurnsAndChoicesAreHistory() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, annJoin) = try server.player("ann", room: "m", options: "matchismo n=2")
        #expect(annJoin.lines.first == "ROOM m matchismo 1 playing")
        #expect(annJoin.lines.contains("OPTIONS n=2"))
        #expect(annJoin.lines.contains("TURN ann"))
        let firstBoard = try #require(annJoin.lines.first { $0.hasPrefix("BOARD ") })
        #expect(firstBoard.hasPrefix("BOARD 1 "))
        #expect(slots(firstBoard) == Array(repeating: "??", count: 30), "\(firstBoard)")
        #expect(annJoin.lines.contains("DECK 22"))

        let (bob, bobJoin) = try server.player("bob", room: "m", options: "matchismo")
        #expect(bobJoin.lines.contains("TURN ann"))
        #expect(try ann.readLine() == "JOINED bob")
        #expect(try ann.readLine() == "PLAYER bob 0 online")
        #expect(try ann.readLine() == "ROOM m matchismo 2 playing")

        let notYours = try bob.request("CHOOSE a")
        #expect(notYours.final.hasPrefix("ERR CHOOSE NOTYOURTURN "), "\(notYours)")
        #expect(try bob.request("CHOOSE a b").final.hasPrefix("ERR CHOOSE ARGS "))

        let clients = ["ann": ann, "bob": bob]
        var board = slots(firstBoard)
        var turn = "ann"
        var scores = ["ann": 0, "bob": 0]
        var chose: [(String, Int, String)] = []
        var known: [Int: String] = [:]
        var sawMatch = false
        var sawMismatch = false
        while !(sawMatch && sawMismatch) {
            try #require(chose.count < 30, "30 choices without both a match and a mismatch: \(chose)")
            // Like a player with a memory: turn a card never seen before.
            let position = try #require(board.indices.first { board[$0] == "??" && known[$0] == nil })
            let player = clients[turn]!
            let other = clients[turn == "ann" ? "bob" : "ann"]!
            let reply = try player.request("CHOOSE \(BoardView.position(position))")
            try #require(reply.isOK("CHOOSE"), "\(reply)")
            try #require(reply.lines.count >= 4, "\(reply)")
            // CHOSE, BOARD, PLAYER, TURN, for everyone.
            let parts = words(reply.lines[0])
            try #require(parts.count >= 4 && parts[0] == "CHOSE" && parts[1] == turn, "\(reply)")
            let points = try #require(Int(parts[2]))
            let text = parts.dropFirst(3).joined(separator: " ")
            var seen: [String] = []
            for _ in reply.lines { seen.append(try other.readLine()) }
            #expect(seen == reply.lines)
            board = slots(reply.lines[1])
            for (index, slot) in board.enumerated() where slot != "??" { known[index] = slot }
            let code = board[position].hasPrefix("=") ? String(board[position].dropFirst()) : board[position]
            #expect(reply.final == "OK CHOOSE \(code)")
            scores[turn, default: 0] += points
            #expect(reply.lines[2] == "PLAYER \(turn) \(scores[turn]!) online")
            let nextTurn = words(reply.lines[3]).last ?? ""
            #expect(reply.lines[3].hasPrefix("TURN "))
            if text.hasPrefix("Matched ") {
                sawMatch = true
                let won = try #require(Int(words(text).dropLast().last ?? ""), "\(text)")
                #expect(text.hasSuffix(" for \(won) points"))
                #expect(points == won - 2)
                #expect(text.contains(symbol(code)))
                #expect(nextTurn == turn, "a match keeps the turn")
                #expect(board[position].hasPrefix("="))
            } else if text.contains(" don't match! ") {
                sawMismatch = true
                #expect(text.hasSuffix(" don't match! 4 point penalty!"), "\(text)")
                #expect(points == -6)
                #expect(nextTurn != turn, "a mismatch passes the turn: \(reply)")
                #expect(!board[position].hasPrefix("="), "the last card stays up, unmatched")
            } else {
                #expect(text == symbol(code))
                #expect(points == -2)
                #expect(nextTurn == turn)
            }
            chose.append((turn, points, text))
            if nextTurn != turn {
                // The player who lost the turn may not move.
                let refused = try player.request("CHOOSE \(BoardView.position(position))")
                #expect(refused.final.hasPrefix("ERR CHOOSE NOTYOURTURN "), "\(refused)")
            }
            turn = nextTurn
        }

        // A matched card cannot be chosen again; a face-up card can be named by its code.
        if let matched = board.firstIndex(where: { $0.hasPrefix("=") }) {
            let again = try clients[turn]!.request("CHOOSE \(BoardView.position(matched))")
            #expect(again.final.hasPrefix("ERR CHOOSE ARGS "), "\(again)")
        }

        let history = try ann.request("HISTORY")
        #expect(history.final == "OK HISTORY \(history.lines.count)")
        #expect(history.lines.count >= chose.count)
        for (line, entry) in zip(history.lines, chose) {
            let parts = words(line)
            #expect(parts.first == "HISTORY" && parts.count >= 5 && Int(parts[1]) != nil, "\(line)")
            #expect(
                parts.dropFirst(2).joined(separator: " ") == "\(entry.0) \(entry.1) \(entry.2)", "\(line)")
        }
        let state = try bob.request("STATE")
        #expect(state.lines.contains("TURN \(turn)"))
        #expect(state.lines.contains("PLAYER ann \(scores["ann"]!) online"))
        #expect(state.lines.contains("PLAYER bob \(scores["bob"]!) online"))

        // When the player whose turn it is drops, the turn passes to someone online.
        let waiting = turn == "ann" ? bob : ann
        clients[turn]!.close()
        #expect(try waiting.readLine() == "PLAYER \(turn) \(scores[turn]!) away")
        #expect(try waiting.readLine() == "TURN \(turn == "ann" ? "bob" : "ann")")
    }

    @Test func aCardNobodyHasSeenCannotBeChosenByCode() throws {
        // A face-down card is sent as ?? so that players must find it; naming a code must not turn up a
        // card nobody has seen, nor tell whether that card is on the board.
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, _) = try server.player("ann", room: "hidden", options: "matchismo")
        var outcomes: [String: [String]] = [:]
        for suit in ["S", "H", "D", "C"] {
            for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"] {
                let reply = try ann.request("CHOOSE \(rank)\(suit)")
                let code = reply.error?.rawValue ?? "OK"
                outcomes[code, default: []].append(rank + suit)
                if code == "OK" { break }
            }
        }
        #expect(outcomes["OK"] == nil, "face-down cards were turned up by code: \(outcomes)")
        #expect(outcomes.count == 1, "every code gets the same answer: \(outcomes)")
    }

    @Test func theMatchCountIsNeverLockedOnlyVotedOn() throws {
        // protocol.md promises no LOCKED: a JOIN with another n is MISMATCH, and NEW n=… mid-game is a vote.
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, _) = try server.player("ann", room: "duo", options: "matchismo")
        let (bob, _) = try server.player("bob", room: "duo")
        #expect(try ann.request("CHOOSE a").isOK("CHOOSE"))
        let (carl, _) = try server.named("carl")
        #expect(try carl.request("JOIN duo matchismo n=3").final.hasPrefix("ERR JOIN MISMATCH "))
        #expect(try ann.request("NEW n=3").final == "OK NEW voted 1/2")
        let started = try bob.request("NEW n=3")
        #expect(started.final == "OK NEW started")
        #expect(started.lines.contains("OPTIONS n=3"), "\(started)")
    }

    @Test func matchCountMustMatchTheRoom() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (_, join) = try server.player("ann", room: "trio", options: "matchismo n=3")
        #expect(join.lines.contains("OPTIONS n=3"))
        let (bob, _) = try server.named("bob")
        #expect(try bob.request("JOIN trio matchismo n=2").final.hasPrefix("ERR JOIN MISMATCH "))
        #expect(try bob.request("JOIN trio").isOK("JOIN trio"), "no options means the room's own")
    }
}
