import SetProtocol

/// The line framing protocol.md describes, computed a whole stream at a time, for `LineFramer` to be
/// checked against.
public enum FramingReference {
    /// The frames of `bytes` and how many bytes of an unfinished line stay buffered, by protocol.md: split
    /// at LF, drop one CR before it, and report a line over `cap` bytes as too long, with at most its first
    /// 64 bytes; an unfinished line is reported (and nothing of it kept) as soon as it is over the cap plus
    /// room for a CR.
    public static func frames(_ bytes: [UInt8], cap: Int = LineFramer.maximumLineLength) -> (
        frames: [LineFramer.Frame], buffered: Int
    ) {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let tail = lines.removeLast()
        var frames: [LineFramer.Frame] = []
        // The framer keeps at most cap + 1 bytes (room for a CR), so that is what the prefix comes from.
        func tooLong(_ raw: ArraySlice<UInt8>) -> LineFramer.Frame {
            .tooLong(prefix: Array(raw.prefix(min(64, cap + 1))))
        }
        for raw in lines {
            var line = Array(raw)
            if line.last == 0x0D { line.removeLast() }
            frames.append(line.count > cap ? tooLong(raw) : .line(line))
        }
        if tail.count > cap + 1 {
            frames.append(tooLong(tail))
            return (frames, 0)
        }
        return (frames, tail.count)
    }
}
