#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The journal's format on bytes: a record is fields separated by one space, then ` ~`, an FNV-1a
/// checksum of everything before it in 8 hex digits, and LF.
///
/// Every field is escaped: `%`, space, `~`, the C0 controls and DEL become `%XX`; every other byte,
/// UTF-8 included, stays as it is. So no text a client can send — a prepend mark, a combining mark, a
/// stray CR — can touch a separator, and records are split, checked and parsed on bytes alone, never
/// on Swift `Character`s (which would glue U+0600 to the space before ` ~`).
public enum JournalCoding {
    private static let hex = Array("0123456789abcdef".utf8)

    /// Whether `byte` must be escaped inside a field.
    static func mustEscape(_ byte: UInt8) -> Bool { escapes[Int(byte)] }

    /// `mustEscape` of each byte value: one load per byte of every field written and read, where it was
    /// four comparisons (which a fuzzer's instrumentation also traces one call each). Made once, never
    /// written after.
    nonisolated(unsafe) private static let escapes: UnsafePointer<Bool> = {
        let table = UnsafeMutablePointer<Bool>.allocate(capacity: 256)
        for value in 0..<256 {
            let byte = UInt8(value)
            table[value] = byte <= 0x20 || byte == 0x25 || byte == 0x7E || byte == 0x7F
        }
        return UnsafePointer(table)
    }()

