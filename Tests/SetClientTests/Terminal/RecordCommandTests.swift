import SetProtocol
import SetTerminal
import Testing

/// set-cli's `/record <game-id>` (issue 25): what it sends, and the record shown as lines, not JSON.
@Suite struct RecordCommandTests {
    @Test func recordSendsTheIdAndShowsWhoTookWhatAndWhen() {
        var session = ClientSession(name: "alice", room: "night")
        session.connectionOpened()
        for line in [
            "SETD 1 hi", "OK HELLO alice t0k", "ROOM night set 1 playing",
            "BOARD 3 a:1RFS b:2GHT c:3PEC d:1GFT e:2PHC f:3REC g:1PES h:2RFT i:3GHS j:1RHC k:2GET l:3PFS",
            "DECK 66", "PLAYER alice 0 online", "OK JOIN night 3",
        ] {
            _ = session.receive(.init(parsing: line))
        }
        guard
            case .success(let command)? = UserCommand.parse(
                "/record 0123456789abcdef", context: .init(boardCount: 12))
        else {
            Issue.record("/record does not parse")
            return
        }
        let sent = session.perform(command, revision: session.view.revision).compactMap { output -> String? in
            if case .send(let text) = output { text } else { nil }
        }
        #expect(sent == ["RECORD 0123456789abcdef"])
        let json = """
            {"events":[{"ms":0,"type":"deal"},{"cards":["1RFS","2GHT","3PEC"],"ms":4200,"name":"alice",\
            "result":"set","type":"claim"}],"id":"0123456789abcdef","room":"night",\
            "sheet":[{"name":"alice","score":1,"sets":1,"stale":0,"wrong":0}]}
            """
        let shown = session.receive(.init(parsing: "OK RECORD " + json)).map { "\($0)" }.joined(
            separator: "\n")
        #expect(shown.contains("game 0123456789abcdef in night"), "\(shown)")
        #expect(shown.contains("0:04.2 alice set 1RFS 2GHT 3PEC"), "\(shown)")
        #expect(shown.contains("alice: 1 points, 1 sets"), "\(shown)")
        guard case .failure? = UserCommand.parse("/record", context: .init(boardCount: 12)) else {
            Issue.record("/record without an id was accepted")
            return
        }
    }
}
