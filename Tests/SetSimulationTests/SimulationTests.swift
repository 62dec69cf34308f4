import SetSimulation
import Testing

/// The simulator itself: seeds run clean, a seed replays exactly, and a broken invariant is found and
/// shrunk to the few events that break it. (Thousands of seeds run in scripts/simulate.sh, in release.)
@Suite struct SimulationTests {
    @Test func aFixedSetOfSeedsRunsClean() {
        for seed in UInt64(1)...6 {
            let outcome = Simulation.check(seed: seed, events: 500, clients: 10)
            #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure ?? "") after \(outcome.events)")
        }
    }

    @Test func aSeedReplaysExactly() {
        let events = SimulationEvent.evening(seed: 31, count: 400, clients: 8)
        let first = Simulation(seed: 31, clients: 8)
        let second = Simulation(seed: 31, clients: 8)
        #expect(first.run(events) && second.run(events))
        #expect(first.trace == second.trace)
        #expect(
            first.trace.count >= 400 && first.commands > 200, "a real evening: \(first.commands) commands")
        #expect(first.trace.contains { $0.contains("OK CHOOSE") }, "sets were claimed")
        let other = Simulation(seed: 32, clients: 8)
        other.run(SimulationEvent.evening(seed: 32, count: 400, clients: 8))
        #expect(other.trace != first.trace, "another seed is another evening")
    }

    @Test func everyEveningEndsWithEveryCheckWhateverItsSeededSteps() {
        // The whole-state comparisons run at a seeded subset of steps (one in 2,048 for the snapshot round
        // trip with the default cadence): a short evening reaches none of them, and is still checked
        // whole after its last event.
        for seed in UInt64(3)...5 {
            let simulation = Simulation(seed: seed, clients: 6)
            #expect(simulation.run(SimulationEvent.evening(seed: seed, count: 60, clients: 6)))
            #expect(simulation.wholeStateChecks == 1, "seed \(seed)")
        }
    }

    @Test func aBrokenInvariantIsShrunkToTheEventsThatBreakIt() {
        // A stand-in for a bug: "nobody may see a wrong claim judged".
        let outcome = Simulation.check(seed: 5, events: 600, clients: 8) { trace in
            trace.last?.contains("ERR CHOOSE NOTSET") == true ? "a wrong claim was judged" : nil
        }
        #expect(outcome.failure == "a wrong claim was judged")
        // A wrong claim needs a connection, a name, a room and the claim: a handful of events at most.
        #expect(outcome.events.count <= 6, "\(outcome.events)")
        #expect(outcome.events.last.map { "\($0)".contains("claim") } == true, "\(outcome.events)")
    }
}
