import Foundation
import SetGame
import SetTerminal
import SetTestSupport
import SetTestTraits
import Testing

/// `set-cli --replay <id>` (issue 25) against a real setd on 127.0.0.1: a game played to the end by two
/// socket players, then replayed from its record by the client, whose boards must be the boards the
/// players were shown.
@Suite(.ownThread) struct ReplayCommandTests {
    /// Ann and bob play a whole game (bob with one wrong claim); returns the game's id and, for each set,
    /// the board it was taken from, and the last board.
    private func playGame(on daemon: Daemon) throws -> (id: String, boards: [[Card]], last: [Card]) {
        let ann = try daemon.connect("ann")
        let bob = try daemon.connect("bob")
        defer {
            ann.close()
            bob.close()
        }
        #expect(try ann.request("HELLO ann").isOK("HELLO"))
        #expect(try bob.request("HELLO bob").isOK("HELLO"))
        #expect(try ann.request("JOIN night").isOK("JOIN"))
        let joined = try bob.request("JOIN night")
        var board = try #require(BoardView.last(in: try bob.request("STATE").lines), "\(joined)")
        var boards: [[Card]] = []
        let wrong = try #require(board.nonSet)
        #expect(try bob.request(board.claim(wrong)).final.hasPrefix("ERR CHOOSE NOTSET"))
        for n in 0..<60 {
            let reply = try (n % 3 == 1 ? bob : ann).request(board.claim(try #require(board.sets.first)))
            #expect(reply.isOK("CHOOSE"), "\(reply)")
            boards.append(board.cards)
            if let next = BoardView.last(in: reply.lines) { board = next }
            if reply.lines.contains(where: { $0.hasPrefix("OVER ") }) { break }
        }
        let history = try ann.request("HISTORY").lines
        let idLine = try #require(history.first { $0.hasPrefix("HISTORY GAME 1 ID ") }, "\(history)")
        return (String(idLine.dropFirst("HISTORY GAME 1 ID ".count)), boards, board.cards)
    }

    @Test func thePlainReplayShowsEveryBoardThePlayersSaw() throws {
        let daemon = try Daemon(["--seed", "25"])
        defer { _ = daemon.terminate() }
        let (id, boards, last) = try playGame(on: daemon)
        #expect(boards.count >= 20)
        let result = try Child.run(
            try productPath("set-cli"), ["--replay", id, "--plain", "--port", String(daemon.port)],
            timeout: 20)
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        // Each step's first line, then its board: the sets' boards in order, then the end's.
        var shown: [[String]] = []
        var captions: [String] = []
        for (i, line) in lines.enumerated() where line.hasPrefix("step ") {
            captions.append(line)
            let board = lines[(i + 1)...].first { $0.hasPrefix("  board: ") } ?? ""
            shown.append(
                board.dropFirst("  board: ".count).split(separator: " ").map {
                    String($0.split(separator: ":")[1].prefix(4))
                })
        }
        let setSteps = captions.indices.filter { captions[$0].contains(" took a set in ") }
        #expect(setSteps.count == boards.count, "\(result.output)")
        for (k, step) in setSteps.enumerated() where k < boards.count {
            #expect(shown[step] == boards[k].map(\.code), "set \(k + 1): \(captions[step])")
        }
        #expect(shown.last == last.map(\.code))
        #expect(captions.first?.hasPrefix("step 0/") == true && captions.first?.contains("the deal") == true)
        #expect(captions.contains { $0.contains("bob: not a set") })
        #expect(captions.last?.contains("game over: ann wins") == true, "\(captions.last ?? "")")
        #expect(lines.contains { $0.hasPrefix("  missed: ") })
    }

    @Test func anUnknownGameIsOneLineAndStatusOne() throws {
        let daemon = try Daemon()
        defer { _ = daemon.terminate() }
        let child = try Child(
            try productPath("set-cli"),
            ["--replay", "00000000000000aa", "--plain", "--port", String(daemon.port)])
        #expect(child.wait(timeout: 20) == 1)
        #expect(
            child.errors(within: 1).hasPrefix("set-cli: the server has no game 00000000000000aa (NOSUCHGAME"))
    }
}
