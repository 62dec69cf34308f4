import Foundation
import Testing

/// Runs each test of a suite (or one test) on a thread of its own.
///
/// Swift Testing calls a synchronous test on a thread of the cooperative pool, which has one thread per
/// core: two on our machines. A test that waits — on a socket, a child process (`setd`, `set-cli` in
/// tmux, node, Chromium) or the clock — holds its thread while it waits, so two such tests stalled every
/// other test in the run. Under this trait each test runs on its own thread (``DedicatedThread``, as the
/// task's executor preference, so `#expect` still knows which test it is in). At most ``OwnThread/width``
/// suites carrying it run at once: enough to overlap their waits, few enough that the daemons and clients
/// they start are not starved into their timeouts. The wait for a place is taken before a suite starts,
/// never inside a test, so a test's `.timeLimit` counts only the test. `.serialized` suites stay
/// serialized.
public struct OwnThread: TestTrait, SuiteTrait, TestScoping {
    /// How many suites (or single tests) under this trait may run at once. Measured on 2 cores with the
    /// pure layers optimised: the whole `swift test` took 96 s with 4, 81 s with 6, 81 s with 8 (and more
    /// CPU), all green.
    public static let width = 6

    /// Whether the trait steps aside: when the tests stretch their deadlines (`SETD_TEST_TIME_SCALE`, as
    /// under ThreadSanitizer), every daemon runs several times slower, and overlapping them only crowded
    /// each other past their time limits (17 tests over a minute, tried): there the tests run on the pool,
    /// two at a time, as before.
    static let isOff = ProcessInfo.processInfo.environment["SETD_TEST_TIME_SCALE"] != nil

    private static let gate = Gate(width: width)

    /// Whether this task already holds a place: a nested suite or its tests take none of their own, so
    /// parents cannot fill every place while their children wait for one.
    @TaskLocal private static var holdsPlace = false

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if Self.isOff { return try await function() }
        guard Self.holdsPlace else {
            await Self.gate.enter()
            var failure: (any Error)?
            do {
                try await Self.$holdsPlace.withValue(true) {
                    try await provideScope(for: test, testCase: testCase, performing: function)
                }
            } catch {
                failure = error
            }
            await Self.gate.leave()
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
    public static var ownThread: OwnThread { OwnThread() }
}
