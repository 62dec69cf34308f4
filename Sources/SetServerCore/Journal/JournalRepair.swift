/// What a repair of a damaged journal keeps and what it drops, decided on bytes and proven by replaying,
/// without touching a file (`setd --check-journal` prints it, `--repair-journal` writes it).
///
/// Damage costs as little as can be proven:
/// - a damaged record that replays nothing (chat, a finished game, a rating, a claimed name) is dropped
///   alone, since nothing else depends on it;
/// - a damaged header is written again;
/// - a damaged record of a room's play cuts that room from there on (its later records are dropped, the
///   room stays as it was before the damage), and the rest of the journal must replay without it;
/// - anything else, or a cut that does not replay, cuts the journal from the damage on, as before.
///
/// To tell which room a damaged record belongs to, its kind and room are read from the damaged bytes
/// (a flipped byte elsewhere leaves them whole); where they do not read, a single-byte change in them that
/// makes the checksum right names them. That is used only to name the room: a damaged record is never
/// written back. A record end (LF) that was damaged joins two whole records, each with a right checksum:
/// they are split again and both kept.
public struct JournalRepair: Sendable {
    /// One journal line the repair drops.
    public struct Loss: Equatable, Sendable, CustomStringConvertible {
        /// Its line, from 1.
        public var line: Int
        /// Its byte offset.
        public var offset: Int
        /// The record's kind (`claim`, `chat` …), or `?` where it cannot be read.
        public var kind: String
        /// The room it belongs to, where it has one and it can be read.
        public var room: String?
        /// Why it is dropped.
        public var why: String

        public var description: String {
            "line \(line), byte offset \(offset): \(kind)\(room.map { " in \($0)" } ?? ""): \(why)"
        }
    }

    /// The journal to write: a header, then every record kept, in order.
    public var records: [JournalRecord] = []
    /// Every line dropped, in order.
    public var losses: [Loss] = []
    /// What was mended without losing a record.
    public var mended: [String] = []
    /// Whether the journal was damaged at all (a torn last record counts).
    public var isDamaged: Bool { !losses.isEmpty || !mended.isEmpty }

    /// A record's kind and room, as far as they can be read.
    public struct Identity: Equatable, Sendable {
        /// The kind, as the journal spells it.
        public var kind: String
        /// The room, where the kind has one and it reads.
        public var room: String?
    }

    /// One record's worth of the file: the lines it came from, and the record where it reads.
    private struct Entry {
        var line: Int
        var offset: Int
        var record: JournalRecord?
        var identity: Identity?
        /// Why it cannot be used, `nil` for a whole record.
        var problem: String?
    }

    /// Plans the repair of `bytes`, a journal in the current format.
    public static func plan(_ bytes: [UInt8]) -> JournalRepair {
        let entries = read(bytes)
        var unusable: [Int: String] = [:]
        var cutFrom: Int?
        // Each round proves the plan by replaying it. A whole record that does not replay is damage
        // too (its room is cut); a plan whose cuts do not replay cuts everything from the first damage.
        while true {
            let (repair, sources) = decide(entries, unusable: unusable, cuttingEverythingFrom: cutFrom)
            let failure: RestoreError
            do {
                try ServerCore(configuration: ServerConfiguration()).replay(repair.records, isFirst: true)
                return repair
            } catch {
                failure = error
            }
            // Only a header written again has no source, and a lone header always replays.
            guard let source = sources[failure.index] else { return repair }
            let isFirstProblem = unusable[source] == nil && cutFrom == nil
            if unusable[source] == nil { unusable[source] = "it does not replay: \(failure.reason)" }
            if !isFirstProblem {
                let damaged = entries.indices.filter { entries[$0].problem != nil || unusable[$0] != nil }
                cutFrom = min(cutFrom ?? .max, damaged.min() ?? source, source)
            }
        }
    }

