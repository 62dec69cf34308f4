import Foundation
import SetServerCore
import Testing

/// A room keeps an event for everyone who sits down, so an event is small in memory: the fields only a
/// Matchismo choice, a kick or a vote has are boxed. Boxed or not, an event reads, compares and writes
/// as the nine fields it has always had.
@Suite struct RecordEventFormTests {
    @Test func anEventIsSmallerThanItsNineFields() {
        #expect(MemoryLayout<GameRecord.Event>.stride <= 72)
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
