import SetProtocol

/// The server line parser as it was before it moved to bytes, kept as a reference oracle: it splits the
/// line into `Character`s, which is wrong only where a combining or prepend mark fuses with a space, so on
/// ASCII lines the byte parser must agree with it exactly (every field, every malformed shape).
enum ReferenceServerLineParser {
    static func parse(_ text: String) -> ServerLine {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        func rest(after n: Int) -> String {
            var remaining = Substring(text)
            for _ in 0..<n {
                remaining = remaining.drop { $0 == " " }
                remaining = remaining.drop { $0 != " " }
            }
            return String(remaining.dropFirst())
        }
        func pairs(_ items: ArraySlice<String>) -> [(String, String)]? {
            var result: [(String, String)] = []
            for item in items {
                guard let colon = item.lastIndex(of: ":") else { return nil }
                result.append((String(item[..<colon]), String(item[item.index(after: colon)...])))
            }
            return result
        }
        let count = words.count
        switch words.first ?? "" {
        case "SETD" where count >= 2:
            if let version = Int(words[1]) {
                return .greeting(version: version, text: rest(after: 2))
            }
        case "OK" where count >= 2:
            return .ok(verb: words[1], detail: rest(after: 2))
        case "ERR" where count >= 3:
            return .err(verb: words[1], code: ErrorCode(rawValue: words[2]), text: rest(after: 3))
        case "ROOM" where count == 5:
            if let players = Int(words[3]), let game = GameKind(rawValue: words[2]),
                let status = RoomStatus(rawValue: words[4])
            {
                return .room(name: words[1], game: game, players: players, status: status)
            }
        case "OPTIONS":
            // Split at the first `=`: `mode:chain` is not an option, and a value may hold a `:`.
            let options = words.dropFirst().map {
                $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            }
            if options.allSatisfy({ $0.count == 2 }) {
                return .options(options.map { (String($0[0]), String($0[1])) })
            }
        case "BOARD" where count >= 2:
            if let revision = Int(words[1]), let cards = pairs(words.dropFirst(2)) {
                return .board(revision: revision, cards: cards.map { (position: $0.0, card: $0.1) })
            }
        case "DECK" where count == 2:
            if let n = Int(words[1]) {
                return .deck(n)
            }
        case "CHAIN" where count >= 2:
            return .chain(words[1] == "-" ? [] : Array(words.dropFirst()))
        case "TURN" where count == 2:
            return .turn(words[1])
        case "PLAYER" where count == 4:
            if let score = Int(words[2]), words[3] == "online" || words[3] == "away" {
                return .player(name: words[1], score: score, isOnline: words[3] == "online")
            }
        case "JOINED" where count == 2:
            return .joined(words[1])
        case "LEFT" where count == 2:
            return .left(words[1])
        case "SET" where count >= 3:
            return .set(name: words[1], cards: Array(words.dropFirst(2)))
        case "WRONG" where count >= 4:
            if let penalty = Int(words[2]), let colon = words.firstIndex(of: ":"), colon >= 3 {
                return .wrong(
                    name: words[1], penalty: penalty, cards: Array(words[3..<colon]),
                    why: rest(after: colon + 1))
            }
        case "CHOSE" where count >= 3:
            if let points = Int(words[2]) {
                return .chose(name: words[1], points: points, text: rest(after: 3))
            }
        case "CHAT" where count >= 2:
            return .chat(name: words[1], text: rest(after: 2))
        case "NEWGAME" where count == 2:
            return .newGame(words[1])
        case "VOTE" where count >= 4:
            let options = words.dropFirst(4).map {
                $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            }
            if let votes = Int(words[2]), let needed = Int(words[3]), options.allSatisfy({ $0.count == 2 }) {
                return .vote(
                    name: words[1], votes: votes, needed: needed,
                    options: options.map { (String($0[0]), String($0[1])) })
            }
        case "OVER":
            if let scores = pairs(words.dropFirst()), scores.allSatisfy({ Int($0.1) != nil }) {
                return .over(scores.map { (name: $0.0, score: Int($0.1)!) })
            }
        case "HINT" where count == 2:
            if let pair = pairs(words.dropFirst())?.first {
                return .hint(position: pair.0, card: pair.1)
            }
        case "HISTORY": return .history(rest(after: 1))
        case "HELP": return .help(rest(after: 1))
        case "PING": return .ping(rest(after: 1))
        case "BYE": return .bye(rest(after: 1))
        default: break
        }
        return .unknown(text)
    }
}
