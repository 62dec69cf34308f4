extension ServerCore {
    /// The bodies of ``snapshotRecords()``, in order, written one after the other into `bytes` (emptied
    /// first, its capacity kept), and where each ends in `ends`: the same bytes as each record's
    /// ``JournalRecord/body``, with no array made per record. A caller comparing two cores' whole states
    /// after every few commands (the engine fuzz target's replay check) keeps both buffers between
    /// calls; two cores' bytes and ends are equal exactly when their snapshot bodies are.
    public func writeSnapshotBodies(into bytes: inout [UInt8], ends: inout [Int]) {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        for record in snapshotRecords() {
            record.appendBody(to: &bytes)
            ends.append(bytes.count)
        }
    }
}
