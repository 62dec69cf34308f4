extension Array {
    /// Calls `body` with this list of optional references read as unmanaged ones, so that a loop over a
    /// room's members can borrow each (`_withUnsafeGuaranteedRef`) instead of retaining and releasing it:
    /// an atomic pair per member and line on the fan-out's hot path (issue 28). The array holds every
    /// member for the whole call. An optional reference and an optional unmanaged one are the same word,
    /// the object's address or zero (`BorrowedMembersTests` pins that).
    @inlinable public func withBorrowedReferences<Object: AnyObject, Result>(
        _ body: (UnsafeBufferPointer<Unmanaged<Object>?>) throws -> Result
    ) rethrows -> Result where Element == Object? {
        try withUnsafeBufferPointer { held in
            try held.withMemoryRebound(to: Unmanaged<Object>?.self, body)
        }
    }
}
