#if canImport(Glibc)
    import Glibc
#endif

/// `set-sim`: runs seeds of the deterministic simulation, or one seed's trace.
///
///     set-sim [SEEDS] [--from S] [--events N] [--clients N] [--check-every N]
///     set-sim --seed S [--events N] [--clients N]
///
/// The first form runs seeds S, S+1, … and ends with `N passed, M failed` (exit 1 if any failed), each
/// failure with its seed and its shrunk events; the second prints that seed's trace, the same bytes on
/// every run.
public enum SimulationCommand {
    /// Runs the command line.
    public static func main() -> Never {
        // Dictionaries and sets iterate in the same order on every run only with deterministic hashing;
        // the simulation must not depend on it, but a trace should not either: start again with it on.
        if getenv("SWIFT_DETERMINISTIC_HASHING") == nil {
            setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
            let arguments = CommandLine.arguments
            var argv = arguments.map { strdup($0) } + [nil]
            execv("/proc/self/exe", &argv)
        }
        var arguments = Array(CommandLine.arguments.dropFirst())
        var seeds = 100
        var from: UInt64 = 1
        var single: UInt64?
        var events = 2_000
        var clients = 12
        var checkEvery = 16
        func number(_ flag: String) -> UInt64 {
            guard !arguments.isEmpty, let value = UInt64(arguments.removeFirst()) else {
                fail("\(flag) takes a whole number")
            }
            return value
        }
        while !arguments.isEmpty {
            let argument = arguments.removeFirst()
            switch argument {
            case "--seed": single = number(argument)
            case "--from": from = number(argument)
            case "--events": events = Int(number(argument))
            case "--clients": clients = max(2, Int(number(argument)))
            case "--check-every": checkEvery = max(1, Int(number(argument)))
            case "-h", "--help":
                print(
                    "usage: set-sim [SEEDS] [--from S] [--events N] [--clients N] [--check-every N]\n"
                        + "       set-sim --seed S [--events N] [--clients N]")
                exit(0)
            default:
                guard let n = Int(argument), n > 0 else { fail("unknown argument '\(argument)'") }
                seeds = n
            }
        }
        if let seed = single {
            let simulation = Simulation(seed: seed, clients: clients)
            simulation.fullCheckEvery = checkEvery
            let passed = simulation.run(SimulationEvent.evening(seed: seed, count: events, clients: clients))
            for line in simulation.trace { print(line) }
            print(passed ? "seed \(seed) passed" : "seed \(seed) failed")
            exit(passed ? 0 : 1)
        }
        var failed = 0
        var commands = 0
        let started = monotonic()
        let cpuAtStart = cpuSeconds()
        for seed in from..<(from + UInt64(seeds)) {
            let outcome = Simulation.check(
                seed: seed, events: events, clients: clients, fullCheckEvery: checkEvery)
            commands += outcome.commands
            guard let failure = outcome.failure else { continue }
            failed += 1
            print("seed \(seed) failed: \(failure)")
            print("  shrunk to \(outcome.events.count) events (replay with: set-sim --seed \(seed)):")
            for event in outcome.events { print("    \(event)") }
        }
        let seconds = monotonic() - started
        // CPU time, not wall time: the machine is shared, and "a minute on one core" is CPU.
        let cpu = cpuSeconds() - cpuAtStart
        let perMinute = cpu > 0 ? Int(Double(commands) / cpu * 60) : 0
        printError(
            "\(commands) commands in \(Int(seconds * 1000)) ms (\(Int(cpu * 1000)) ms of CPU): "
                + "\(perMinute) commands a minute of one core")
        print("\(seeds - failed) passed, \(failed) failed")
        exit(failed == 0 ? 0 : 1)
    }

    private static func fail(_ message: String) -> Never {
        printError("set-sim: \(message)")
        exit(2)
    }

    /// Writes a line to standard error (timings go there: never into a trace).
    private static func printError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// CPU seconds this process used, user and system.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    private static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
