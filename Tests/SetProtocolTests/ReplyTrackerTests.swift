import SetProtocol
import Testing

@Suite("Reply tracker")
struct ReplyTrackerTests {
    typealias Tracker = ReplyTracker<String>

    /// Feeds server lines, returning what each was.
    static func receive(_ tracker: inout Tracker, _ lines: String...) -> [Tracker.Received] {
        lines.flatMap { tracker.receive(ServerLine(parsing: $0)) }
    }

    /// The sent line a reply answers and its final line, or nil when `received` is no reply.
    static func answered(_ received: Tracker.Received) -> (sent: String, final: String, data: [String])? {
        guard case .reply(let reply) = received else { return nil }
        return (reply.command.context, reply.line.text, reply.data.map(\.text))
    }

    static func isEvent(_ received: Tracker.Received, _ text: String) -> Bool {
        if case .event(let line) = received { return line.text == text }
        return false
    }

    @Test func pipelinedCommandsAreAnsweredInOrder() {
        var tracker = Tracker()
        tracker.sent("CHAT", context: "CHAT hi")
        tracker.sent("CHOOSE", context: "CHOOSE a b c @1")
        tracker.sent("PING", context: "PING")
        #expect(tracker.count == 3 && tracker.oldest?.verb == "CHAT")
        let received = Self.receive(
            &tracker, "CHAT bob hi", "OK CHAT", "ERR CHOOSE STALE the board changed", "OK PING")
        #expect(Self.isEvent(received[0], "CHAT bob hi"))
        #expect(Self.answered(received[1])?.sent == "CHAT hi")
        #expect(Self.answered(received[2])?.sent == "CHOOSE a b c @1")
        #expect(Self.answered(received[2])?.final == "ERR CHOOSE STALE the board changed")
        #expect(Self.answered(received[3])?.sent == "PING")
        #expect(tracker.isEmpty && tracker.oldest == nil)
    }

    /// Events between replies belong to no reply, even those of a snapshot's shape once the reply that
    /// could own them is done.
    /// A RESUME's `TOKEN` line (and a `NOTICE`) comes before its snapshot and is an event at once, never
    /// held as possible data nor counted in the snapshot.
    @Test func theTokenBeforeAResumesSnapshotIsAnEvent() {
        var tracker = Tracker()
        tracker.sent("RESUME", context: "RESUME t0")
        let received = Self.receive(
            &tracker, "TOKEN t1", "NOTICE someone tried an old token", "ROOM den set 1 playing", "DECK 3",
            "OK RESUME ann den 2")
        #expect(received.count == 5, "two events, two data lines, the reply")
        #expect(Self.isEvent(received[0], "TOKEN t1"))
        #expect(Self.isEvent(received[1], "NOTICE someone tried an old token"))
        #expect(Self.answered(received[4])?.data == ["ROOM den set 1 playing", "DECK 3"])
        #expect(ServerLine(parsing: "TOKEN t1") == .token("t1"))
        #expect(ServerLine(parsing: "TOKEN t1 t2") == .unknown("TOKEN t1 t2"), "a token is one word")
        #expect(ServerLine(parsing: "NOTICE a  b") == .notice("a  b"))
    }

    @Test func anEventBetweenRepliesIsAnEvent() {
        var tracker = Tracker()
        tracker.sent("CHOOSE", context: "CHOOSE a b c")
        tracker.sent("HINT", context: "HINT")
        let received = Self.receive(
            &tracker, "SET bob 1RFS 2GHT 3PEC", "BOARD 2 a:1GES", "OK CHOOSE 1RFS 2GHT 3PEC",
            "PLAYER ann 2 online",
            "BOARD 3 a:2GES", "HINT a:2GES", "OK HINT 1")
        #expect(Self.isEvent(received[0], "SET bob 1RFS 2GHT 3PEC"))
        #expect(Self.isEvent(received[1], "BOARD 2 a:1GES"))  // CHOOSE has no data lines
        #expect(Self.answered(received[2])?.data == [])
        #expect(Self.isEvent(received[3], "PLAYER ann 2 online"))
        #expect(Self.isEvent(received[4], "BOARD 3 a:2GES"))
        guard case .data(let line, let command) = received[5] else {
            Issue.record("the HINT line is not the HINT reply's data: \(received[5])")
            return
        }
        #expect(line.text == "HINT a:2GES" && command.verb == "HINT")
        #expect(Self.answered(received[6])?.data == ["HINT a:2GES"])
        #expect(Self.answered(received[6])?.sent == "HINT")
    }

    @Test func aFinalLineWithNothingPendingIsUnexpected() {
        var tracker = Tracker()
        let received = Self.receive(&tracker, "ERR - FULL the server is full", "OK PING", "SETD 1 hi")
        for (i, text) in ["ERR - FULL the server is full", "OK PING"].enumerated() {
            guard case .unexpected(let line) = received[i] else {
                Issue.record("\(text) was \(received[i])")
                continue
            }
            #expect(line.text == text)
        }
        #expect(Self.isEvent(received[2], "SETD 1 hi"))
        // An unexpected line answers nothing later: the next command gets the next reply.
        tracker.sent("PING", context: "PING")
        #expect(Self.answered(Self.receive(&tracker, "OK PING")[0])?.sent == "PING")
    }

