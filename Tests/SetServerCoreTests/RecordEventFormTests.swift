import Foundation
import SetServerCore
import Testing

/// A room keeps an event for everyone who sits down, so an event is small in memory: the fields only a
/// Matchismo choice, a kick or a vote has are boxed. Boxed or not, an event reads, compares and writes
/// as the nine fields it has always had.
@Suite struct RecordEventFormTests {
    /// Ten players' `join`s grow a room's array of events to 13: at 40 bytes an event that is 520
    /// bytes a room, where at 48 it was 624 and at 72 (and 16 of them) 1,152.
    @Test func anEventIsSmallerThanItsNineFields() {
        #expect(MemoryLayout<GameRecord.Event>.stride <= 40)
    }

    /// A time is 32 bits inline when it fits and boxed when it does not: any time reads, compares and
    /// writes back as given, through changes of the other fields.
    @Test(arguments: [0, 7, -1, Int(Int32.max), Int(Int32.max) + 1, Int(Int32.min) - 1, 1 << 40, -(1 << 40)])
    func aTimeReadsBackAsGiven(ms: Int) throws {
        let event = GameRecord.Event(ms: ms, type: "claim", name: "ann", cards: ["AS"], result: "set")
        #expect(event.ms == ms)
        #expect(GameRecord.Event.parse(event.json) == event)
        let decoded = try JSONDecoder().decode(GameRecord.Event.self, from: Data(event.json.utf8))
        #expect(decoded == event && decoded.ms == ms)
        #expect(
            event != GameRecord.Event(ms: ms &+ 1, type: "claim", name: "ann", cards: ["AS"], result: "set"))
        var changed = event
        changed.by = "bob"
        changed.type = "kick"
        #expect(changed.ms == ms)
        changed.ms = 5
        #expect(changed.ms == 5 && changed.by == "bob" && changed.type == "kick")
        changed.ms = ms
        changed.type = "claim"
        changed.by = nil
        #expect(changed == event, "set back, it is the same event whichever way it is stored")
    }

    /// The type and result are a byte each when they are the server's words, and any other text (a
    /// record from a later or hand-edited journal) is kept as it was: it reads, compares and writes back
    /// the same, and never equals the server's word.
    @Test(
        arguments: [
            ("join", nil), ("claim", "set"), ("claim", "wrong"), ("claim", "stale"), ("over", nil),
            ("abandoned", nil), ("teleport", nil), ("claim", "maybe"), ("", ""), ("Join", "Set"),
        ] as [(String, String?)])
    func typeAndResultReadBackAsGiven(type: String, result: String?) throws {
        let event = GameRecord.Event(ms: 7, type: type, name: "ann", cards: ["AS"], result: result)
        #expect(event.type == type && event.result == result)
        #expect(GameRecord.Event.parse(event.json) == event)
        #expect(event.json == event.foundationJSON)
        let decoded = try JSONDecoder().decode(GameRecord.Event.self, from: Data(event.json.utf8))
        #expect(decoded == event)
        #expect(
            event != GameRecord.Event(ms: 7, type: type + "x", name: "ann", cards: ["AS"], result: result))
        #expect(event != GameRecord.Event(ms: 7, type: type, name: "ann", cards: ["AS"], result: "x"))
        var changed = event
        changed.type = "kick"
        changed.by = "bob"
        changed.type = type
        changed.by = nil
        #expect(changed == event, "set back, it is the same event whichever way it is stored")
        changed.result = "set"
        #expect(changed.result == "set" && changed.type == type)
    }

    @Test func theRareFieldsReadBackAndCompareByValue() {
        var event = GameRecord.Event(ms: 5, type: "join", name: "ann")
        let join = event
        event.position = 3
        event.card = "AS"
        #expect(event.position == 3 && event.card == "AS" && event.by == nil && event.options == nil)
        #expect(join.position == nil, "a copy taken before is unchanged")
        #expect(event != join)
        event.position = nil
        event.card = nil
        #expect(event == join, "no rare field set is the same event")
        event.by = "bob"
        event.options = ["mode": "junior"]
        #expect(
            event
                == GameRecord.Event(ms: 5, type: "join", name: "ann", by: "bob", options: ["mode": "junior"]))
        #expect(
            event != GameRecord.Event(ms: 5, type: "join", name: "ann", by: "bob", options: ["mode": "ultra"])
        )
    }

    /// Foundation's coders see the same keys as ever: the journal's JSON is unchanged.
    @Test func foundationsCodersSeeTheNineFields() throws {
        let choose = GameRecord.Event(
            ms: 1200, type: "choose", name: "ann", cards: ["a: AS"], position: 0, card: "AS")
        #expect(
            choose.foundationJSON
                == #"{"card":"AS","cards":["a: AS"],"ms":1200,"name":"ann","position":0,"type":"choose"}"#)
        #expect(choose.json == choose.foundationJSON)
        let vote = GameRecord.Event(ms: 9, type: "vote", name: "bob", options: ["mode": "ultra"])
        #expect(vote.json == #"{"ms":9,"name":"bob","options":{"mode":"ultra"},"type":"vote"}"#)
        for event in [choose, vote, GameRecord.Event(ms: 0, type: "deal")] {
            let decoded = try JSONDecoder().decode(GameRecord.Event.self, from: Data(event.json.utf8))
            #expect(decoded == event)
            #expect(GameRecord.Event.parse(event.json) == event)
        }
        let withNulls = #"{"ms":3,"type":"kick","name":"cy","by":"ann","position":null}"#
        let kick = try JSONDecoder().decode(GameRecord.Event.self, from: Data(withNulls.utf8))
        #expect(kick == GameRecord.Event(ms: 3, type: "kick", name: "cy", by: "ann"))
    }
}
