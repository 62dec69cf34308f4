import SetGame

/// The first journal format, kept only to read journals written before records were escaped.
///
/// Its records were split on `Character`s with free text last, so a text ending in U+0600 could break
/// a record; a journal in this format is read once at start-up and rewritten in the current format.
extension JournalRecord {
    /// The record in the first format, without checksum or LF.
    var legacyText: String {
        func pairs(_ options: [(String, String)]) -> String {
            options.map { "\($0)=\($1)" }.joined(separator: " ")
        }
        func time(_ t: Double) -> String { String(Int64((t * 1000).rounded())) }
        switch self {
        // Snapshots and the game-night records came after this format: never written in it.
        case .header, .snapshot, .ready, .unready, .deal, .clock, .stale, .lock, .kick, .allow, .gain, .rating,
            .nameClaim, .vote, .countdown, .nameKey, .nameUsed, .nameFree, .token, .recordEvent, .rematch,
            .standingsReset,
            .restart:
            return ""
        case .room(let name, let seed, let options): return "room \(name) \(seed) \(pairs(options))"
        case .game(let room, let index, let t, let first, let options):
            return "game \(room) \(index) \(time(t)) \(first) \(pairs(options))"
        case .seat(let room, let name, let token): return "seat \(room) \(name) \(token)"
        case .unseat(let room, let name): return "unseat \(room) \(name)"
        case .presence(let room, let name, let isOnline):
            return "presence \(room) \(name) \(isOnline ? "online" : "away")"
        case .claim(let room, let name, let t, let cards):
            return "claim \(room) \(name) \(time(t)) \(cards.joined(separator: " "))"
        case .choose(let room, let name, let t, let position):
            return "choose \(room) \(name) \(time(t)) \(position)"
        case .chat(let room, let name, let text): return "chat \(room) \(name) \(text)"
        case .close(let room): return "close \(room)"
        case .archive(let room, let game):
            let scores = game.scores.map { "\($0.name):\($0.score)" }.joined(separator: ",")
            let entries = game.entries.map { "\($0.seconds) \($0.name) \($0.detail)" }.joined(separator: "|")
            let privacy = game.isPrivate ? "private" : "public"
            return
                "archive \(room) \(time(game.startedAt)) \(time(game.endedAt)) \(privacy) \(scores.isEmpty ? "-" : scores) \(entries)"
        }
    }

    /// Parses a journal line (checksum already removed); `nil` if it is not a record.
    init?(legacyLine line: String) {
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        func pairs(_ items: ArraySlice<String>) -> [(String, String)]? {
            var result: [(String, String)] = []
            for item in items where !item.isEmpty {
                guard let equals = item.firstIndex(of: "=") else { return nil }
                result.append((String(item[..<equals]), String(item[item.index(after: equals)...])))
            }
            return result
        }
        func time(_ text: String) -> Double? { Int64(text).map { Double($0) / 1000 } }
        func rest(from n: Int) -> String { words.count > n ? words[n...].joined(separator: " ") : "" }
        guard let kind = words.first else { return nil }
        let n = words.count
        switch kind {
        case "room" where n >= 3:
            guard let seed = UInt64(words[2]), let options = pairs(words[3...]) else { return nil }
            self = .room(name: words[1], seed: seed, options: options)
        case "game" where n >= 5:
            guard let index = Int(words[2]), let t = time(words[3]), let first = Int(words[4]),
                let options = pairs(words[5...])
            else { return nil }
            self = .game(room: words[1], index: index, time: t, firstRevision: first, options: options)
        case "seat" where n == 4: self = .seat(room: words[1], name: words[2], token: words[3])
        case "unseat" where n == 3: self = .unseat(room: words[1], name: words[2])
        case "presence" where n == 4 && (words[3] == "online" || words[3] == "away"):
            self = .presence(room: words[1], name: words[2], isOnline: words[3] == "online")
        case "claim" where n >= 5:
            guard let t = time(words[3]) else { return nil }
            self = .claim(room: words[1], name: words[2], time: t, cards: Array(words[4...]))
        case "choose" where n == 5:
            guard let t = time(words[3]), let position = Int(words[4]) else { return nil }
            self = .choose(room: words[1], name: words[2], time: t, position: position)
        case "chat" where n >= 3: self = .chat(room: words[1], name: words[2], text: rest(from: 3))
        case "close" where n == 2: self = .close(room: words[1])
        case "archive" where n >= 6:
            guard let started = time(words[2]), let ended = time(words[3]),
                words[4] == "private" || words[4] == "public"
            else { return nil }
            var scores: [(name: String, score: Int)] = []
            if words[5] != "-" {
                for item in words[5].split(separator: ",") {
                    let parts = item.split(separator: ":")
                    guard parts.count == 2, let score = Int(parts[1]) else { return nil }
                    scores.append((String(parts[0]), score))
                }
            }
            var entries: [(seconds: Int, name: String, detail: String)] = []
            let body = rest(from: 6)
            if !body.isEmpty {
                for item in body.split(separator: "|") {
                    let parts = item.split(separator: " ", maxSplits: 2).map(String.init)
                    guard parts.count == 3, let seconds = Int(parts[0]) else { return nil }
                    entries.append((seconds, parts[1], parts[2]))
                }
            }
            self = .archive(
                room: words[1],
                game: ArchivedGame(
                    startedAt: started, endedAt: ended, password: words[4] == "private" ? "" : nil,
                    scores: scores,
                    entries: entries))
        default:
            return nil
        }
    }
}

extension JournalRecord {
    /// Reads a whole line of the first format (`<record> ~<checksum>`); `nil` if its checksum is wrong or
    /// it is not a record. The checksum is found on bytes: that format wrote free text raw, and a text
    /// ending in U+0600 fuses with the space before ` ~` into one `Character`.
    public init?(legacyVerified line: ArraySlice<UInt8>) {
        guard let body = JournalCoding.verifiedBody(line), let text = String(validating: body, as: UTF8.self)
        else { return nil }
        self.init(legacyLine: text)
    }
}
