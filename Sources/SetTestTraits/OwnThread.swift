import Foundation
import Testing

/// Runs each test of a suite (or one test) on a thread of its own.
///
/// Swift Testing calls a synchronous test on a thread of the cooperative pool, which has one thread per
/// core: two on our machines. A test that waits — on a socket, a child process (`setd`, `set-cli` in
/// tmux, node, Chromium) or the clock — holds its thread while it waits, so two such tests stalled every
/// other test in the run. Under this trait the test runs on its own thread (``DedicatedThread``, as the
/// task's executor preference, so `#expect` still knows which test it is in), and at most
/// ``OwnThread/width`` of them at once: enough to overlap their waits, few enough that the daemons and
/// clients they start are not starved into their timeouts. `.serialized` suites stay serialized.
public struct OwnThread: TestTrait, SuiteTrait, TestScoping {
    /// How many tests may run on threads of their own at once: 6, or 3 when the tests stretch their
    /// deadlines (`SETD_TEST_TIME_SCALE`, as under ThreadSanitizer, where every daemon runs several times
    /// slower and more of them at once would only crowd each other).
    public static let width = ProcessInfo.processInfo.environment["SETD_TEST_TIME_SCALE"] == nil ? 6 : 3

    private static let gate = Gate(width: width)

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope is its tests'; only a test case gets a thread.
        guard testCase != nil else { return try await function() }
        await Self.gate.enter()
        let thread = DedicatedThread(name: test.name)
        var failure: (any Error)?
        do {
            try await withTaskExecutorPreference(thread) { try await function() }
        } catch {
            failure = error
        }
        thread.finish()
        await Self.gate.leave()
        if let failure { throw failure }
    }
}

extension Trait where Self == OwnThread {
    /// Each test on a thread of its own, for tests that wait on sockets, processes or time (``OwnThread``).
    public static var ownThread: OwnThread { OwnThread() }
}
