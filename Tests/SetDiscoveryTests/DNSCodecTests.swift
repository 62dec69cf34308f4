import Testing

@testable import SetDiscovery

/// The DNS message codec: exact bytes for a known query, every record type round-tripped, compression,
/// and the refusals that keep a hostile packet harmless.
@Suite struct DNSCodecTests {
    static let service = DNSName("_setd._tcp.local")!
    static let instance = service.prepending("setd (2)")!
    static let host = DNSName("setd-box.local")!

    static var everyRecord: DNSMessage {
        DNSMessage(
            id: 0x1234, isResponse: true, isAuthoritative: true,
            questions: [DNSQuestion(name: service, type: .ptr, wantsUnicastResponse: true)],
            answers: [
                DNSRecord(name: service, data: .ptr(instance), ttl: 4500),
                DNSRecord(
                    name: instance, data: .srv(priority: 1, weight: 2, port: 7777, target: host), ttl: 120,
                    isCacheFlush: true),
                DNSRecord(
                    name: instance, data: .txt([Array("rooms=3".utf8), [], Array("x".utf8)]), ttl: 4500),
            ],
            authorities: [
                DNSRecord(
                    name: host, data: .nsec(next: host, types: [.a, .aaaa, DNSType(rawValue: 300)]), ttl: 120)
            ],
            additionals: [
                DNSRecord(name: host, data: .a([192, 168, 1, 20]), ttl: 120, isCacheFlush: true),
                DNSRecord(
                    name: host, data: .aaaa([0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1]), ttl: 120),
                DNSRecord(name: host, data: .other(DNSType(rawValue: 99), [1, 2, 3]), ttl: 7),
            ])
    }

    @Test func aPTRQueryIsTheBytesRFC1035Describes() {
        let bytes = ServiceFinder.query(id: 0xBEEF)
        let expected: [UInt8] =
            [0xBE, 0xEF, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]
            + [5] + Array("_setd".utf8) + [4] + Array("_tcp".utf8) + [5] + Array("local".utf8) + [0]
            + [0, 12, 0, 1]
        #expect(bytes == expected)
        let parsed = try? DNSMessage(parsing: bytes)
        #expect(parsed?.questions == [DNSQuestion(name: Self.service, type: .ptr)])
        #expect(parsed?.isResponse == false)
    }

    @Test func everyRecordTypeRoundTrips() throws {
        let message = Self.everyRecord
        let parsed = try DNSMessage(parsing: message.encoded)
        #expect(parsed == message)
        #expect(parsed.encoded == message.encoded)
    }

    @Test func namesAreCompressedAndCompressedNamesRead() throws {
        let bytes = Self.everyRecord.encoded
        // `_setd._tcp.local` is written once; every later name that ends in it points back.
        let full = Array("_setd".utf8)
        var count = 0
        for i in 0..<(bytes.count - full.count) where Array(bytes[i..<i + full.count]) == full { count += 1 }
        #expect(count == 1)
        let uncompressed = Self.everyRecord.records.reduce(0) { $0 + $1.name.wireLength }
        #expect(bytes.count < 12 + uncompressed + 200)
        #expect(try DNSMessage(parsing: bytes).answers[1].name == Self.instance)
    }

    @Test func namesCompareWithoutASCIICase() {
        #expect(DNSName("_SETD._Tcp.LOCAL") == Self.service)
        #expect(Set([DNSName("a.local")!, DNSName("A.LOCAL")!]).count == 1)
        // Outside ASCII, bytes compare exactly.
        #expect(DNSName("É.local") != DNSName("é.local"))
        #expect(Self.instance.description == "setd (2)._setd._tcp.local")
        #expect(DNSName(labels: [Array("a.b".utf8)])!.description == "a\\.b")
    }

    @Test func namesKeepTheirLimits() {
        #expect(DNSName(labels: [[UInt8](repeating: 0x61, count: 63)]) != nil)
        #expect(DNSName(labels: [[UInt8](repeating: 0x61, count: 64)]) == nil)
        #expect(DNSName(labels: [[]]) == nil)
        let long = [[UInt8]](repeating: [UInt8](repeating: 0x61, count: 63), count: 4)
        #expect(DNSName(labels: long) == nil)  // 4 × 64 + 1 = 257 bytes
        #expect(DNSName(labels: Array(long.prefix(3)) + [[UInt8](repeating: 0x61, count: 61)]) != nil)  // 255
    }

    static func header(questions: UInt16 = 0, answers: UInt16 = 0) -> [UInt8] {
        [
            0, 0, 0x84, 0, UInt8(questions >> 8), UInt8(questions & 0xFF), UInt8(answers >> 8),
            UInt8(answers & 0xFF), 0, 0, 0, 0,
        ]
    }

    @Test func pointersThatDoNotPointBackAreRefused() {
        // A pointer to itself, at offset 12.
        let loop = Self.header(questions: 1) + [0xC0, 12, 0, 1, 0, 1]
        #expect(throws: DNSParseError.badPointer(at: 12)) { try DNSMessage(parsing: loop) }
        // A label, then a pointer back to that label: a loop through one label.
        let twoStep = Self.header(questions: 1) + [1, 0x61, 0xC0, 12, 0, 1, 0, 1]
        #expect(throws: DNSParseError.badPointer(at: 14)) { try DNSMessage(parsing: twoStep) }
        // A pointer forward, to a name after it.
        let forward = Self.header(questions: 1) + [0xC0, 18, 0, 1, 0, 1, 1, 0x61, 0]
        #expect(throws: DNSParseError.badPointer(at: 12)) { try DNSMessage(parsing: forward) }
        // Past the end.
        let outside = Self.header(questions: 1) + [0xC0, 200]
        #expect(throws: (any Error).self) { try DNSMessage(parsing: outside) }
    }