    /// The plan for `entries` with these whole records found not to replay, cutting everything from
    /// entry `cutAll` on if set; `sources` names each kept record's entry (`nil` for a header written
    /// again).
    private static func decide(
        _ entries: [Entry], unusable: [Int: String], cuttingEverythingFrom cutAll: Int?
    )
        -> (repair: JournalRepair, sources: [Int?])
    {
        var repair = JournalRepair()
        var sources: [Int?] = []
        var cutRooms: [String: Int] = [:]
        var cutEverythingAt = cutAll
        var first = 0
        if let head = entries.first, head.problem == nil, unusable[0] == nil, case .header = head.record {
            repair.records.append(head.record!)
            sources.append(0)
            first = 1
        } else {
            repair.records.append(.header(version: JournalRecord.formatVersion))
            sources.append(nil)
            if entries.first?.identity?.kind == JournalRecord.headerKind {
                repair.mended.append("line 1: the header is damaged; it is written again")
                first = 1
            } else {
                repair.mended.append("line 1 is not a header; one is written")
            }
        }
        for index in entries.indices.dropFirst(first) {
            let entry = entries[index]
            let problem = entry.problem ?? unusable[index]
            let identity = entry.identity
            func drop(_ why: String) {
                repair.losses.append(
                    Loss(
                        line: entry.line, offset: entry.offset, kind: identity?.kind ?? "?",
                        room: identity?.room, why: why))
            }
            if let cut = cutEverythingAt, index >= cut {
                drop(
                    index == cut
                        ? "\(problem ?? "it does not replay"); the journal is cut from here"
                        : "the journal is cut before it")
                continue
            }
            if let problem {
                switch identity.map({ JournalRecord.damageScope(ofKind: $0.kind) }) ?? .unknown {
                case .alone:
                    drop("\(problem); dropped alone (nothing else depends on it)")
                case .header:
                    drop("\(problem); a second header is dropped")
                case .restart:
                    repair.mended.append("line \(entry.line): a damaged restart record is written again")
                    repair.records.append(.restart(time: 0))
                    sources.append(index)
                case .room where identity?.room != nil:
                    let room = identity!.room!
                    if cutRooms[room] == nil { cutRooms[room] = entry.line }
                    drop("\(problem); room \(room) is cut from here (it stays as it was before this line)")
                case .room, .unknown:
                    cutEverythingAt = index
                    drop("\(problem); what it is cannot be read, so the journal is cut from here")
                }
                continue
            }
            let record = entry.record!
            if let room = record.roomName, let line = cutRooms[room],
                JournalRecord.damageScope(ofKind: record.kind) == .room
            {
                drop("room \(room) was cut at line \(line)")
                continue
            }
            repair.records.append(record)
            sources.append(index)
        }
        return (repair, sources)
    }

    // MARK: Reading damaged bytes

