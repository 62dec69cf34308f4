extension Simulation {
    /// The outcome of one seed.
    public struct Outcome: Sendable {
        /// The seed.
        public var seed: UInt64
        /// What broke, or `nil`.
        public var failure: String?
        /// The events that broke it, shrunk to few (empty when nothing broke).
        public var events: [SimulationEvent]
        /// Lines the clients sent.
        public var commands: Int
    }

    /// Runs the evening of `seed` and, if an invariant breaks, shrinks its events to a short list that
    /// still breaks one: whole chunks are dropped while the run still fails, halving the chunk each pass.
    public static func check(
        seed: UInt64, events count: Int, clients: Int, fullCheckEvery: Int = 16,
        extraInvariant: (@Sendable ([String]) -> String?)? = nil
    ) -> Outcome {
        let events = SimulationEvent.evening(seed: seed, count: count, clients: clients)
        func make() -> Simulation {
            let simulation = Simulation(seed: seed, clients: clients)
            simulation.fullCheckEvery = fullCheckEvery
            simulation.extraInvariant = extraInvariant
            simulation.isTracing = extraInvariant != nil
            return simulation
        }
        let first = make()
        guard !first.run(events), let failure = first.failure else {
            return Outcome(seed: seed, failure: nil, events: [], commands: first.commands)
        }
        func fails(_ candidate: [SimulationEvent]) -> Bool { !make().run(candidate) }
        // Everything after the failing event is not needed.
        let failedAt = first.failedStep ?? events.count - 1
        var kept = Array(events.prefix(failedAt + 1))
        var chunk = max(1, kept.count / 2)
        var budget = 400
        while chunk >= 1, budget > 0 {
            var start = 0
            var removedAny = false
            while start < kept.count, budget > 0 {
                budget -= 1
                let candidate = Array(kept[..<start] + kept[min(kept.count, start + chunk)...])
                if !candidate.isEmpty, fails(candidate) {
                    kept = candidate
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        let last = make()
        last.run(kept)
        return Outcome(seed: seed, failure: last.failure ?? failure, events: kept, commands: first.commands)
    }
}
