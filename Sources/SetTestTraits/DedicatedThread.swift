import Foundation

/// A task executor that runs its jobs, one after another, on one thread it starts for itself; the thread
/// ends after ``finish()`` once its queue is empty. A job that still comes after that (an unstructured
/// task started in the test inherits the executor) gets a thread of its own rather than being lost.
final class DedicatedThread: TaskExecutor, @unchecked Sendable {
    // `jobs`, `isFinished` and `hasEnded` are guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isFinished = false
    private var hasEnded = false

    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.stackSize = 8 << 20  // as a main thread's: some tests recurse deeply in debug builds
        thread.start()
    }

    func enqueue(_ job: UnownedJob) {
        condition.lock()
        defer { condition.unlock() }
        guard !hasEnded else {
            let executor = asUnownedTaskExecutor()
            Thread { job.runSynchronously(on: executor) }.start()
            return
        }
        jobs.append(job)
        condition.signal()
    }

    /// Lets the thread end when it has run every job enqueued so far.
    func finish() {
        condition.lock()
        isFinished = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while let job = next() {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    private func next() -> UnownedJob? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !isFinished { condition.wait() }
        if jobs.isEmpty { hasEnded = true }
        return jobs.isEmpty ? nil : jobs.removeFirst()
    }
}
