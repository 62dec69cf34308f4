#if canImport(Glibc)
    import Glibc
#endif

/// A channel's queued output, in the order it leaves. Small buffers (protocol lines, a room's events)
/// are copied, as they come, onto the end of a buffer the queue owns, so that a pass's lines for one
/// connection are one run of bytes, written with one `send`; big ones (a snapshot, a page) are kept as
/// they are, not copied: a room's big event is one array shared by every member's channel, and holding a
/// reference keeps it alive and unchanged (no one can write to an array another holder shares without
/// copying it first). The queue's buffers leave gathered in one `sendmsg`.
///
/// Why copy the small ones: a fan-out delivers each line to every member, and holding the line's array
/// cost a reference-count increment as it was queued and a decrement as it was written, both atomic, per
/// member and line; copying fifty bytes costs less than either, and the copy that writing the lines in one
/// `send` needed anyway is no longer made (issue 28).
///
/// One value, so that queueing a buffer on a channel is one access to the channel's state rather than
/// one for each count beside the list (each access to a class's property is checked for exclusivity at
/// run time, and a broadcast queues on every member's channel).
struct OutputQueue {
    private var chunks: [[UInt8]] = []
    /// The first chunk not wholly written, and how many of its bytes were.
    private var start: Int {
        get { Int(startIndex) }
        set { startIndex = UInt32(newValue) }
    }
    private var offset: Int {
        get { Int(startOffset) }
        set { startOffset = UInt32(newValue) }
    }
    /// ``start`` and ``offset`` in 32 bits each, one word for both: a queue never holds four billion
    /// chunks, nor a chunk four billion bytes (the engine drops a connection whose queue passes its
    /// output cap, a few megabytes). The word saved makes a ``SocketChannel`` a 128-byte block of
    /// malloc's instead of 144 (a server holds one for every connection; issue 28).
    private var startIndex: UInt32 = 0
    private var startOffset: UInt32 = 0
    /// Bytes queued and not yet written.
    private(set) var pending = 0
    /// Bytes held, written or not (see ``SocketChannel/retainedOutput``).
    private(set) var held = 0
    /// Whether the channel is finishing or closed: nothing more is queued. Kept here, beside the list, so
    /// that queueing checks it in the same access.
    var isShut = false
    /// Whether the last chunk is the queue's own copy of small buffers, which the next small one joins.
    private var isLastOwned = false

    /// An empty queue; a shut one takes nothing.
    init(isShut: Bool = false) { self.isShut = isShut }

    /// The largest buffer copied onto the queue's own rather than held: a protocol line is tens of bytes,
    /// an event a few of them; a snapshot or a page is kilobytes and shared by many queues.
    static let smallChunk = 1_024
    /// The room a new owned chunk starts with: about a busy pass's lines for one member.
    static let ownedStart = 4_096
    /// The most bytes an owned chunk grows to before the next small buffer starts another: a reader
    /// that falls behind is written from the middle of a chunk, and only whole chunks written are let go
    /// (``compact()``), so this bounds what is held beyond what waits.
    static let ownedLimit = 64 * 1024

    /// Adds a buffer at the end (a small one copied, a big one held), unless the queue is shut; returns
    /// whether it did.
    mutating func append(_ bytes: [UInt8]) -> Bool {
        guard !isShut else { return false }
        let count = bytes.count
        pending += count
        held += count
        guard count <= Self.smallChunk else {
            chunks.append(bytes)
            isLastOwned = false
            return true
        }
        let last = chunks.count - 1
        if isLastOwned, chunks[last].count + count <= Self.ownedLimit {
            // In place: the queue holds the only reference to its own chunk. From a buffer pointer, not
            // the array: appending an array's contents takes a reference to it, an atomic pair per line.
            bytes.withUnsafeBufferPointer { chunks[last].append(contentsOf: $0) }
            return true
        }
        var owned: [UInt8] = []
        owned.reserveCapacity(Swift.max(Self.ownedStart, count))
        bytes.withUnsafeBufferPointer { owned.append(contentsOf: $0) }
        chunks.append(owned)
        isLastOwned = true
        return true
    }

    /// Points `vectors` at the front of the queue (at most their count of buffers); returns how many
    /// it filled. The pointers are good until the queue next changes: it holds every buffer all that
    /// time and nothing writes to them (see the type's comment), so their storage stays put.
    func gather(into vectors: UnsafeMutableBufferPointer<iovec>) -> Int {
        let count = min(chunks.count - start, vectors.count)
        for i in 0..<count {
            let skip = i == 0 ? offset : 0
            chunks[start + i].withUnsafeBytes { raw in
                vectors[i] = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip),
                    iov_len: raw.count - skip)
            }
        }
        return count
    }

    /// Moves the front of the queue past `written` bytes.
    mutating func advance(by written: Int) {
        pending -= written
        var left = written
        while left > 0 {
            let rest = chunks[start].count - offset
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
    /// it (and the rest of the chunk being written), not everything ever sent to it.
    mutating func compact() {
        guard start > 0 else { return }
        for chunk in chunks[..<start] { held -= chunk.count }
        chunks.removeSubrange(..<start)
        start = 0
    }

    /// Empties the queue and lets go of its list: an idle connection holds no output queue.
    mutating func removeAll() {
        self = OutputQueue(isShut: isShut)
    }
}
