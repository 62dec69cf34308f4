import Foundation

/// A game record's JSON, written and read by hand: every archive record in the journal holds one, so
/// the daemon writes it at every game's end and reads it at every start, the replay check and the
/// simulation several times a game, and Foundation's `JSONEncoder`/`JSONDecoder` spend most of their
/// time on generic dispatch and casts (a tenth of the simulation's time went to them).
///
/// The bytes are exactly `JSONEncoder`'s with `.sortedKeys` and `.withoutEscapingSlashes` (tested
/// against it). A field added to the record that this file does not know makes ``GameRecord/json``
/// fall back to `JSONEncoder` (the shape is checked once per process, by reflection), so nothing is
/// ever left out; the tests say so, to have the field added here too.
extension GameRecord {
    /// The record as JSON, keys sorted so that the same game always prints the same bytes.
    public var json: String {
        guard Self.isWrittenByHand else { return foundationJSON }
        var writer = JSONBytesWriter()
        writer.write(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The record as `JSONEncoder` writes it (sorted keys, slashes as they are): the reference the
    /// hand-written ``json`` equals.
    public var foundationJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, numbers and arrays cannot fail.
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// Reads a record back from its JSON, `nil` if it is not one. JSON as ``json`` writes it is read by
    /// hand (and taken only if it writes back to the same bytes, so it is read exactly as
    /// `JSONDecoder` would read it); anything else goes to `JSONDecoder`.
    public static func parse(_ json: String) -> GameRecord? {
        if let record = parseAsWritten(json) { return record }
        return try? JSONDecoder().decode(GameRecord.self, from: Data(json.utf8))
    }

    /// The record whose ``json`` is exactly `json`, read by hand, or `nil` for any other JSON (which
    /// ``parse(_:)`` leaves to `JSONDecoder`).
    static func parseAsWritten(_ json: String) -> GameRecord? {
        guard isWrittenByHand else { return nil }
        var reader = JSONBytesReader(Array(json.utf8))
        guard let record = reader.gameRecord(), reader.isAtEnd else { return nil }
        var writer = JSONBytesWriter(capacity: reader.bytes.count)
        writer.write(record)
        return JournalCoding.sameBytes(writer.bytes[...], reader.bytes[...]) ? record : nil
    }

    /// The stored properties, by name, that the hand-written JSON writes, per type.
    static let handWrittenFields = (
        record: [
            "id", "room", "kind", "options", "startedAtMs", "durationMs", "deck", "players", "dealtIn", "end",
            "events", "omitted", "sheet",
        ],
        // An event's time, type and result are stored inline or in its details (a long time, texts); the
        // writer reads them through `ms`, `type` and `result`.
        event: ["shortMs", "typeWord", "resultWord", "name", "cards", "details"],
        eventDetails: ["position", "card", "by", "options", "typeText", "resultText", "longMs"],
        row: ["name", "score", "sets", "wrong", "stale", "fastestMs", "meanMs"]
    )

    /// Whether the record's shape is the one this file writes (no field added since).
    static let isWrittenByHand: Bool = {
        let event = Event(ms: 0, type: "")
        let row = SheetRow(name: "", score: 0, sets: 0, wrong: 0, stale: 0, fastestMs: nil, meanMs: nil)
        let record = GameRecord(
            id: "", room: "", kind: "", options: [:], startedAtMs: 0, durationMs: 0, deck: [], players: [],
            events: [event], sheet: [row])
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        let details = Event(ms: 0, type: "", position: 0)
        return labels(record) == handWrittenFields.record && labels(event) == handWrittenFields.event
            && labels(row) == handWrittenFields.row
            && Mirror(reflecting: details).children.first { $0.label == "details" }.map {
                Mirror(reflecting: $0.value).children.first.map { labels($0.value) }
                    == handWrittenFields.eventDetails
            } == true
    }()
}

extension GameRecord.Event {
    /// The event as JSON, keys sorted: how the journal's `event` record keeps it (written by hand, as
    /// ``GameRecord/json`` is: every claim writes one).
    public var json: String {
        guard GameRecord.isWrittenByHand else { return foundationJSON }
        var writer = JSONBytesWriter(capacity: 128)
        writer.write(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The event as `JSONEncoder` writes it: the reference ``json`` equals.
    public var foundationJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// Reads an event back from its JSON, `nil` if it is not one (read by hand when it has exactly the
    /// shape ``json`` writes, as ``GameRecord/parse(_:)`` does).
    public static func parse(_ json: String) -> GameRecord.Event? {
        if GameRecord.isWrittenByHand {
            var reader = JSONBytesReader(Array(json.utf8))
            if let event = reader.event(), reader.isAtEnd {
                var writer = JSONBytesWriter(capacity: reader.bytes.count)
                writer.write(event)
                if JournalCoding.sameBytes(writer.bytes[...], reader.bytes[...]) { return event }
            }
        }
        return try? JSONDecoder().decode(GameRecord.Event.self, from: Data(json.utf8))
    }
}

/// Writes a game record as JSON, keys in sorted order, strings escaped as `JSONEncoder` escapes them.
struct JSONBytesWriter {
    private(set) var bytes: [UInt8] = []

    /// A writer with room for `capacity` bytes: a whole record's 2 KB, or an event's own length (an
    /// event is a few dozen bytes, and a snapshot writes and reads every event of a game: 2 KB each was
    /// an allocation of the slow kind per event).
    init(capacity: Int = 2048) { bytes.reserveCapacity(capacity) }

    /// Forgets what was written, keeping the room: one writer writes a snapshot's events one by one.
    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    mutating func write(_ record: GameRecord) {
        bytes.append(0x7B)
        if let dealtIn = record.dealtIn {
            field("dealtIn")
            strings(dealtIn)
        }
        field("deck")
        strings(record.deck)
        field("durationMs")
        number(record.durationMs)
        if let end = record.end {
            field("end")
            string(end)
        }
        field("events")
        bytes.append(0x5B)
        for (i, event) in record.events.enumerated() {
            if i > 0 { bytes.append(0x2C) }
            write(event)
        }
        bytes.append(0x5D)
        field("id")
        string(record.id)
        field("kind")
        string(record.kind)
        if let omitted = record.omitted {
            field("omitted")
            number(omitted)
        }
        field("options")
        object(record.options)
        field("players")
        strings(record.players)
        field("room")
        string(record.room)
        field("sheet")
        bytes.append(0x5B)
        for (i, row) in record.sheet.enumerated() {
            if i > 0 { bytes.append(0x2C) }
            write(row)
        }
        bytes.append(0x5D)
        field("startedAtMs")
        number(Int(record.startedAtMs))
        bytes.append(0x7D)
    }

    /// A dictionary of strings as an object, keys sorted as `JSONEncoder` sorts them: by their UTF-8
    /// bytes (code point order, not normalized as `String`'s `<` is: "e\u{301}" sorts between "ea" and
    /// "f").
    private mutating func object(_ pairs: [String: String]) {
        bytes.append(0x7B)
        let sorted = pairs.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for pair in sorted {
            key(pair.key)
            string(pair.value)
        }
        bytes.append(0x7D)
    }

    mutating func write(_ event: GameRecord.Event) {
        bytes.append(0x7B)
        if let by = event.by {
            field("by")
            string(by)
        }
        if let card = event.card {
            field("card")
            string(card)
        }
        if let cards = event.cards {
            field("cards")
            strings(cards)
        }
        field("ms")
        number(event.ms)
        if let name = event.name {
            field("name")
            string(name)
        }
        if let options = event.options {
            field("options")
            object(options)
        }
        if let position = event.position {
            field("position")
            number(position)
        }
        if let result = event.result {
            field("result")
            string(result)
        }
        field("type")
        string(event.type)
        bytes.append(0x7D)
    }

    private mutating func write(_ row: GameRecord.SheetRow) {
        bytes.append(0x7B)
        if let fastest = row.fastestMs {
            field("fastestMs")
            number(fastest)
        }
        if let mean = row.meanMs {
            field("meanMs")
            number(mean)
        }
        field("name")
        string(row.name)
        field("score")
        number(row.score)
        field("sets")
        number(row.sets)
        field("stale")
        number(row.stale)
        field("wrong")
        number(row.wrong)
        bytes.append(0x7D)
    }

    /// A key and its colon, after a comma unless it is the first in its object (the object's `{` was
    /// the last byte written), so optional fields need no bookkeeping of which came first.
    private mutating func key(_ name: String) {
        if bytes.last != 0x7B { bytes.append(0x2C) }
        string(name)
        bytes.append(0x3A)
    }

    /// ``key(_:)`` for one of the record's own keys, plain ASCII with nothing to escape: its bytes
    /// copied as the program holds them, not scanned as a `String` each time (a claim writes seven).
    private mutating func field(_ name: StaticString) {
        if bytes.last != 0x7B { bytes.append(0x2C) }
        bytes.append(0x22)
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(0x22)
        bytes.append(0x3A)
    }

    private mutating func strings(_ list: [String]) {
        bytes.append(0x5B)
        for (i, item) in list.enumerated() {
            if i > 0 { bytes.append(0x2C) }
            string(item)
        }
        bytes.append(0x5D)
    }

    private mutating func number(_ value: Int) { JournalCoding.appendDecimal(value, to: &bytes) }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A string as `JSONEncoder` writes it: `"` and `\` escaped, the control characters as `\b`, `\t`,
    /// `\n`, `\f`, `\r` or `\u00xx`, everything else (`/`, DEL, non-ASCII) as its UTF-8.
    private mutating func string(_ text: String) {
        bytes.append(0x22)
        // Most strings need no escape: copied whole.
        let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { buffer in
            // Whether JSON escapes any byte (`"`, `\`, the control characters), by comparisons: a table
            // was a lazily made global, checked for being made at every string.
            var any = false
            for byte in buffer { any = any || byte < 0x20 || byte == 0x22 || byte == 0x5C }
            guard !any else { return false }
            bytes.append(contentsOf: buffer)
            return true
        }
        if copied == true {
            bytes.append(0x22)
            return
        }
        for byte in text.utf8 {
            switch byte {
            case 0x22, 0x5C:
                bytes.append(0x5C)
                bytes.append(byte)
            case 0x08: bytes.append(0x5C); bytes.append(0x62)
            case 0x09: bytes.append(0x5C); bytes.append(0x74)
            case 0x0A: bytes.append(0x5C); bytes.append(0x6E)
            case 0x0C: bytes.append(0x5C); bytes.append(0x66)
            case 0x0D: bytes.append(0x5C); bytes.append(0x72)
            case 0..<0x20:
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30])
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }
}

/// Reads a game record from JSON as ``JSONBytesWriter`` writes it: no white space, the escapes it
/// writes; any other shape gives `nil` (and goes to `JSONDecoder`).
struct JSONBytesReader {
    let bytes: [UInt8]
    private var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { i == bytes.count }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard i < bytes.count, bytes[i] == byte else { return false }
        i += 1
        return true
    }

    /// The members of an object, each read by `member` after its key and colon; `false` if malformed.
    private mutating func object(_ member: (inout JSONBytesReader, String) -> Bool) -> Bool {
        guard take(0x7B) else { return false }
        if take(0x7D) { return true }
        repeat {
            guard let key = string(), take(0x3A), member(&self, key) else { return false }
        } while take(0x2C)
        return take(0x7D)
    }

    /// The elements of an array, each read by `element`; `false` if malformed.
    private mutating func array(_ element: (inout JSONBytesReader) -> Bool) -> Bool {
        guard take(0x5B) else { return false }
        if take(0x5D) { return true }
        repeat {
            guard element(&self) else { return false }
        } while take(0x2C)
        return take(0x5D)
    }

    private mutating func strings() -> [String]? {
        var list: [String] = []
        let ok = array { reader in
            guard let item = reader.string() else { return false }
            list.append(item)
            return true
        }
        return ok ? list : nil
    }

    private mutating func number() -> Int? {
        let start = i
        if i < bytes.count, bytes[i] == 0x2D { i += 1 }
        var value = 0
        var digits = 0
        while i < bytes.count, (0x30...0x39).contains(bytes[i]), digits < 18 {
            value = value * 10 + Int(bytes[i] - 0x30)
            digits += 1
            i += 1
        }
        guard digits > 0 else { return nil }
        return bytes[start] == 0x2D ? -value : value
    }

    /// A string with the escapes the writer writes.
    private mutating func string() -> String? {
        guard take(0x22) else { return nil }
        // Most strings (card codes, names) have no escape: made straight from the bytes.
        let plainEnd = bytes.withUnsafeBufferPointer { buffer -> Int? in
            var at = i
            while at < buffer.count, buffer[at] != 0x22, buffer[at] != 0x5C { at += 1 }
            return at < buffer.count && buffer[at] == 0x22 ? at : nil
        }
        if let end = plainEnd {
            defer { i = end + 1 }
            return String(decoding: bytes[i..<end], as: UTF8.self)
        }
        var out: [UInt8] = []
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            switch byte {
            // Bytes that are not UTF-8 come back changed, and the record then does not write back the same.
            case 0x22: return String(decoding: out, as: UTF8.self)
            case 0x5C:
                guard i < bytes.count else { return nil }
                let escaped = bytes[i]
                i += 1
                switch escaped {
                case 0x22, 0x5C: out.append(escaped)
                case 0x62: out.append(0x08)
                case 0x74: out.append(0x09)
                case 0x6E: out.append(0x0A)
                case 0x66: out.append(0x0C)
                case 0x72: out.append(0x0D)
                case 0x75:
                    guard i + 4 <= bytes.count, bytes[i] == 0x30, bytes[i + 1] == 0x30,
                        let high = Self.digit(bytes[i + 2]), let low = Self.digit(bytes[i + 3]), high < 2
                    else { return nil }
                    out.append(high << 4 | low)
                    i += 4
                default: return nil
                }
            default:
                out.append(byte)
            }
        }
        return nil
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// A record with its keys where the writer puts them (sorted, the optional ones left out when
    /// absent): any other order gives `nil`, as any other shape does. Read key by key against the key
    /// expected next, with no text made for a key (what callers do with a record read here — write it
    /// again and compare — would refuse another order anyway).
    mutating func gameRecord() -> GameRecord? {
        guard take(0x7B) else { return nil }
        var first = true
        var dealtIn: [String]?
        if key("dealtIn", &first) {
            guard let list = strings() else { return nil }
            dealtIn = list
        }
        guard key("deck", &first), let deck = strings(), key("durationMs", &first), let durationMs = number()
        else { return nil }
        var end: String?
        if key("end", &first) {
            guard let text = string() else { return nil }
            end = text
        }
        guard key("events", &first) else { return nil }
        var events: [GameRecord.Event] = []
        let eventsRead = array { reader in
            guard let event = reader.event() else { return false }
            events.append(event)
            return true
        }
        guard eventsRead, key("id", &first), let id = string(), key("kind", &first), let kind = string()
        else { return nil }
        var omitted: Int?
        if key("omitted", &first) {
            guard let number = number() else { return nil }
            omitted = number
        }
        guard key("options", &first), let options = pairs(), key("players", &first), let players = strings(),
            key("room", &first), let room = string(), key("sheet", &first)
        else { return nil }
        var sheet: [GameRecord.SheetRow] = []
        let sheetRead = array { reader in
            guard let row = reader.sheetRow() else { return false }
            sheet.append(row)
            return true
        }
        guard sheetRead, key("startedAtMs", &first), let startedAtMs = number(), take(0x7D) else {
            return nil
        }
        return GameRecord(
            id: id, room: room, kind: kind, options: options, startedAtMs: Int64(startedAtMs),
            durationMs: durationMs, deck: deck, players: players, events: events, sheet: sheet,
            dealtIn: dealtIn, end: end, omitted: omitted)
    }

    /// Whether the next key is `name` (after a comma, unless `first`); if so, reads past it and its
    /// colon.
    private mutating func key(_ name: StaticString, _ first: inout Bool) -> Bool {
        let comma = first ? 0 : 1
        let length = name.utf8CodeUnitCount
        // `,` unless first, `"`, the name, `"`, `:`.
        guard bytes.count - i >= comma + length + 3, comma == 0 || bytes[i] == 0x2C, bytes[i + comma] == 0x22,
            bytes[i + comma + length + 1] == 0x22, bytes[i + comma + length + 2] == 0x3A
        else { return false }
        let matches = bytes.withUnsafeBufferPointer { buffer in
            memcmp(buffer.baseAddress! + i + comma + 1, name.utf8Start, length) == 0
        }
        guard matches else { return false }
        i += comma + length + 3
        first = false
        return true
    }

    /// An object of strings.
    private mutating func pairs() -> [String: String]? {
        var pairs: [String: String] = [:]
        let ok = object { reader, key in
            guard let value = reader.string() else { return false }
            pairs[key] = value
            return true
        }
        return ok ? pairs : nil
    }

    /// An event with its keys where the writer puts them (see ``gameRecord()``).
    mutating func event() -> GameRecord.Event? {
        guard take(0x7B) else { return nil }
        var first = true
        var by: String?
        var card: String?
        var cards: [String]?
        var name: String?
        var options: [String: String]?
        var position: Int?
        var result: String?
        if key("by", &first) {
            guard let text = string() else { return nil }
            by = text
        }
        if key("card", &first) {
            guard let text = string() else { return nil }
            card = text
        }
        if key("cards", &first) {
            guard let list = strings() else { return nil }
            cards = list
        }
        guard key("ms", &first), let ms = number() else { return nil }
        if key("name", &first) {
            guard let text = string() else { return nil }
            name = text
        }
        if key("options", &first) {
            guard let pairs = pairs() else { return nil }
            options = pairs
        }
        if key("position", &first) {
            guard let number = number() else { return nil }
            position = number
        }
        if key("result", &first) {
            guard let text = string() else { return nil }
            result = text
        }
        guard key("type", &first), let type = string(), take(0x7D) else { return nil }
        return GameRecord.Event(
            ms: ms, type: type, name: name, cards: cards, result: result, position: position, card: card,
            by: by, options: options)
    }

    private mutating func sheetRow() -> GameRecord.SheetRow? {
        guard take(0x7B) else { return nil }
        var first = true
        var fastestMs: Int?
        var meanMs: Int?
        if key("fastestMs", &first) {
            guard let number = number() else { return nil }
            fastestMs = number
        }
        if key("meanMs", &first) {
            guard let number = number() else { return nil }
            meanMs = number
        }
        guard key("name", &first), let name = string(), key("score", &first), let score = number(),
            key("sets", &first), let sets = number(), key("stale", &first), let stale = number(),
            key("wrong", &first), let wrong = number(), take(0x7D)
        else { return nil }
        return GameRecord.SheetRow(
            name: name, score: score, sets: sets, wrong: wrong, stale: stale, fastestMs: fastestMs,
            meanMs: meanMs)
    }
}

extension RecordWriter {
    /// Appends an event as one field, its JSON (``GameRecord/Event/json``) escaped.
    mutating func append(event: GameRecord.Event) {
        var writer = JSONBytesWriter(capacity: 128)
        append(event, using: &writer)
    }

    /// Appends a count, then each event as one field (see ``append(event:)``): a snapshot holds every
    /// event of its room's game, written here through one buffer with no `String` made for each.
    mutating func append(events: [GameRecord.Event]) {
        append(events.count)
        var writer = JSONBytesWriter(capacity: 256)
        for event in events { append(event, using: &writer) }
    }

    private mutating func append(_ event: GameRecord.Event, using writer: inout JSONBytesWriter) {
        guard GameRecord.isWrittenByHand else { return append(event.json) }
        writer.removeAll()
        writer.write(event)
        append(escaping: writer.bytes)
    }
}