    /// Whether any byte of `bytes` must be escaped.
    private static func anyMustEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let table = escapes
        var any = false
        for byte in bytes { any = any || table[Int(byte)] }
        return any
    }

    /// Appends `text` escaped; an empty text is written as `%` alone, so it is still a field.
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        if text.isEmpty {
            out.append(0x25)
            return
        }
        // Most fields need no escape: scanned and copied whole from a native string's bytes. One that
        // does (a chat's spaces) is escaped from those bytes too: neither goes through the UTF-8 view byte
        // by byte.
        let written: Bool? = text.utf8.withContiguousStorageIfAvailable { buffer in
            if anyMustEscape(buffer) {
                appendEachEscaped(buffer, to: &out)
            } else {
                out.append(contentsOf: buffer)
            }
            return true
        }
        if written == true { return }
        appendEachEscaped(text.utf8, to: &out)
    }

    /// Appends `bytes` escaped, as ``appendEscaped(_:to:)`` appends the text they are the UTF-8 of.
    static func appendEscaped(bytes: [UInt8], to out: inout [UInt8]) {
        if bytes.isEmpty { return out.append(0x25) }
        bytes.withUnsafeBufferPointer { buffer in
            guard anyMustEscape(buffer) else { return out.append(contentsOf: buffer) }
            appendEachEscaped(buffer, to: &out)
        }
    }

    /// Appends each of `bytes`, a byte that must be escaped as `%` and two hex digits.
    private static func appendEachEscaped(_ bytes: some Sequence<UInt8>, to out: inout [UInt8]) {
        for byte in bytes {
            if mustEscape(byte) {
                // Byte by byte: a three-byte array literal here was an allocation per escaped byte.
                out.append(0x25)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            } else {
                out.append(byte)
            }
        }
    }

    /// Appends `value` in decimal, as `String(value)` writes it.
    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        appendDecimal(magnitude: UInt64(value.magnitude), isNegative: value < 0, to: &bytes)
    }

    /// Appends `magnitude` in decimal, after `-` if `isNegative`.
    static func appendDecimal(magnitude: UInt64, isNegative: Bool, to bytes: inout [UInt8]) {
        if isNegative { bytes.append(0x2D) }
        var value = magnitude
        guard value >= 10 else { return bytes.append(0x30 &+ UInt8(value)) }
        // At most 20 digits, written from the end of a small buffer.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var at = 20
            while value > 0 {
                at -= 1
                digits[at] = 0x30 &+ UInt8(value % 10)
                value /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[at...]))
        }
    }

    /// The text of an escaped field; `nil` for a malformed escape or bytes that are not UTF-8.
    public static func unescape(_ field: ArraySlice<UInt8>) -> String? {
        if field.count == 1 && field.first == 0x25 { return "" }
        // Most fields hold no escape: made straight from the line, with no copy in between. Most are
        // ASCII too, which is UTF-8 as it is: the generic validation (about a thousand instructions a
        // field) is left to the others.
        let (isPlain, isASCII) = field.withUnsafeBufferPointer { buffer in
            let table = escapes
            var (any, high): (Bool, UInt8) = (false, 0)
            for byte in buffer {
                any = any || table[Int(byte)]
                high |= byte
            }
            return (!any, high < 0x80)
        }
        if isPlain {
            return isASCII ? String(decoding: field, as: UTF8.self) : String(validating: field, as: UTF8.self)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.count)
        var i = field.startIndex
        while i < field.endIndex {
            let byte = field[i]
            if byte == 0x25 {
                guard field.endIndex - i >= 3, let high = digit(field[i + 1]), let low = digit(field[i + 2])
                else { return nil }
                bytes.append(high << 4 | low)
                i += 3
            } else {
                guard !mustEscape(byte) else { return nil }
                bytes.append(byte)
                i += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// FNV-1a, 32 bits: enough to tell a torn or scribbled record from a whole one.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        let contiguous = bytes.withContiguousStorageIfAvailable { checksum(buffer: $0) }
        if let contiguous { return contiguous }
        var hash = fnvOffsetBasis
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* fnvPrime }
        return hash
    }

    /// How many LFs `bytes` holds: how many whole lines a journal has, so that the records read from
    /// it are kept in an array made once at its size (a journal record is large, and an array of
    /// them grown by doubling copied them again at every step).
    public static func newlineCount(in bytes: ArraySlice<UInt8>) -> Int {
        var count = 0
        var start = bytes.startIndex
        while let end = firstNewline(in: bytes[start...]) {
            count += 1
            start = end + 1
        }
        return count
    }

    /// Whether `a` and `b` hold the same bytes, compared as memory.
    public static func sameBytes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }

    /// ``checksum(_:)`` of bytes in memory: every byte of every journal line is hashed when it is written
    /// and again when it is read, so the loop runs on a buffer (no index checked against its bounds).
    static func checksum(buffer: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash = fnvOffsetBasis
        for byte in buffer { hash = (hash ^ UInt32(byte)) &* fnvPrime }
        return hash
    }

    /// Where the first LF of `bytes` is, or `nil`: journals are split into lines on their bytes, found
    /// with `memchr` (a line is tens to thousands of bytes; a byte-by-byte search over a slice was a
    /// noticeable part of reading a journal).
    public static func firstNewline(in bytes: ArraySlice<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, !buffer.isEmpty,
                let found = memchr(base, 0x0A, buffer.count)
            else { return nil }
            return bytes.startIndex + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
        }
    }

    /// FNV-1a's 32-bit offset basis: the hash of no bytes.
    static let fnvOffsetBasis: UInt32 = 0x811C_9DC5
    /// FNV-1a's 32-bit prime.
    static let fnvPrime: UInt32 = 0x0100_0193
    /// The prime's inverse modulo 2³² (the two multiply to 1): a step of the hash undone, as the
    /// journal's repair does to find a damaged byte.
    static let fnvPrimeInverse: UInt32 = 0x359C_449B

    /// A whole record: `body`, ` ~`, its checksum, LF.
    public static func line(body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 11)
        appendLine(body: body, to: &out)
        return out
    }

    /// Appends the whole record of `body` (as ``line(body:)`` makes it) to `out`: a journal's pending
    /// bytes and a rewrite take each line where it goes, with no array made for it in between (and the
    /// body copied once, where it had been copied twice).
    public static func appendLine(body: [UInt8], to out: inout [UInt8]) {
        let start = out.count
        out += body
        finishLine(bodyFrom: start, in: &out)
    }

    /// Ends the record whose body is `out[start...]` as ``appendLine(body:to:)`` does: ` ~`, the body's
    /// checksum, LF (for a body written into `out` in place, with no array of its own).
    static func finishLine(bodyFrom start: Int, in out: inout [UInt8]) {
        let sum = out.withUnsafeBufferPointer {
            checksum(buffer: UnsafeBufferPointer(rebasing: $0[start...]))
        }
        out.append(0x20)
        out.append(0x7E)
        for shift in stride(from: 28, through: 0, by: -4) {
            out.append(hex[Int((sum >> UInt32(shift)) & 0xF)])
        }
        out.append(0x0A)
    }

    /// The body of a record line (without its LF) whose checksum is right, or `nil`.
    public static func verifiedBody(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard line.count >= 10 else { return nil }
        let tilde = line.endIndex - 9
        guard line[tilde] == 0x7E, line[tilde - 1] == 0x20 else { return nil }
        var sum: UInt32 = 0
        for byte in line[(tilde + 1)...] {
            guard let d = digit(byte) else { return nil }
            sum = sum << 4 | UInt32(d)
        }
        let body = line[..<(tilde - 1)]
        return body.withUnsafeBufferPointer { checksum(buffer: $0) } == sum ? body : nil
    }
}

