import SetGame
import SetTestSupport
import Testing

/// The SET variants a room can be created with.
@Suite struct SetModeTests {
    @Test func chainModeMakesEachSetReuseACardOfTheLast() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "chain", options: "mode=chain")
        #expect(join.lines.contains("OPTIONS mode=chain penalty=1 hints=on"))
        #expect(join.lines.contains("CHAIN -"), "any set goes at first: \(join)")
        var board = try #require(BoardView.last(in: join.lines))
        let first = try #require(board.sets.first)
        let reply = try ann.request(board.claim(first))
        #expect(reply.isOK("CHOOSE"))
        let chain = board.codes(first)
        #expect(reply.lines.contains("CHAIN " + chain.joined(separator: " ")), "\(reply)")
        board = try #require(BoardView.last(in: reply.lines))

        // A set on the board that shares no card with the chain is refused, at the penalty.
        let chainCards = try chain.map { try Card(code: $0) }
        if let unchained = board.sets.first {
            let refused = try ann.request(board.claim(unchained))
            #expect(refused.final.hasPrefix("ERR CHOOSE NOTSET chain: "), "\(refused)")
        }
        // A chained set names the reused card by code and the others by position.
        var chained: (Card, Int, Int)?
        for reused in chainCards {
            for i in board.cards.indices {
                let third = SetRules.completing(reused, board.cards[i])
                if let j = board.cards.firstIndex(of: third), j > i { chained = (reused, i, j) }
            }
        }
        let (reused, i, j) = try #require(chained, "seed 42 deals a chained set here")
        let line =
            "CHOOSE \(reused.code) \(BoardView.position(i)) \(BoardView.position(j)) @\(board.revision)"
        let accepted = try ann.request(line)
        #expect(accepted.isOK("CHOOSE"), "\(line): \(accepted)")
        let next = [reused.code, board.cards[i].code, board.cards[j].code]
        #expect(accepted.lines.contains("CHAIN " + next.joined(separator: " ")), "\(accepted)")
    }

    @Test func ultraModeTakesFourCards() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "ultra", options: "mode=ultra")
        #expect(join.lines.contains("OPTIONS mode=ultra penalty=1 hints=on"))
        let board = try #require(BoardView.last(in: join.lines))
        let quad = try #require(SetRules.allUltraSets(in: board.cards).first)
        let three = try ann.request(board.claim(Array(quad.prefix(3))))
        #expect(three.final.hasPrefix("ERR CHOOSE ARGS "), "\(three)")
        let reply = try ann.request(board.claim(quad))
        let codes = board.codes(quad)
        #expect(reply.final == "OK CHOOSE " + codes.joined(separator: " "), "\(reply)")
        #expect(reply.lines.first == "SET ann " + codes.joined(separator: " "))
        let hint = try ann.request("HINT")
        #expect(hint.isOK("HINT"), "\(hint)")
    }

    @Test func juniorModeDealsSolidCardsOnly() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (ann, join) = try server.player("ann", room: "junior", options: "mode=junior")
        var board = try #require(BoardView.last(in: join.lines))
        for _ in 0..<3 {
            #expect(board.cards.allSatisfy { $0.fill == .solid })
            let reply = try ann.request(board.claim(board.sets[0]))
            #expect(reply.isOK("CHOOSE"))
            board = try #require(BoardView.last(in: reply.lines))
        }
    }
}
