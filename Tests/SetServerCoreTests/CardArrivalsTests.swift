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

    /// A code packs exactly when it has one to eight bytes, none of them zero or above 0x7F, first byte
    /// highest: checked for every byte at every place against a byte-by-byte reading.
    @Test func aCodePacksAsItsBytesReadOneByOne() {
        func reference(_ code: String) -> UInt64? {
            let bytes = Array(code.utf8)
            guard (1...8).contains(bytes.count), bytes.allSatisfy({ $0 != 0 && $0 < 0x80 }) else {
                return nil
            }
            return bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (56 - 8 * UInt64($1.offset)) }
        }
        var generator = SeededGenerator(seed: 2813)
        for length in 0...10 {
            for place in 0..<max(length, 1) {
                for byte in [0, 1, 0x30, 0x7E, 0x7F] as [UInt8] {
                    var bytes = (0..<length).map { _ in UInt8.random(in: 1...0x7F, using: &generator) }
                    if length > 0 { bytes[place] = byte }
                    let code = String(decoding: bytes, as: UTF8.self)
                    #expect(CardArrivals.pack(code) == reference(code), "\(bytes)")
                }
                // Not ASCII (two bytes, both above 0x7F) at this place.
                let code = String(repeating: "a", count: place) + "é"
                #expect(CardArrivals.pack(code) == reference(code), "\(code)")
            }
        }
        #expect(CardArrivals.pack("1RFT") == 0x3152_4654_0000_0000)
        #expect(CardArrivals.pack("12345678") == 0x3132_3334_3536_3738)
    }

    /// A new board's arrivals, made in one pass and sorted once, are what setting its codes one by one
    /// makes: boards in any order, with repeats, codes that do not pack and codes seen before or not.
    @Test func keepingABoardAgreesWithSettingItsCodesOneByOne() {
        var generator = SeededGenerator(seed: 2812)
        var arrivals = CardArrivals()
        for (index, code) in Self.codes.enumerated() where index % 2 == 0 { arrivals[code] = index }
        for step in 0..<500 {
            let board = (0..<Int.random(in: 0..<16, using: &generator)).map { _ in
                Self.codes.randomElement(using: &generator)!
            }
            var expected = CardArrivals()
            for code in board { expected[code] = arrivals[code] ?? 1_000 + step }
            let kept = arrivals.keeping(board, arrivingAt: 1_000 + step)
            #expect(kept == expected, "board \(board)")
            #expect(kept.count == Set(board).count)
            arrivals = kept
        }
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
