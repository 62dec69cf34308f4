#if canImport(Glibc)
    import Glibc
#endif

/// Splits a byte stream into lines ending in LF (a CR before the LF is dropped), capping line length.
///
/// A line longer than ``maximumLineLength`` is reported once as ``Frame/tooLong(prefix:)`` and the rest of
/// it, up to the next LF, is thrown away, so a client can never make the framer buffer more than the cap.
public struct LineFramer: Sendable {
    /// One unit the framer produced.
    public enum Frame: Equatable, Sendable {
        /// A complete line without its terminator.
        case line([UInt8])
        /// A line that went over the cap; `prefix` is its start, for the error message.
        case tooLong(prefix: [UInt8])
    }

    /// The protocol's line cap, in bytes, not counting the line terminator.
    public static let maximumLineLength = 1024

    /// The cap this framer enforces.
    public let maximumLineLength: Int
    private var pending: [UInt8] = []
    private var isDiscarding = false

    /// Creates a framer with the given cap.
    public init(maximumLineLength: Int = LineFramer.maximumLineLength) {
        precondition(maximumLineLength >= 0, "a line cap is a number of bytes")
        self.maximumLineLength = maximumLineLength
    }

    /// Bytes of an unfinished line held so far.
    public var bufferedCount: Int { pending.count }

    /// Bytes of memory the framer holds for unfinished lines (its buffer's capacity): 0 once drained.
    public var heldCapacity: Int { pending.capacity }

    /// Feeds bytes and calls `body` with every frame they complete, in order.
    public mutating func append(_ bytes: UnsafeRawBufferPointer, _ body: (Frame) -> Void) {
        var start = 0
        let count = bytes.count
        while start < count {
            let newline = Self.indexOfNewline(in: bytes, from: start)
            let end = newline ?? count
            // A whole line within these bytes, with nothing held before it (nearly every line): made
            // from them at once, where going through the held buffer copied it twice and took a new
            // buffer for the next line each time.
            if let newline, pending.isEmpty, !isDiscarding, end - start <= maximumLineLength + 1 {
                let lineEnd = end > start && bytes[end - 1] == 0x0D ? end - 1 : end
                let line = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<lineEnd]))
                body(line.count > maximumLineLength ? .tooLong(prefix: Array(line.prefix(64))) : .line(line))
                start = newline + 1
                continue
            }
            if !isDiscarding {
                let room = maximumLineLength + 1 - pending.count  // +1 leaves space for a CR before LF
                if end - start > room {
                    pending.append(
                        contentsOf: UnsafeRawBufferPointer(
                            rebasing: bytes[start..<(start + min(room, end - start))]))
                    body(.tooLong(prefix: Array(pending.prefix(64))))
                    pending.removeAll(keepingCapacity: false)
                    isDiscarding = true
                } else {
                    // Rebased, so the bytes are copied at once, not one by one through a slice.
                    pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                }
            }
            guard newline != nil else { break }
            if isDiscarding {
                isDiscarding = false
            } else {
                if pending.last == 0x0D { pending.removeLast() }
                if pending.count > maximumLineLength {
                    body(.tooLong(prefix: Array(pending.prefix(64))))
                } else {
                    body(.line(pending))
                }
                pending.removeAll(keepingCapacity: pending.count <= 256)
            }
            start = end + 1
        }
        // Drained: an idle connection keeps no buffer (thousands of seated players idle most of the
        // time). Lines within one read still reuse it; the next read allocates afresh.
        if pending.isEmpty, pending.capacity > 0 { pending = [] }
    }

    /// `memchr`: a flood of megabytes without a newline is scanned at memory speed, even in debug builds.
    private static func indexOfNewline(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count,
            let found = memchr(base + start, 0x0A, bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(found) - base
    }

    /// Feeds bytes and returns the frames they complete.
    public mutating func append(_ bytes: [UInt8]) -> [Frame] {
        var frames: [Frame] = []
        bytes.withUnsafeBytes { append($0) { frames.append($0) } }
        return frames
    }
}