    /// The file's records as entries: whole ones, damaged ones with what can be read of them, and record
    /// ends mended.
    private static func read(_ bytes: [UInt8]) -> [Entry] {
        var lines: [(line: Int, offset: Int, bytes: ArraySlice<UInt8>, hasLF: Bool)] = []
        var start = 0
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: 0x0A)
            let end = newline ?? bytes.count
            lines.append((lines.count + 1, start, bytes[start..<end], newline != nil))
            start = end + 1
        }
        var entries: [Entry] = []
        var i = 0
        while i < lines.count {
            let (line, offset, text, hasLF) = lines[i]
            i += 1
            if let record = whole(text) {
                entries.append(Entry(line: line, offset: offset, record: record, identity: record.identity))
                continue
            }
            if let body = JournalCoding.verifiedBody(text) {
                // The checksum is right, so the bytes are as written: the record itself is wrong.
                entries.append(
                    Entry(
                        line: line, offset: offset, identity: lenientIdentity(body),
                        problem: "the record does not parse"))
                continue
            }
            if let (first, second) = splitJoined(text) {
                entries.append(Entry(line: line, offset: offset, record: first, identity: first.identity))
                entries.append(Entry(line: line, offset: offset, record: second, identity: second.identity))
                continue
            }
            guard hasLF else {
                entries.append(
                    Entry(
                        line: line, offset: offset, identity: lenientIdentity(text),
                        problem: "the last record is torn (a write stopped part-way)"))
                continue
            }
            // A byte that became an LF splits one record over two lines: joined again with the one byte
            // that makes the checksum right, they name the record exactly.
            if i < lines.count, whole(lines[i].bytes) == nil,
                let joined = rejoined(text, lines[i].bytes)
            {
                entries.append(
                    Entry(
                        line: line, offset: offset, identity: joined,
                        problem: "a byte of the record became a line end (lines \(line)-\(line + 1))"))
                i += 1
                continue
            }
            entries.append(
                Entry(
                    line: line, offset: offset, identity: identity(ofDamaged: text),
                    problem: "the record's checksum is wrong"))
        }
        return entries
    }

    /// The record on a line whose checksum is right and that parses.
    private static func whole(_ line: ArraySlice<UInt8>) -> JournalRecord? {
        guard let body = JournalCoding.verifiedBody(line) else { return nil }
        return try? JournalRecord(body: body)
    }

    /// Two whole records glued where the LF between them was damaged.
    private static func splitJoined(_ line: ArraySlice<UInt8>) -> (JournalRecord, JournalRecord)? {
        var index = line.startIndex
        while index < line.endIndex {
            guard let tilde = line[index...].firstIndex(of: 0x7E) else { return nil }
            index = tilde + 1
            let end = tilde + 9  // the checksum's 8 digits, then the byte that was the LF
            guard end < line.endIndex, let first = whole(line[..<end]), let second = whole(line[(end + 1)...])
            else { continue }
            return (first, second)
        }
        return nil
    }

    /// The identity of a record split over `first` and `second` by a byte that became an LF.
    private static func rejoined(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>) -> Identity? {
        var joined = Array(first) + [0] + Array(second)
        for byte in UInt8.min...UInt8.max where byte != 0x0A {
            joined[first.count] = byte
            if let body = JournalCoding.verifiedBody(joined[...]) { return lenientIdentity(body) }
        }
        return nil
    }

    /// What a damaged line is: the kind and room that one changed byte among its first fields makes
    /// checksum-right, or else what can be read of them as they are.
    public static func identity(ofDamaged line: ArraySlice<UInt8>) -> Identity? {
        guard let (body, sum) = bodyAndChecksum(line) else {
            // No checksum to check against: read what is there, up to a checksum's start if any.
            let cut = line.lastIndex(of: 0x7E).map { line[..<$0] } ?? line
            return lenientIdentity(cut)
        }
        if let corrected = correctedIdentity(body, sum) { return corrected }
        return lenientIdentity(body)
    }

    /// The body and the checksum a line says it has, where the line ends with ` ~` and 8 hex digits.
    private static func bodyAndChecksum(_ line: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, UInt32)? {
        guard line.count >= 10 else { return nil }
        let tilde = line.endIndex - 9
        guard line[tilde] == 0x7E, line[tilde - 1] == 0x20 else { return nil }
        guard let sum = UInt32(String(decoding: line[(tilde + 1)...], as: UTF8.self), radix: 16) else {
            return nil
        }
        return (line[..<(tilde - 1)], sum)
    }

    /// The longest a kind, a space, a room name and a space can be: one damaged byte among these is
    /// looked for.
    private static let identityBytes = 40

    /// The kind and room of `body` with one byte among its first fields changed so that its checksum is
    /// `sum`; `nil` where no single change does.
    private static func correctedIdentity(_ body: ArraySlice<UInt8>, _ sum: UInt32) -> Identity? {
        var bytes = Array(body)
        let found: (position: Int, byte: UInt8)? = bytes.withUnsafeBufferPointer { buffer in
            // FNV-1a's step, h' = (h ^ byte) × prime, undoes: the prime is odd, so it has an inverse
            // modulo 2³², and h = (h' × inverse) ^ byte. So the state the hash must reach after each
            // position comes from the checksum, going back over the bytes after it, once; a position
            // can be fixed by one byte when that state, undone over the byte, meets the hash of the
            // bytes before it in all but the low 8 bits. One pass each way, not 255 hashes of the rest
            // for every position (which took seconds for a long archive record).
            let count = buffer.count
            let checked = min(count, identityBytes)
            guard checked > 0 else { return nil }
            // needed[i]: the hash state after byte i for the whole body to hash to `sum`.
            var needed = [UInt32](repeating: 0, count: checked)
            var state = sum
            var index = count - 1
            while index >= 0 {
                if index < checked { needed[index] = state }
                state = (state &* JournalCoding.fnvPrimeInverse) ^ UInt32(buffer[index])
                index -= 1
            }
            var prefix = JournalCoding.fnvOffsetBasis  // FNV-1a of the bytes before `position`
            for position in 0..<checked {
                let original = buffer[position]
                let wanted = (needed[position] &* JournalCoding.fnvPrimeInverse) ^ prefix
                if wanted <= 0xFF, UInt8(wanted) != original { return (position, UInt8(wanted)) }
                prefix = (prefix ^ UInt32(original)) &* JournalCoding.fnvPrime
            }
            return nil
        }
        guard let found else { return nil }
        bytes[found.position] = found.byte
        return lenientIdentity(bytes[...])
    }

    /// The kind and room as the first two fields of `body` read, if the kind is one the journal has.
    static func lenientIdentity(_ body: ArraySlice<UInt8>) -> Identity? {
        let fields = body.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        guard let kind = fields.first.flatMap({ JournalCoding.unescape($0) }),
            JournalRecord.damageScope(ofKind: kind) != .unknown
        else { return nil }
        let hasRoom = JournalRecord.damageScope(ofKind: kind) == .room || kind == "chat" || kind == "archive"
        guard hasRoom else { return Identity(kind: kind) }
        let room = fields.count > 1 ? JournalCoding.unescape(fields[1]) : nil
        return Identity(kind: kind, room: room.flatMap { JournalRecord.isPlausibleRoomName($0) ? $0 : nil })
    }
}