    @Test func aChainOfPointersCannotGrowANamePast255Bytes() {
        // Names of one 63-byte label each, each pointing at the one before: the fifth expands to 321
        // bytes.
        var bytes = Self.header(questions: 5)
        var previous: Int?
        for _ in 0..<5 {
            let start = bytes.count
            bytes += [63] + [UInt8](repeating: 0x61, count: 63)
            bytes += previous.map { [0xC0 | UInt8($0 >> 8), UInt8($0 & 0xFF)] } ?? [0]
            bytes += [0, 1, 0, 1]
            previous = start
        }
        #expect(throws: DNSParseError.self) { try DNSMessage(parsing: bytes) }
    }

    @Test func reservedLabelTypesAndShortDataAreRefused() {
        #expect(throws: DNSParseError.badLabel(at: 12)) {
            try DNSMessage(parsing: Self.header(questions: 1) + [0x40, 0, 0, 1, 0, 1])
        }
        #expect(throws: DNSParseError.truncated(at: 0)) { try DNSMessage(parsing: []) }
        #expect(throws: DNSParseError.tooLarge(9001)) {
            try DNSMessage(parsing: [UInt8](repeating: 0, count: 9001))
        }
        // An A record of 5 bytes.
        let badA = Self.header(answers: 1) + [0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 5, 1, 2, 3, 4, 5]
        #expect(throws: DNSParseError.badData(type: .a, at: 23)) { try DNSMessage(parsing: badA) }
        // A TXT string longer than the record's data.
        let badTXT =
            Self.header(answers: 1) + [0, 0, 16, 0, 1, 0, 0, 0, 1, 0, 2, 5, 0x61, 0x61, 0x61, 0x61, 0x61]
        #expect(throws: DNSParseError.self) { try DNSMessage(parsing: badTXT) }
        // An SRV whose target runs past its data.
        let badSRV =
            Self.header(answers: 1) + [0, 0, 33, 0, 1, 0, 0, 0, 1, 0, 7, 0, 0, 0, 0, 0, 80, 1, 0x61, 0]
        #expect(throws: DNSParseError.badData(type: .srv, at: 23)) { try DNSMessage(parsing: badSRV) }
        // A count larger than the records there are.
        #expect(throws: DNSParseError.self) { try DNSMessage(parsing: Self.header(answers: 60000)) }
    }

    @Test func aTXTRecordWithNoDataReadsAsOneEmptyStringAndReadsBackTheSame() throws {
        // Found by the dns fuzz target: a TXT record of length 0 read as no strings, was written as one
        // empty string (RFC 6763 §6.1), and read back as a different record.
        let bytes = Self.header(answers: 1) + [0, 0, 16, 0, 1, 0, 0, 0, 1, 0, 0]
        let message = try DNSMessage(parsing: bytes)
        #expect(message.answers.map(\.data) == [.txt([[]])])
        #expect(message.answers.first?.ttl == 1)
        #expect(try DNSMessage(parsing: message.encoded) == message)
        // The one empty string reads as the same record.
        let oneEmpty = Self.header(answers: 1) + [0, 0, 16, 0, 1, 0, 0, 0, 1, 0, 1, 0]
        #expect(try DNSMessage(parsing: oneEmpty) == message)
    }

    @Test func everyPrefixOfAMessageIsRefusedAndNoneCrashes() {
        let bytes = Self.everyRecord.encoded
        for end in 0..<bytes.count {
            #expect(throws: DNSParseError.self) { try DNSMessage(parsing: Array(bytes[..<end])) }
        }
    }

    @Test func mutatedMessagesNeverCrashAndWhatParsesReencodes() {
        var generator = SplitMix(seed: 27)
        let original = Self.everyRecord.encoded
        var parsedCount = 0
        for _ in 0..<20_000 {
            var bytes = original
            for _ in 0..<(1 + generator.next() % 4) {
                let i = Int(generator.next() % UInt64(bytes.count))
                bytes[i] = UInt8(truncatingIfNeeded: generator.next())
            }
            guard let message = try? DNSMessage(parsing: bytes) else { continue }
            parsedCount += 1
            // What parses, encodes, and reads back as the same message.
            #expect((try? DNSMessage(parsing: message.encoded)) == message)
        }
        #expect(parsedCount > 1000)
    }

    @Test func addressesPrintAndCompareByPrefix() {
        #expect(IPAddress.v6([0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1]).description == "fe80::1")
        #expect(IPAddress.v6([UInt8](repeating: 0, count: 15) + [1]).description == "::1")
        #expect(
            IPAddress(bytes: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 10, 0, 0, 1])
                == .v4([10, 0, 0, 1]))
        let lan = LinkInterface(
            index: 2, name: "eth0", addresses: [.init(.v4([192, 168, 1, 20]), prefixLength: 24)])
        #expect(lan.isOnLink(.v4([192, 168, 1, 99])))
        #expect(!lan.isOnLink(.v4([192, 168, 2, 99])))
        #expect(lan.isOnLink(.v4([169, 254, 3, 4])))
        #expect(!lan.isOnLink(.v6([0x20, 0x01] + [UInt8](repeating: 0, count: 14))))
    }
}

/// A small seeded generator for the mutation test.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
