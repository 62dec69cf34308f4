extension DNSMessage {
    /// The message on the wire, names compressed against the ones already written (RFC 1035 §4.1.4;
    /// mDNS allows it in the data of PTR, SRV and NSEC records too, RFC 6762 §18.14).
    public var encoded: [UInt8] {
        var writer = DNSWriter()
        writer.uint16(id)
        var flags: UInt16 = isResponse ? 0x8000 : 0
        flags |= UInt16(opcode & 0x0F) << 11
        if isAuthoritative { flags |= 0x0400 }
        if isTruncated { flags |= 0x0200 }
        if recursionDesired { flags |= 0x0100 }
        if recursionAvailable { flags |= 0x0080 }
        flags |= UInt16(rcode & 0x0F)
        writer.uint16(flags)
        for count in [questions.count, answers.count, authorities.count, additionals.count] {
            writer.uint16(UInt16(clamping: count))
        }
        for question in questions.prefix(Int(UInt16.max)) {
            writer.name(question.name)
            writer.uint16(question.type.rawValue)
            writer.uint16(question.qClass & 0x7FFF | (question.wantsUnicastResponse ? 0x8000 : 0))
        }
        for record in (answers.prefix(0xFFFF) + authorities.prefix(0xFFFF) + additionals.prefix(0xFFFF)) {
            writer.record(record)
        }
        return writer.bytes
    }
}

/// Writes the fields of one message, remembering where each name suffix starts for compression.
struct DNSWriter {
    var bytes: [UInt8] = []
    /// Where each name suffix already written starts; only offsets a pointer can hold (below 0x4000).
    private var suffixes: [DNSName: Int] = [:]

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    mutating func uint32(_ value: UInt32) {
        uint16(UInt16(value >> 16))
        uint16(UInt16(value & 0xFFFF))
    }

    mutating func name(_ name: DNSName) {
        var labels = name.labels[...]
        while !labels.isEmpty {
            let suffix = DNSName(labels: Array(labels))!
            if let offset = suffixes[suffix] {
                uint16(0xC000 | UInt16(offset))
                return
            }
            if bytes.count < 0x4000 { suffixes[suffix] = bytes.count }
            let label = labels.removeFirst()
            bytes.append(UInt8(label.count))
            bytes += label
        }
        bytes.append(0)
    }

    mutating func record(_ record: DNSRecord) {
        name(record.name)
        uint16(record.type.rawValue)
        uint16(record.rrClass & 0x7FFF | (record.isCacheFlush ? 0x8000 : 0))
        uint32(record.ttl)
        let lengthAt = bytes.count
        uint16(0)
        data(record.data)
        let length = UInt16(clamping: bytes.count - lengthAt - 2)
        bytes[lengthAt] = UInt8(length >> 8)
        bytes[lengthAt + 1] = UInt8(length & 0xFF)
    }

    /// Writes a record's data (after its length field, which the caller fills in).
    mutating func data(_ data: DNSRecordData) {
        switch data {
        case .a(let address), .aaaa(let address):
            bytes += address
        case .ptr(let target):
            name(target)
        case .srv(let priority, let weight, let port, let target):
            uint16(priority)
            uint16(weight)
            uint16(port)
            name(target)
        case .txt(let strings):
            // An empty TXT record is one empty string (RFC 6763 §6.1), never no bytes at all.
            for string in strings.isEmpty ? [[]] : strings {
                let string = string.prefix(255)
                bytes.append(UInt8(string.count))
                bytes += string
            }
        case .nsec(let next, let types):
            // The next name is written whole: RFC 6762 §18.14 allows compression there, but some
            // readers do not expect it.
            for label in next.labels {
                bytes.append(UInt8(label.count))
                bytes += label
            }
            bytes.append(0)
            var windows: [Int: [UInt8]] = [:]
            for type in types {
                let window = Int(type.rawValue >> 8)
                let low = Int(type.rawValue & 0xFF)
                var map = windows[window] ?? []
                if map.count <= low / 8 { map += [UInt8](repeating: 0, count: low / 8 + 1 - map.count) }
                map[low / 8] |= 0x80 >> (low % 8)
                windows[window] = map
            }
            for window in windows.keys.sorted() {
                bytes.append(UInt8(window))
                bytes.append(UInt8(windows[window]!.count))
                bytes += windows[window]!
            }
        case .other(_, let raw):
            bytes += raw.prefix(0xFFFF)
        }
    }
}

extension DNSRecordData {
    /// The data on the wire without compression: what simultaneous probes compare, byte by byte
    /// (RFC 6762 §8.2).
    public var canonicalBytes: [UInt8] {
        var writer = DNSWriter()
        writer.data(self)
        return writer.bytes
    }
}