extension JournalRecord {
    /// What a damaged record of a kind costs.
    public enum DamageScope: Sendable {
        /// Nothing else depends on it: dropped alone.
        case alone
        /// The header: written again.
        case header
        /// Everyone went away at a restart: written again.
        case restart
        /// A room's play: the room is cut from it on.
        case room
        /// Not a kind the journal has.
        case unknown
    }

    /// The header's kind.
    public static let headerKind = "setd-journal"

    /// What damage to a record of `kind` costs.
    public static func damageScope(ofKind kind: String) -> DamageScope {
        switch kind {
        case "chat", "archive", "rating", "gain", "name-claim", "name-key", "name-used", "name-free":
            return .alone
        case headerKind: return .header
        case "restart": return .restart
        case "snapshot", "room", "game", "seat", "token", "unseat", "presence", "claim", "choose", "close",
            "ready", "unready", "deal", "clock", "stale", "lock", "kick", "allow", "vote", "countdown",
            "event",
            "rematch",
            "standings-reset":
            return .room
        default: return .unknown
        }
    }

    /// Whether `name` could be a room's name (what `JOIN` accepts).
    static func isPlausibleRoomName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 16
            && name.utf8.allSatisfy {
                $0 == 0x5F || $0 == 0x2D || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                    || (0x61...0x7A).contains($0)
            }
    }

    /// The record's kind, as the journal spells it.
    public var kind: String {
        let body = self.body
        let end = body.firstIndex(of: 0x20) ?? body.endIndex
        return String(decoding: body[..<end], as: UTF8.self)
    }

    /// The room the record belongs to, if it belongs to one.
    public var roomName: String? {
        switch self {
        case .snapshot(let snapshot): return snapshot.name
        case .room(let name, _, _), .close(let name): return name
        case .game(let room, _, _, _, _), .seat(let room, _, _), .token(let room, _, _, _),
            .unseat(let room, _),
            .presence(let room, _, _), .claim(let room, _, _, _), .choose(let room, _, _, _),
            .chat(let room, _, _), .archive(let room, _), .ready(let room, _), .unready(let room, _),
            .deal(let room, _), .clock(let room, _, _),
            .stale(let room, _), .lock(let room, _, _), .kick(let room, _, _, _, _), .allow(let room, _, _),
            .vote(let room, _, _),
            .countdown(let room), .recordEvent(let room, _), .rematch(let room, _),
            .standingsReset(let room, _):
            return room
        case .header, .rating, .gain, .nameClaim, .nameKey, .nameUsed, .nameFree, .restart: return nil
        }
    }

    fileprivate var identity: JournalRepair.Identity { JournalRepair.Identity(kind: kind, room: roomName) }
}
