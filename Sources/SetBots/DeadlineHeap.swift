/// A min-heap of wake-up times for bots, so that a queue with thousands of thinking bots wakes only the
/// ones that are due.
///
/// Entries are never removed early: a bot that moves its wake-up time pushes a new entry, and the driver
/// skips popped entries that no longer match the bot's current wake-up time.
struct DeadlineHeap {
    struct Entry {
        var time: UInt64
        var bot: Int
    }

    private var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// The earliest entry.
    var first: Entry? { entries.first }

    mutating func push(_ time: UInt64, bot: Int) {
        entries.append(Entry(time: time, bot: bot))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].time < entries[parent].time else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    mutating func popDue(_ now: UInt64) -> Entry? {
        guard let top = entries.first, top.time <= now else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < entries.count else { break }
                let right = left + 1
                let child = right < entries.count && entries[right].time < entries[left].time ? right : left
                guard entries[child].time < entries[parent].time else { break }
                entries.swapAt(child, parent)
                parent = child
            }
        }
        return top
    }
}
