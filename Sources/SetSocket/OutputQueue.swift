#if canImport(Glibc)
    import Glibc
#endif

/// A channel's queued output, in the order it leaves: the buffers themselves, not copies. A room's
/// event is one array shared by every member's channel; holding a reference keeps it alive and
/// unchanged (no one can write to an array another holder shares without copying it first), so its
/// bytes are written from where they are, gathered with the others in one `sendmsg`.
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
    /// Whether the channel closed: nothing more is queued. Kept here, beside the list, so that queueing
    /// checks it in the same access.
    var isClosed = false

    /// An empty queue; a closed one takes nothing.
    init(isClosed: Bool = false) { self.isClosed = isClosed }

    /// Adds a buffer at the end, unless the channel closed.
    mutating func append(_ bytes: [UInt8]) {
        guard !isClosed else { return }
        // A few lines per pass is the usual queue: room for them at once, not a reallocation per line.
        if chunks.isEmpty { chunks.reserveCapacity(8) }
        chunks.append(bytes)
        pending += bytes.count
        held += bytes.count
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

    /// Whether the queue is many small buffers (lines), written cheaper copied together into one
    /// buffer and sent with one `send` than gathered buffer by buffer: the kernel's cost of a gathered
    /// write grows with its buffers, and copying a few kilobytes of lines costs less than that growth.
    /// A queue of big buffers (a snapshot, a page) is gathered, not copied.
    var isManySmall: Bool {
        let count = chunks.count - start
        return count >= 2 && pending <= count * Self.smallChunk
    }

    /// The largest average buffer a queue may have and still be copied together (see ``isManySmall``):
    /// a protocol line is tens of bytes, an event a few of them.
    static let smallChunk = 1_024

    /// Copies the front of the queue into `buffer`, buffer after buffer, as much as fits; returns how
    /// many bytes it copied. The queue does not change: what the socket takes of them is passed to
    /// ``advance(by:)``, and the rest stays queued, in order.
    func copyFront(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var copied = 0
        var index = start
        var skip = offset
        while index < chunks.count, copied < buffer.count {
            copied += chunks[index].withUnsafeBytes { raw in
                let count = min(raw.count - skip, buffer.count - copied)
                (buffer.baseAddress! + copied).copyMemory(from: raw.baseAddress! + skip, byteCount: count)
                return count
            }
            index += 1
            skip = 0
        }
        return copied
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
        self = OutputQueue(isClosed: isClosed)
    }
}
