import SetGame
import SetTestSupport
import Testing

/// Every mode, replayed against the reference written from the rules on thousands of boards: the same
/// boards, the same claims, the same ends.
@Suite("Modes against their reference")
struct ModeReferenceTests {
    /// How many games each mode replays, so that each compares a thousand boards or more with the
    /// reference in a debug build in one to four seconds (the brute-force reference costs most in 4set,
    /// ghostset, memory and megaset, and their games are long or their boards large).
    static let games: [SetMode: Int] = [
        .normal: 60, .junior: 150, .chain: 40, .ultra: 50, .ultrachain: 26, .ultra9: 60, .megaset: 14,
        .ghostset: 80, .fourSet: 16, .fourSetJunior: 70, .puzzle: 60, .shuffle: 50, .memory: 45,
    ]

    @Test(arguments: SetMode.allCases)
    func theModeAgreesWithItsReference(mode: SetMode) {
        var generator = SeededGenerator(seed: 0xA11 &+ UInt64(mode.rawValue.utf8.count))
        var total = ReplayTally()
        for seed in UInt64(0)..<UInt64(Self.games[mode]!) {
            let tally = replayAgainstReference(mode, seed: seed, choosing: &generator)
            total.boards += tally.boards
            total.claims += tally.claims
            total.refused += tally.refused
        }
        #expect(total.boards >= 1_000, "\(mode): \(total.boards) boards")
        #expect(total.refused > 0)
    }
}
