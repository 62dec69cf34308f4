import SetGame
import Testing

@testable import SetServerCore

/// A score sheet's card arrival times, kept packed (issue 28), read back exactly as a dictionary of
/// codes would: the times a player's sets are measured from, and the journal's snapshot, are unchanged.
@Suite struct CardArrivalsTests {
    /// Every kind of code: SET cards, MegaSet's five letters, Matchismo's, and codes no game deals that
    /// do not pack (empty, too long, a zero byte, not ASCII), which must still read back as given.
    static let codes = [
        "1RFT", "3GHT", "2PES", "1RFTW", "4BDX", "AS", "10H", "KD", "", "123456789", "a\0b", "é", "12345678",
    ]

    @Test func itAgreesWithADictionaryThroughRandomChanges() {
        var generator = SeededGenerator(seed: 28)
        var arrivals = CardArrivals()
        var oracle: [String: Int] = [:]
        for step in 0..<2_000 {
            let code = Self.codes.randomElement(using: &generator)!
            let time: Int? = Int.random(in: 0..<4, using: &generator) == 0 ? nil : step
            arrivals[code] = time
            oracle[code] = time
            #expect(arrivals.count == oracle.count)
            for code in Self.codes { #expect(arrivals[code] == oracle[code]) }
            #expect(Dictionary(uniqueKeysWithValues: arrivals.map { ($0.key, $0.value) }) == oracle)
        }
    }

    @Test func theOrderTheyArrivedInDoesNotMakeThemDiffer() {
        var forwards = CardArrivals()
        var backwards = CardArrivals()
        for (index, code) in Self.codes.enumerated() { forwards[code] = index }
        for (index, code) in Self.codes.enumerated().reversed() { backwards[code] = index }
        #expect(forwards == backwards)
        backwards["AS"] = 99
        #expect(forwards != backwards)
    }

    @Test func aNewBoardKeepsTheTimesOfTheCardsStillOnIt() {
        var tally = GameTally()
        tally.noteBoard(["1RFT", "3GHT", "2PES"], at: 10)
        tally.noteBoard(["3GHT", "2PES", "1GFC"], at: 12.5)
        #expect(tally.arrivals.count == 3)
        #expect(tally.arrivals["1RFT"] == nil)
        #expect(tally.arrivals["3GHT"] == 10_000)
        #expect(tally.arrivals["1GFC"] == 12_500)
        // The set's time runs from the arrival of its last card.
        tally.noteSet(by: "ann", cards: ["3GHT", "2PES", "1GFC"], at: 14)
        #expect(tally.entry(for: "ann").fastest == 1_500)
    }

    @Test func aSnapshotOfTheTallyReadsBackAsItWasWritten() throws {
        var night = RoomSnapshot.Night()
        for (index, code) in Self.codes.enumerated() where !code.contains("\0") {
            night.tally.arrivals[code] = 1_000 * index
        }
        let snapshot = RoomSnapshot(
            name: "r", seed: 1, options: [("game", "set")], gameIndex: 0, startedAt: 0, historyTimes: [],
            votes: [], creator: "ann", seats: [], game: .set(SetGame(seed: 1).state), night: night)
        let body = JournalRecord.snapshot(snapshot).body
        let read = try JournalRecord(body: body[...])
        guard case .snapshot(let back) = read else {
            Issue.record("not a snapshot: \(read)")
            return
        }
        #expect(back.night.tally == night.tally)
        #expect(JournalRecord.snapshot(back).body == body)
    }
}