/// Builds one record's body, field by field.
struct RecordWriter {
    private(set) var body: [UInt8] = []
    /// Where this record's fields start in ``body``: a writer continuing a buffer of earlier records
    /// (``init(continuing:)``) writes no space before its first field.
    private var start = 0

    init(_ kind: String) { append(kind) }

    /// A writer of fields alone, without a record's kind.
    init() {}

    /// A writer that appends to `buffer`'s bytes (taken, `buffer` left empty until ``finish(into:)``
    /// hands them back with this record's after them).
    init(continuing buffer: inout [UInt8]) {
        swap(&body, &buffer)
        start = body.count
    }

    /// Hands the bytes back to the buffer ``init(continuing:)`` took them from.
    mutating func finish(into buffer: inout [UInt8]) { swap(&body, &buffer) }

    /// Whether a field was written, so the next one needs a space before it.
    private var hasField: Bool { body.count > start }

    mutating func append(_ text: String) {
        if hasField { body.append(0x20) }
        JournalCoding.appendEscaped(text, to: &body)
    }

    // Numbers are written as their digits straight into the body (the bytes `String(number)` has, none
    // of which is escaped), not made into a `String` first: a snapshot holds hundreds of them.
    mutating func append(_ number: Int) {
        if hasField { body.append(0x20) }
        JournalCoding.appendDecimal(number, to: &body)
    }
    mutating func append(_ number: UInt64) {
        if hasField { body.append(0x20) }
        JournalCoding.appendDecimal(magnitude: number, isNegative: false, to: &body)
    }
    mutating func append(_ flag: Bool) { append(flag ? "1" : "0") }
    /// Seconds, kept to the millisecond.
    mutating func append(time: Double) { append(Int(Int64((time * 1000).rounded()))) }
    /// A count, then one field per string.
    mutating func append(list: [String]) {
        append(list.count)
        for item in list { append(item) }
    }

    /// A field of text given as its UTF-8 bytes, escaped as the text itself would be.
    mutating func append(escaping bytes: [UInt8]) {
        if hasField { body.append(0x20) }
        JournalCoding.appendEscaped(bytes: bytes, to: &body)
    }

    /// Fields written before (one or more, escaped and joined), as they were.
    mutating func append(written fields: [UInt8]) {
        if hasField { body.append(0x20) }
        body += fields
    }
}

/// Reads one record's fields in order; each read throws on a missing or malformed field.
struct RecordReader {
    /// Why a record could not be read.
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    private let body: ArraySlice<UInt8>
    /// Where the next field starts in `body`; `nil` once the last field was read. Fields are found one
    /// at a time as they are read (not split into a list first: a list of slices was an allocation and
    /// a retain of the body per field, a tenth of reading a record).
    private var cursor: Int?
    /// How many fields were read (for messages).
    private var next = 0

