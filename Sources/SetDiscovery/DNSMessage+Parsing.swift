extension DNSMessage {
    /// Reads a message from `bytes`, checking every length against the bytes there are.
    ///
    /// Bounds are strict, so any input is safe to hand it (it is fuzzed): a message larger than
    /// ``maximumSize`` is refused unread; every count is trusted only as far as the bytes go; a
    /// compression pointer must point before the name it belongs to, so following pointers always
    /// ends; a name is at most 255 bytes once expanded; a record's data must be exactly what its
    /// length says.
    public init(parsing bytes: [UInt8]) throws(DNSParseError) {
        guard bytes.count <= Self.maximumSize else { throw .tooLarge(bytes.count) }
        var reader = DNSReader(bytes)
        id = try reader.uint16()
        let flags = try reader.uint16()
        isResponse = flags & 0x8000 != 0
        opcode = UInt8((flags >> 11) & 0x0F)
        isAuthoritative = flags & 0x0400 != 0
        isTruncated = flags & 0x0200 != 0
        recursionDesired = flags & 0x0100 != 0
        recursionAvailable = flags & 0x0080 != 0
        rcode = UInt8(flags & 0x000F)
        let counts = [try reader.uint16(), try reader.uint16(), try reader.uint16(), try reader.uint16()]
        var questions: [DNSQuestion] = []
        for _ in 0..<counts[0] { questions.append(try reader.question()) }
        var sections: [[DNSRecord]] = [[], [], []]
        for section in 0..<3 {
            for _ in 0..<counts[section + 1] { sections[section].append(try reader.record()) }
        }
        self.questions = questions
        answers = sections[0]
        authorities = sections[1]
        additionals = sections[2]
    }
}

/// Reads the fields of one message, never past its end.
struct DNSReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func uint8() throws(DNSParseError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(at: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16() throws(DNSParseError) -> UInt16 {
        guard offset + 2 <= bytes.count else { throw .truncated(at: offset) }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func uint32() throws(DNSParseError) -> UInt32 {
        UInt32(try uint16()) << 16 | UInt32(try uint16())
    }

    mutating func take(_ count: Int) throws(DNSParseError) -> [UInt8] {
        guard count >= 0, offset + count <= bytes.count else { throw .truncated(at: offset) }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// A name at the current offset, following compression pointers (RFC 1035 §4.1.4). The reader moves
    /// past the name's bytes in place: its labels and the first pointer, if any.
    mutating func name() throws(DNSParseError) -> DNSName {
        let start = offset
        var labels: [[UInt8]] = []
        var wireLength = 1
        var position = offset
        // The bytes at or after this offset may not be jumped to: each pointer must go strictly before
        // the name part it ends, so every jump goes backwards and the walk ends.
        var limit = offset
        var resume: Int?
        while true {
            guard position < bytes.count else { throw .truncated(at: position) }
            let length = Int(bytes[position])
            switch length & 0xC0 {
            case 0x00:
                if length == 0 {
                    offset = resume ?? position + 1
                    guard let name = DNSName(labels: labels) else { throw .nameTooLong(at: start) }
                    return name
                }
                guard position + 1 + length <= bytes.count else { throw .truncated(at: position) }
                wireLength += 1 + length
                guard wireLength <= DNSName.maximumWireLength else { throw .nameTooLong(at: start) }
                labels.append(Array(bytes[position + 1...position + length]))
                position += 1 + length
            case 0xC0:
                guard position + 2 <= bytes.count else { throw .truncated(at: position) }
                let target = (length & 0x3F) << 8 | Int(bytes[position + 1])
                guard target < limit else { throw .badPointer(at: position) }
                if resume == nil { resume = position + 2 }
                limit = target
                position = target
            default:
                throw .badLabel(at: position)
            }
        }
    }

    mutating func question() throws(DNSParseError) -> DNSQuestion {
        let name = try name()
        let type = DNSType(rawValue: try uint16())
        let qClass = try uint16()
        return DNSQuestion(
            name: name, type: type, wantsUnicastResponse: qClass & 0x8000 != 0, qClass: qClass & 0x7FFF)
    }

    mutating func record() throws(DNSParseError) -> DNSRecord {
        let name = try name()
        let type = DNSType(rawValue: try uint16())
        let rrClass = try uint16()
        let ttl = try uint32()
        let length = Int(try uint16())
        let start = offset
        let end = start + length
        guard end <= bytes.count else { throw .truncated(at: start) }
        let data: DNSRecordData
        switch type {
        case .a:
            guard length == 4 else { throw .badData(type: type, at: start) }
            data = .a(try take(4))
        case .aaaa:
            guard length == 16 else { throw .badData(type: type, at: start) }
            data = .aaaa(try take(16))
        case .ptr:
            data = .ptr(try self.name())
        case .srv:
            guard length >= 7 else { throw .badData(type: type, at: start) }
            let priority = try uint16()
            let weight = try uint16()
            let port = try uint16()
            data = .srv(priority: priority, weight: weight, port: port, target: try self.name())
        case .txt:
            var strings: [[UInt8]] = []
            while offset < end {
                let count = Int(try uint8())
                guard offset + count <= end else { throw .badData(type: type, at: offset - 1) }
                strings.append(try take(count))
            }
            // RFC 6763 §6.1: a TXT record with no data is read as one empty string, as the encoder
            // writes an empty record, so what is read encodes and reads back the same.
            data = .txt(strings.isEmpty ? [[]] : strings)
        case .nsec:
            let next = try self.name()
            var types = Set<DNSType>()
            // Type bitmaps (RFC 4034 §4.1.2): a window number, a length of 1 to 32, that many bytes.
            while offset < end {
                let window = Int(try uint8())
                let count = Int(try uint8())
                guard (1...32).contains(count), offset + count <= end else {
                    throw .badData(type: type, at: offset)
                }
                for (index, byte) in try take(count).enumerated() {
                    for bit in 0..<8 where byte & (0x80 >> bit) != 0 {
                        types.insert(DNSType(rawValue: UInt16((window << 8) | (index * 8 + bit))))
                    }
                }
            }
            data = .nsec(next: next, types: types)
        default:
            data = .other(type, try take(length))
        }
        // A name inside the data may not run past it, and the data may not hold bytes its type does not.
        guard offset == end else { throw .badData(type: type, at: start) }
        return DNSRecord(
            name: name, data: data, ttl: ttl, isCacheFlush: rrClass & 0x8000 != 0, rrClass: rrClass & 0x7FFF)
    }
}
