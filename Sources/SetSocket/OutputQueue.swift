#if canImport(Glibc)
    import Glibc
#endif

/// A channel's queued output, in the order it leaves. Small buffers (protocol lines, a room's events)
/// are copied, as they come, onto the end of a buffer the queue owns (its tail), so that a pass's lines
/// for one connection are one run of bytes, written with one `send`; big ones (a snapshot, a page) are
/// kept as they are, not copied: a room's big event is one array shared by every member's channel, and
/// holding a reference keeps it alive and unchanged (no one can write to an array another holder shares
/// without copying it first). The queue's buffers leave gathered in one `sendmsg`.
///
/// Why copy the small ones: a fan-out delivers each line to every member. Holding the line's array cost
/// a reference-count increment as it was queued and a decrement as it was written, both atomic, per
/// member and line, and appending to an array of bytes a call or two more; copying fifty bytes onto raw
/// memory costs less than any of them, and the copy that writing the lines in one `send` needed anyway
/// is no longer made (issue 28).
///
/// One value, so that queueing a buffer on a channel is one access to the channel's state rather than
/// one for each count beside the list. Not copyable: it owns its tail's memory, freed when it goes.
struct OutputQueue: ~Copyable {
    /// What is queued before the tail, in order: big buffers as they came, and copies of tails that
    /// filled or that a big buffer followed.
    private var chunks: [[UInt8]] = []
    /// The tail: `malloc`'s memory of 2^``tailCapacityShift`` bytes, the first ``tailCount`` queued; `nil`
    /// until a small buffer is queued, and again once everything is written.
    private var tail: UnsafeMutableRawPointer?
    private var tailCount: UInt32 = 0
    // The counts in 32 bits each, two to a word: a queue never holds four billion chunks, nor four
    // billion bytes (the engine drops a connection whose queue passes its output cap, a few megabytes;
    // set-cli and the bots queue a few lines at a time; past that, queueing traps rather than wraps).
    // The words saved keep a ``SocketChannel`` a 128-byte block of malloc's with the tail's pointer (a
    // server holds one for every connection; issue 28).
    /// The first buffer not wholly written (``chunks``' count for the tail), and how many of its bytes
    /// were.
    private var startIndex: UInt32 = 0
    private var startOffset: UInt32 = 0
    private var pendingBytes: UInt32 = 0
    /// The tail's capacity as a power of two (its exponent: a byte, not a word); while there is no tail,
    /// the size the next one starts at (see ``removeAll()``).
    private var tailCapacityShift = UInt8(OutputQueue.tailStart.trailingZeroBitCount)
    /// Whether the channel is finishing or closed: nothing more is queued. Kept here, beside the list, so
    /// that queueing checks it in the same access.
    var isShut = false

    /// An empty queue; a shut one takes nothing.
    init(isShut: Bool = false) { self.isShut = isShut }

    deinit { free(tail) }

    /// The largest buffer copied onto the tail rather than held: a protocol line is tens of bytes, an
    /// event a few of them; a snapshot or a page is kilobytes and shared by many queues.
    static let smallChunk = 1_024
    /// The smallest tail (a power of two): a few lines. A connection whose passes carry more starts its
    /// next tail at the size its last one reached (see ``removeAll()``), so a busy member is not grown
    /// from this each pass, and a newcomer's greeting does not hold four kilobytes (ten thousand players
    /// connecting held 26 MB more at the peak with tails of 4 KiB).
    static let tailStart = 1_024
    /// The most bytes a tail grows to before it is moved to the list and a new one begun: a reader that
    /// falls behind is written from the middle of a buffer, and only whole buffers written are let go
    /// (``compact()``), so this bounds what is held beyond what waits.
    static let tailLimit = 64 * 1024

    /// Bytes queued and not yet written.
    var pending: Int { Int(pendingBytes) }

    /// Bytes held, written or not, and the tail's whole allocation (see ``SocketChannel/retainedOutput``).
    var held: Int {
        chunks.reduce(tail == nil ? 0 : 1 << tailCapacityShift) { $0 + $1.count }
    }