    init(body: ArraySlice<UInt8>) {
        self.body = body
        cursor = body.startIndex
    }

    var isAtEnd: Bool { cursor == nil }

    /// The fields not read yet, as the bytes they are in the body (empty at the end).
    var unread: ArraySlice<UInt8> { cursor.map { body[$0...] } ?? body[body.endIndex...] }

    /// The next field's bytes as the body holds them (escapes not undone), without reading it: a reader
    /// that knows a field's exact bytes (a card's code) takes them, and ``skip()`` moves on; `nil` at
    /// the end.
    var peekedField: ArraySlice<UInt8>? { cursor.map { body[$0..<fieldEnd(from: $0)] } }

    /// Moves past the next field, taken with ``peekedField``.
    mutating func skip() { _ = nextField() }

    /// The next field, as `split(separator: 0x20, omittingEmptySubsequences: false)` would give it.
    private mutating func nextField() -> ArraySlice<UInt8>? {
        guard let start = cursor else { return nil }
        let end = fieldEnd(from: start)
        move(past: end)
        return body[start..<end]
    }

    /// Moves past the field that ends at `end`.
    private mutating func move(past end: Int) {
        cursor = end < body.endIndex ? end + 1 : nil
        next += 1
    }

    /// Where the field starting at `start` ends: at the next space, or at the body's end.
    private func fieldEnd(from start: Int) -> Int {
        body[start...].withUnsafeBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress, !buffer.isEmpty,
                let found = memchr(base, 0x20, buffer.count)
            else { return body.endIndex }
            return start + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
        }
    }

    mutating func text() throws(Malformed) -> String {
        guard let field = nextField() else { throw Malformed(description: "a field is missing") }
        guard let text = JournalCoding.unescape(field) else {
            throw Malformed(description: "field \(next) is not escaped UTF-8")
        }
        return text
    }

    mutating func int() throws(Malformed) -> Int {
        // Plain digits, the way the journal writes numbers, are read from the bytes; anything else
        // (a sign, a long number, junk) as text, as before.
        if let start = cursor {
            let end = fieldEnd(from: start)
            if let value = Self.plainNumber(body[start..<end]) {
                move(past: end)
                return value
            }
        }
        let field = try text()
        guard let value = Int(field) else { throw Malformed(description: "'\(field)' is not a number") }
        return value
    }

    /// A field of 1 to 18 ASCII digits, optionally after `-`, as a number; `nil` for anything else.
    private static func plainNumber(_ field: ArraySlice<UInt8>) -> Int? {
        var digits = field[...]
        let isNegative = digits.first == 0x2D
        if isNegative { digits = digits.dropFirst() }
        guard (1...18).contains(digits.count) else { return nil }
        var value = 0
        for byte in digits {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte &- 0x30)
        }
        return isNegative ? -value : value
    }

    mutating func uint64() throws(Malformed) -> UInt64 {
        let field = try text()
        guard let value = UInt64(field) else { throw Malformed(description: "'\(field)' is not a number") }
        return value
    }

    mutating func bool() throws(Malformed) -> Bool {
        switch try text() {
        case "1": return true
        case "0": return false
        case let other: throw Malformed(description: "'\(other)' is not 0 or 1")
        }
    }

    mutating func time() throws(Malformed) -> Double { Double(try int()) / 1000 }

    /// A count, at most `limit`, for a list that follows.
    mutating func count(atMost limit: Int = 1 << 20) throws(Malformed) -> Int {
        let n = try int()
        guard (0...limit).contains(n) else { throw Malformed(description: "a count of \(n)") }
        return n
    }

    mutating func list() throws(Malformed) -> [String] {
        var items: [String] = []
        for _ in 0..<(try count()) { items.append(try text()) }
        return items
    }

    func finish() throws(Malformed) {
        guard let cursor else { return }
        let extra = 1 + body[cursor...].reduce(0) { $0 + ($1 == 0x20 ? 1 : 0) }
        throw Malformed(description: "\(extra) fields too many")
    }
}
