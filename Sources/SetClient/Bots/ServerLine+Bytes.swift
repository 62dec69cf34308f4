import SetProtocol

extension ServerLine {
    /// Parses a line from its bytes, as ``ServerLine/init(parsing:)`` does, with a fast path for the lines
    /// that make up nearly all the traffic of a busy room (`BOARD`, `PLAYER`, `SET`, `DECK`, `ROOM`,
    /// `OVER`, `OK`, `ERR`).
    ///
    /// The fast path works on ASCII bytes and gives up (falling back to the reference parser) on anything
    /// else, so the two can only differ where the tests compare them. A flat-out room delivers hundreds of
    /// thousands of these lines a second, and the reference parser, which splits by `Character`, made the
    /// load tester slower than the server it measures.
    static func parse(bytes: [UInt8]) -> ServerLine {
        bytes.withUnsafeBufferPointer { buffer in
            fastParse(buffer) ?? ServerLine(parsing: String(decoding: buffer, as: UTF8.self))
        }
    }

    /// The first word as a small number: its length and up to seven bytes.
    private static func key(_ word: String) -> UInt64 {
        word.utf8.reduce(UInt64(word.utf8.count)) { $0 << 8 | UInt64($1) }
    }

    private static let boardKey = key("BOARD")
    private static let playerKey = key("PLAYER")
    private static let setKey = key("SET")
    private static let deckKey = key("DECK")
    private static let roomKey = key("ROOM")
    private static let overKey = key("OVER")
    private static let okKey = key("OK")
    private static let errKey = key("ERR")
    private static let onlineKey = key("online")
    private static let awayKey = key("away")

    private static func fastParse(_ b: UnsafeBufferPointer<UInt8>) -> ServerLine? {
        var words: [Range<Int>] = []
        words.reserveCapacity(28)
        var i = 0
        while i < b.count {
            if b[i] == 0x20 {
                i += 1
                continue
            }
            let start = i
            while i < b.count, b[i] != 0x20 {
                if b[i] >= 0x80 { return nil }
                i += 1
            }
            words.append(start..<i)
        }
        guard let first = words.first, first.count <= 7 else { return nil }
        func key(_ k: Int) -> UInt64 {
            let range = words[k]
            guard range.count <= 7 else { return 0 }
            return b[range].reduce(UInt64(range.count)) { $0 << 8 | UInt64($1) }
        }
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
        }
        func word(_ k: Int) -> String { text(words[k]) }
        /// What follows word `n` after one separator, as the reference parser's `rest(after:)` gives it.
        func rest(after n: Int) -> String {
            let end = words[n - 1].upperBound
            return end + 1 <= b.count ? text((end + 1)..<b.count) : ""
        }
        let count = words.count
        switch key(0) {
        case boardKey where count >= 2:
            guard let revision = Int(word(1)) else { return nil }
            var cards: [(position: String, card: String)] = []
            cards.reserveCapacity(count - 2)
            for range in words.dropFirst(2) {
                guard let colon = range.last(where: { b[$0] == 0x3A }) else { return nil }
                cards.append(
                    (position: text(range.lowerBound..<colon), card: text((colon + 1)..<range.upperBound)))
            }
            return .board(revision: revision, cards: cards)
        case playerKey where count == 4:
            guard let score = Int(word(2)) else { return nil }
            switch key(3) {
            case onlineKey: return .player(name: word(1), score: score, isOnline: true)
            case awayKey: return .player(name: word(1), score: score, isOnline: false)
            default: return nil
            }
        case setKey where count >= 3:
            return .set(name: word(1), cards: (2..<count).map(word))
        case deckKey where count == 2:
            return Int(word(1)).map { .deck($0) }
        case roomKey where count == 5:
            guard let players = Int(word(3)) else { return nil }
            return .room(name: word(1), game: word(2), players: players, status: word(4))
        case overKey:
            var scores: [(name: String, score: Int)] = []
            scores.reserveCapacity(count - 1)
            for range in words.dropFirst() {
                guard let colon = range.last(where: { b[$0] == 0x3A }),
                    let score = Int(text((colon + 1)..<range.upperBound))
                else { return nil }
                scores.append((name: text(range.lowerBound..<colon), score: score))
            }
            return .over(scores)
        case okKey where count >= 2:
            return .ok(verb: word(1), detail: rest(after: 2))
        case errKey where count >= 3:
            return .err(verb: word(1), code: word(2), text: rest(after: 3))
        default:
            return nil
        }
    }
}
