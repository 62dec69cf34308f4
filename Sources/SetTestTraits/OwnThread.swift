import Foundation
import Testing

/// Runs each test of a suite (or one test) on a thread of its own.
///
/// Swift Testing calls a synchronous test on a thread of the cooperative pool, which has one thread per
/// core: two on our machines. A test that waits — on a socket, a child process (`setd`, `set-cli` in
/// tmux, node, Chromium) or the clock — holds its thread while it waits, so two such tests stalled every
/// other test in the run. Under this trait each test runs on its own thread (``DedicatedThread``, as the
/// task's executor preference, so `#expect` still knows which test it is in). At most ``Lane/width``
/// tests of a lane run at once: enough to overlap their waits, few enough that the daemons and clients
/// they start are not starved into their timeouts. The wait for a place is taken before a test starts,
/// never inside it, so a test's `.timeLimit` counts only the test. `.serialized` suites stay serialized.
public struct OwnThread: TestTrait, SuiteTrait, TestScoping {
    /// Tests that share a limit on how many of them run at once.
    public enum Lane: Sendable {
        /// Tests that mostly wait: on a daemon, `nc`, tmux and `set-cli`, node.
        case waiting
        /// Tests that drive headless Chromium, which keeps a core busy for seconds. Six of them at once
        /// took every place of the waiting lane for most of a run while the other suites queued behind
        /// them, each browser no faster for the company (measured: see ``width``).
        case browser

        /// How many tests of the lane may run at once. Measured on 2 cores with the pure layers
        /// optimised: one lane of 4 for everything made the whole `swift test` 96 s, 6 made it 81 s, 8
        /// made it 81 s (and more CPU), all green. Once the suites' tests reached their lanes from the
        /// start (see ``provideScope(for:testCase:performing:)``), the browser lane was the last to end
        /// (`SETD_TEST_LANE_LOG`, see ``LaneLog``): three browsers at once.
        public var width: Int {
            switch self {
            case .waiting: 6
            case .browser: 3
            }
        }

        fileprivate var gate: Gate {
            switch self {
            case .waiting: OwnThread.waitingGate
            case .browser: OwnThread.browserGate
            }
        }
    }

    /// Whether the trait steps aside: when the tests stretch their deadlines (`SETD_TEST_TIME_SCALE`, as
    /// under ThreadSanitizer), every daemon runs several times slower, and overlapping them only crowded
    /// each other past their time limits (17 tests over a minute, tried): there the tests run on the pool,
    /// two at a time, as before.
    static let isOff = ProcessInfo.processInfo.environment["SETD_TEST_TIME_SCALE"] != nil

    fileprivate static let waitingGate = Gate(width: Lane.waiting.width)
    fileprivate static let browserGate = Gate(width: Lane.browser.width)

    /// Whether this task already holds a place: a nested suite or its tests take none of their own, so
    /// parents cannot fill every place while their children wait for one.
    @TaskLocal private static var holdsPlace = false

    /// The lane whose places the tests take.
    public let lane: Lane

    /// Whether this task already runs a suite's work on a thread of the suite's own.
    @TaskLocal private static var isOnSuiteThread = false

    public var isRecursive: Bool { true }

    /// The suite too, not only its tests (Swift Testing's default for a recursive suite trait): see
    /// ``provideScope(for:testCase:performing:)``.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { self }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if Self.isOff { return try await function() }
        if test.isSuite {
            // Swift Testing starts a suite's tests from the suite's task, and a test reaches its lane
            // only when that task runs. On the pool (two threads) it queued behind the pure tests' CPU
            // work: the waiting lane stood empty for 18 s in the middle of a run while its tests were not
            // yet started, and the browser lane's tests entered it 64 s into another. Here the suite's own
            // work, and its tests' tasks (children inherit the preference), run on a thread of the
            // suite's, which is idle but for that bookkeeping.
            guard !Self.isOnSuiteThread else { return try await function() }
            let thread = DedicatedThread(name: test.name)
            var failure: (any Error)?
            do {
                try await withTaskExecutorPreference(thread) {
                    try await Self.$isOnSuiteThread.withValue(true) { try await function() }
                }
            } catch {
                failure = error
            }
            thread.finish()
            if let failure { throw failure }
            return
        }
        guard Self.holdsPlace else {
            // The wait for a place, the place's release and everything Swift Testing does for the test in
            // between run on a thread of the test's own. On the pool they queued behind every test Swift
            // Testing had started there: a test that had ended kept its place until a pool thread came
            // free, which held six places for the first 25 s of a run (measured by writing every test's
            // start and end to a file).
            let thread = DedicatedThread(name: test.name)
            var failure: (any Error)?
            await withTaskExecutorPreference(thread) {
                await lane.gate.enter()
                LaneLog.note("enter", lane: lane, test: test.name)
                do {
                    try await Self.$holdsPlace.withValue(true) {
                        try await provideScope(for: test, testCase: testCase, performing: function)
                    }
                } catch {
                    failure = error
                }
                LaneLog.note("leave", lane: lane, test: test.name)
                await lane.gate.leave()
            }
            thread.finish()
            if let failure { throw failure }
            return
        }
        // A suite's own scope is its tests'; only a test case gets a thread.
        guard testCase != nil else { return try await function() }
        let thread = DedicatedThread(name: test.name)
        var failure: (any Error)?
        do {
            try await withTaskExecutorPreference(thread) { try await function() }
        } catch {
            failure = error
        }
        thread.finish()
        if let failure { throw failure }
    }
}

extension Trait where Self == OwnThread {
    /// Each test on a thread of its own, for tests that wait on sockets, processes or time (``OwnThread``).
    public static var ownThread: OwnThread { OwnThread(lane: .waiting) }

    /// Each test on a thread of its own, in a lane of its own (``OwnThread/Lane``).
    public static func ownThread(_ lane: OwnThread.Lane) -> OwnThread { OwnThread(lane: lane) }
}
