import Dispatch

/// A value that lives on one serial queue: it may be handed to any thread, but is read or changed only
/// on `queue`, which every access checks.
///
/// This is how the server's state is `Sendable` without locks: Swift cannot prove that a queue owns a
/// value, so the proof is made at run time, on every access, by `dispatchPrecondition`.
public final class QueueConfined<Value>: @unchecked Sendable {
    /// The queue that owns the value.
    public let queue: DispatchQueue
    private let value: Value

    /// Confines `value` to `queue`; from now on it is touched only through ``access(_:)``.
    public init(_ value: Value, to queue: DispatchQueue) {
        self.value = value
        self.queue = queue
    }

    /// Runs `body` with the value; must be called on the owning queue.
    public func access<T>(_ body: (Value) throws -> T) rethrows -> T {
        dispatchPrecondition(condition: .onQueue(queue))
        return try body(value)
    }

    /// Runs `body` with the value on the owning queue and waits for it; never call it from that queue.
    public func sync<T>(_ body: (Value) throws -> T) rethrows -> T {
        dispatchPrecondition(condition: .notOnQueue(queue))
        return try queue.sync { try body(value) }
    }

    /// Runs `body` with the value on the owning queue, later.
    public func async(_ body: @escaping @Sendable (Value) -> Void) {
        queue.async { body(self.value) }
    }
}