    private var start: Int {
        get { Int(startIndex) }
        set { startIndex = UInt32(newValue) }
    }
    private var offset: Int {
        get { Int(startOffset) }
        set { startOffset = UInt32(newValue) }
    }

    /// Adds a buffer at the end (a small one copied, a big one held), unless the queue is shut; returns
    /// whether it did.
    mutating func append(_ bytes: [UInt8]) -> Bool {
        guard !isShut else { return false }
        let count = bytes.count
        pendingBytes += UInt32(count)
        guard count <= Self.smallChunk else {
            sealTail()
            chunks.append(bytes)
            return true
        }
        if Int(tailCount) + count > Self.tailLimit { sealTail() }
        let needed = Int(tailCount) + count
        if tail == nil || needed > 1 << tailCapacityShift { growTail(toHold: needed) }
        // From the array's storage as it is: no reference to it is taken.
        bytes.withUnsafeBytes { source in
            (tail! + Int(tailCount)).copyMemory(from: source.baseAddress!, byteCount: count)
        }
        tailCount += UInt32(count)
        return true
    }

    /// Makes the tail hold at least `count` bytes, keeping what it holds.
    private mutating func growTail(toHold count: Int) {
        var shift = Int(tailCapacityShift)
        while 1 << shift < count { shift += 1 }
        guard let grown = realloc(tail, 1 << shift) else {
            fatalError("out of memory for a channel's output")
        }
        tail = grown
        tailCapacityShift = UInt8(shift)
    }

    /// Moves a copy of the tail, if it holds anything, to the end of ``chunks`` and empties it (keeping
    /// its memory): a big buffer follows it, or it is full. Where the front is (``start``, ``offset``)
    /// does not change: a tail being written from the middle is the same bytes at the same index.
    private mutating func sealTail() {
        guard let tail, tailCount > 0 else { return }
        chunks.append(Array(UnsafeRawBufferPointer(start: tail, count: Int(tailCount))))
        tailCount = 0
    }

    /// Points `vectors` at the front of the queue (at most their count of buffers); returns how many
    /// it filled. The pointers are good until the queue next changes: it holds every buffer all that
    /// time and nothing writes to them (see the type's comment), so their storage stays put.
    func gather(into vectors: UnsafeMutableBufferPointer<iovec>) -> Int {
        let buffers = chunks.count - start + (tailCount > 0 ? 1 : 0)
        let count = min(buffers, vectors.count)
        for i in 0..<count {
            let skip = i == 0 ? offset : 0
            let index = start + i
            if index < chunks.count {
                chunks[index].withUnsafeBytes { raw in
                    vectors[i] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip),
                        iov_len: raw.count - skip)
                }
            } else {
                vectors[i] = iovec(iov_base: tail! + skip, iov_len: Int(tailCount) - skip)
            }
        }
        return count
    }

    /// Moves the front of the queue past `written` bytes.
    mutating func advance(by written: Int) {
        pendingBytes -= UInt32(written)
        var left = written
        while left > 0 {
            let rest = (start < chunks.count ? chunks[start].count : Int(tailCount)) - offset
            if left < rest {
                offset += left
                return
            }
            left -= rest
            start += 1
            offset = 0
        }
    }

    /// Lets go of the chunks written so far, so a peer that reads slowly holds only what still waits for
    /// it (and the rest of the buffer being written), not everything ever sent to it. Called while
    /// something waits, so never past the tail.
    mutating func compact() {
        guard start > 0 else { return }
        chunks.removeSubrange(..<start)
        start = 0
    }

    /// Empties the queue and lets go of its list and its tail: an idle connection holds no output queue.
    /// The next tail starts at this one's size, or half of it if this pass used half or less (never
    /// below ``tailStart``).
    mutating func removeAll() {
        var next = tailCapacityShift
        let smallest = UInt8(Self.tailStart.trailingZeroBitCount)
        if tail != nil, next > smallest, Int(tailCount) * 2 <= 1 << next { next -= 1 }
        self = OutputQueue(isShut: isShut)
        tailCapacityShift = next
    }
}