    @Test func aSnapshotIsTheDataOfItsCommandAndTheCountSaysWhereItStarts() {
        var tracker = Tracker()
        tracker.sent("JOIN", context: "JOIN fun")
        let snapshot = [
            "ROOM fun set 1 playing", "OPTIONS mode=normal penalty=1 hints=on", "BOARD 1 a:1GES b:2RFS",
            "DECK 69", "CHAIN -", "PLAYER alice 0 online",
        ]
        // Lines in the shape of the data wait for the final line; the count settles them.
        for line in ["PLAYER bob 3 away"] + snapshot {
            #expect(tracker.receive(ServerLine(parsing: line)).isEmpty, "\(line) waits")
        }
        let received = tracker.receive(ServerLine(parsing: "OK JOIN fun 6"))
        #expect(received.count == 8)
        #expect(Self.isEvent(received[0], "PLAYER bob 3 away"))
        for (line, text) in zip(received[1...6], snapshot) {
            guard case .data(let data, let command) = line, data.text == text, command.verb == "JOIN" else {
                Issue.record("\(text) is not JOIN data: \(line)")
                continue
            }
        }
        #expect(Self.answered(received[7])?.data == snapshot)
    }

    @Test func aLineThatCannotBeDataSettlesTheHeldOnesAsEvents() {
        var tracker = Tracker()
        tracker.sent("STATE", context: "STATE")
        #expect(tracker.receive(ServerLine(parsing: "PLAYER bob 3 away")).isEmpty)
        let received = tracker.receive(ServerLine(parsing: "CHAT bob hi"))
        #expect(received.count == 2 && Self.isEvent(received[0], "PLAYER bob 3 away"))
        #expect(Self.isEvent(received[1], "CHAT bob hi"))
    }

    /// protocol.md's example: a ROOM event right before the ROOMS listing, told apart by the count.
    @Test func aRoomEventBeforeTheRoomsListingIsAnEvent() {
        var tracker = Tracker()
        tracker.sent("HINT", context: "HINT")
        tracker.sent("ROOMS", context: "ROOMS")
        let received = Self.receive(
            &tracker, "HINT b:2RFS", "OK HINT 1", "LEFT alice", "ROOM fun set 1 playing",
            "ROOM fun set 1 playing", "OK ROOMS 1")
        #expect(received.count == 6)
        #expect(Self.answered(received[1])?.data == ["HINT b:2RFS"])
        #expect(Self.isEvent(received[2], "LEFT alice"))
        #expect(Self.isEvent(received[3], "ROOM fun set 1 playing"))
        #expect(Self.answered(received[5])?.data == ["ROOM fun set 1 playing"])
    }

    /// An ERR has no data: whatever was held was events.
    @Test func anErrorHasNoData() {
        var tracker = Tracker()
        tracker.sent("STATE", context: "STATE")
        let received = Self.receive(&tracker, "PLAYER bob 3 away", "ERR STATE NOROOM JOIN a room first")
        #expect(received.count == 2 && Self.isEvent(received[0], "PLAYER bob 3 away"))
        #expect(Self.answered(received[1])?.data == [])
    }

    @Test func theRoomsListingIsTheDataOfRooms() {
        var tracker = Tracker()
        tracker.sent("ROOMS", context: "ROOMS")
        let received = Self.receive(&tracker, "ROOM a set 1 playing", "ROOM b matchismo 2 over", "OK ROOMS 2")
        guard case .reply(let reply) = received[2] else {
            Issue.record("no reply")
            return
        }
        #expect(reply.data.map(\.text) == ["ROOM a set 1 playing", "ROOM b matchismo 2 over"])
        #expect(reply.okDetail == .rooms(count: 2) && reply.errorCode == nil && reply.verb == "ROOMS")
    }

    /// An error the client does not know still ends its reply, so the next reply is not misread.
    @Test func anUnknownErrorCodeStillEndsItsReply() {
        var tracker = Tracker()
        tracker.sent("CHOOSE", context: "CHOOSE a b c")
        tracker.sent("CHAT", context: "CHAT hi")
        let received = Self.receive(&tracker, "ERR CHOOSE TOOSOON wait", "OK CHAT")
        guard case .reply(let reply) = received[0] else {
            Issue.record("no reply")
            return
        }
        #expect(reply.errorCode == .unrecognized("TOOSOON") && reply.okDetail == nil)
        #expect(Self.answered(received[1])?.sent == "CHAT hi")
    }

    @Test func aReplyOutOfOrderStillAnswersTheOldestAndSaysSo() {
        var tracker = Tracker()
        tracker.sent("HELLO", context: "HELLO ann")
        guard case .reply(let reply) = tracker.receive(ServerLine(parsing: "OK JOIN fun 0")).last else {
            Issue.record("no reply")
            return
        }
        #expect(reply.command.verb == "HELLO" && reply.verb == "JOIN")
    }

    @Test func losingTheConnectionForgetsEverythingPending() {
        var tracker = Tracker()
        tracker.sent("JOIN", context: "JOIN fun")
        tracker.sent("CHAT", context: "CHAT hi")
        #expect(tracker.receive(ServerLine(parsing: "ROOM fun set 1 playing")).isEmpty)
        #expect(tracker.removeAll().map(\.context) == ["JOIN fun", "CHAT hi"])
        #expect(tracker.isEmpty)
        // The half-received snapshot is gone too: it does not become the next reply's data.
        tracker.sent("STATE", context: "STATE")
        let state = tracker.receive(ServerLine(parsing: "OK STATE 0"))
        #expect(state.count == 1 && Self.answered(state[0])?.data == [])
    }

    @Test func aPendingCommandsContextCanBeUpdated() {
        var tracker = Tracker()
        tracker.sent("CHAT", context: "queued")
        tracker.sent("PING", context: "queued")
        tracker[1].context = "sent"
        #expect(tracker.pending.map(\.context) == ["queued", "sent"])
        _ = tracker.receive(ServerLine(parsing: "OK CHAT"))
        #expect(tracker[0].context == "sent" && tracker[0].verb == "PING")
    }
}
