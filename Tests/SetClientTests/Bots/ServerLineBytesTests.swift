import SetProtocol
import Testing

@testable import SetClient

extension Bots {
    @Suite struct ServerLineBytesTests {
        /// The fast byte parser must agree with the reference parser on every line, down to the case.
        @Test(arguments: [
            "BOARD 7 a:1RFS b:2GHT c:3PEC d:1GFT e:2PHC f:3REC g:1PES h:2RFT i:3GHS j:1RHC k:2GET l:3PFS",
            "BOARD 1", "BOARD x a:1RFS", "BOARD 3 a1RFS", "BOARD 3 a:b:c", "BOARD  3   a:1RFS  ",
            " BOARD 3 a:1RFS",
            "BOARD 3 a:??  b:=JH c:10S", "BOARD +3 a:1RFS", "BOARD -1 a:", "BOARD 3 :x", "BOARDS 3 a:1RFS",
            "BOARD 3 a:1RFS\tb:2GHT", "BOARD 3 a:é",
            "PLAYER alice 3 online", "PLAYER bob -2 away", "PLAYER bob 2 gone", "PLAYER bob x online",
            "PLAYER bob 2 online extra", "PLAYER bob", "PLAYER  bob  2  online", "PLAYERS bob 2 online",
            "PLAYER bøb 2 online",
            "SET alice 1RFS 2GHT 3PEC", "SET alice", "SET alice 1RFS", "SET a b c d e", "SETD 1 welcome",
            "SET  alice  1RFS 2GHT 3PEC ",
            "DECK 66", "DECK", "DECK 1 2", "DECK x", "DECK -0",
            "OK CHOOSE 1RFS 2GHT 3PEC", "ERR CHOOSE STALE the board changed", "CHAT bob hi  there", "", " ",
            "D",
            "PING 42", "OVER alice:3 bob:1", "ROOM lobby set 2 playing",
            "OK PING", "OK PING ", "OK PING  ", "OK  CHOOSE  1RFS  2GHT", " OK HELLO bob tok", "OK",
            "OK NEW voted 1/2",
            "ERR CHOOSE STALE", "ERR CHOOSE", "ERR - UNKNOWN unknown command 'x'; type HELP",
            "ERR CHOOSE NOTSET  two  spaces ",
            "OK CHOOSE 1RFS é", "ERR CHOOSE NOTSET colour: two red, one green",
            "ROOM lobby set 2", "ROOM lobby set x playing", "ROOM lobby set 2 playing extra", "ROOMS 3",
            "OVER", "OVER alice", "OVER alice:x", "OVER a:b:3 c:-1", "OVER  alice:3  ", "OVERS a:1",
            "VERYLONGWORD x", "PLAYER bob 2 onlinex", "PLAYER bob 2 awa",
        ])
        func agreesWithTheReferenceParser(_ text: String) {
            let fast = ServerLine.parse(bytes: Array(text.utf8))
            let reference = ServerLine(parsing: text)
            #expect(String(describing: fast) == String(describing: reference), "\(text)")
        }
    }
}
