import SetProtocol
import SetTerminal

/// Views and screen states the renderer tests draw, built from server lines as a client would see them.
enum Fixtures {
    /// A 12-card SET board in the middle of a game, with one player away.
    static let twelve = GameView(lines: [
        "ROOM lobby set 2 playing", "OPTIONS mode=normal penalty=1 hints=on",
        "BOARD 7 a:1RFS b:2GHT c:3PEC d:1GFT e:2PHC f:3REC g:1PES h:2RFT i:3GHS j:1RHC k:2GET l:3PFS",
        "DECK 66", "PLAYER alice 3 online", "PLAYER bob 1 away",
    ])

    /// A full 21-card SET board near the end of the deck.
    static let twentyOne = GameView(lines: [
        "ROOM big set 3 playing", "OPTIONS mode=normal penalty=1 hints=on",
        "BOARD 12 a:1RFS b:2GHT c:3PEC d:1GFT e:2PHC f:3REC g:1PES h:2RFT i:3GHS j:1RHC k:2GET l:3PFS "
            + "m:1GHC n:2PET o:3RFC p:1PFT q:2RES r:3GHT s:1REC t:2GFS u:3PHS",
        "DECK 3", "PLAYER alice 3 online", "PLAYER bob 11 online", "PLAYER carol 0 away",
    ])

    /// A Matchismo board of 30 cards: face down, face up, and matched.
    static let matchismo: GameView = {
        let codes = ["??", "QC", "=JH", "=JS", "??", "10D", "??", "??", "AS", "??"]
        let cards = (0..<30).map { i in
            let position = i < 26 ? String(UnicodeScalar(UInt8(97 + i))) : "#\(i)"
            return "\(position):\(codes[i % codes.count])"
        }
        return GameView(lines: [
            "ROOM mm matchismo 2 playing", "OPTIONS n=2", "BOARD 9 " + cards.joined(separator: " "),
            "DECK 22",
            "TURN bob", "PLAYER alice 28 online", "PLAYER bob -6 online",
        ])
    }()

    /// A chain-mode board whose next set must reuse one of three chain cards.
    static let chain = GameView(lines: [
        "ROOM links set 1 playing", "OPTIONS mode=chain penalty=1 hints=on",
        "BOARD 4 a:1RFS b:2GHT c:3PEC d:1GFT e:2PHC f:3REC g:1PES h:2RFT i:3GHS j:1RHC k:2GET l:3PFS",
        "DECK 60", "CHAIN 1GFS 2GFC 3GFT", "PLAYER alice 5 online",
    ])

    /// A screen with a few events and `typed` on the input line.
    static func ui(typed: String = "") -> TerminalUI {
        var ui = TerminalUI()
        ui.connection = .online
        ui.log(.info("joined lobby (SET); ? shows the keys"))
        ui.log(.took(name: "bob", cards: ["1RFS", "2GHT", "3PEC"]))
        ui.log(
            .wrong(
                name: "alice", penalty: 1, cards: ["1RFS", "2GHT", "3PGC"], why: "colour: two red, one green")
        )
        ui.log(.chat(name: "bob", text: "gg"))
        for c in typed { ui.editor.insert(c) }
        return ui
    }

    /// The frame's lines without styles or trailing spaces.
    static func plain(_ frame: Frame) -> [String] {
        frame.plainLines.map { line in
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// A golden frame written as one string, one screen line per text line.
    static func golden(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
