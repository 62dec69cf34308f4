import SetGame
import SetProtocol
import Testing

/// Server lines are written straight into bytes (``ServerLine/append(to:)``); what they write must be,
/// byte for byte, the text the protocol fixes. The oracle here is the way lines were made before: each
/// word as a string, interpolated and joined with spaces.
@Suite("Server lines as bytes")
struct ServerLineBytesTests {
    @Test("every sample line's bytes are its text and an LF")
    func samplesWriteTheirText() {
        for (line, text) in ServerLineTests.samples {
            #expect(line.text == text)
            #expect(line.bytes == Array(text.utf8) + [0x0A])
            #expect(Self.joined(line) == text)
        }
    }

    @Test("random lines of every case write what joining their words as strings writes")
    func randomLinesWriteWhatJoiningWrites() {
        var random = SeededGenerator(seed: 22)
        for _ in 0..<20_000 {
            let line = Self.line(&random)
            let expected = Self.joined(line)
            #expect(line.text == expected, "\(line)")
            #expect(line.bytes == Array(expected.utf8) + [0x0A])
            // Appending goes after what the array held, with no space before the line.
            var bytes: [UInt8] = [0x41, 0x0A]
            line.append(to: &bytes)
            #expect(bytes == [0x41, 0x0A] + Array(expected.utf8))
        }
    }

    @Test("numbers are written as their text writes, the extremes and zero included")
    func numbersAreWrittenAsTheirText() {
        for n in [0, 1, -1, 9, 10, -10, 99, 100, 1_000_000, Int.max, Int.min, Int.min + 1] {
            #expect(ServerLine.deck(n).text == "DECK \(n)")
            #expect(ServerLine.player(name: "a", score: n, isOnline: true).text == "PLAYER a \(n) online")
        }
    }

    // MARK: The oracle: lines as strings joined

    static func joined(_ line: ServerLine) -> String {
        switch line {
        case .greeting(let version, let text): return "SETD \(version) \(text)"
        case .ok(let verb, let detail): return detail.isEmpty ? "OK \(verb)" : "OK \(verb) \(detail)"
        case .err(let verb, let code, let text): return "ERR \(verb) \(code.rawValue) \(text)"
        case .room(let name, let game, let players, let status):
            return "ROOM \(name) \(game.rawValue) \(players) \(status.rawValue)"
        case .options(let pairs): return (["OPTIONS"] + pairs.map { "\($0)=\($1)" }).joined(separator: " ")
        case .board(let revision, let cards):
            return (["BOARD", "\(revision)"] + cards.map { "\($0.position):\($0.card)" }).joined(
                separator: " ")
        case .deck(let n): return "DECK \(n)"
        case .chain(let cards): return "CHAIN " + (cards.isEmpty ? "-" : cards.joined(separator: " "))
        case .turn(let name): return "TURN \(name)"
        case .found(let total, let claims):
            return (["FOUND", "\(claims.count)", "\(total)"] + claims.map { $0.joined(separator: ",") })
                .joined(separator: " ")
        case .clock(let ms, let isRunning): return "CLOCK \(ms) \(isRunning ? "running" : "paused")"
        case .player(let name, let score, let isOnline):
            return "PLAYER \(name) \(score) \(isOnline ? "online" : "away")"
        case .joined(let name): return "JOINED \(name)"
        case .left(let name): return "LEFT \(name)"
        case .set(let name, let cards): return (["SET", name] + cards).joined(separator: " ")
        case .wrong(let name, let penalty, let cards, let why):
            return (["WRONG", name, "\(penalty)"] + cards + [":", why]).joined(separator: " ")
        case .chose(let name, let points, let text): return "CHOSE \(name) \(points) \(text)"
        case .chat(let name, let text): return "CHAT \(name) \(text)"
        case .newGame(let name): return "NEWGAME \(name)"
        case .vote(let name, let votes, let needed, let options):
            return (["VOTE", name, "\(votes)", "\(needed)"] + options.map { "\($0)=\($1)" }).joined(
                separator: " ")
        case .over(let scores):
            return (["OVER"] + scores.map { "\($0.name):\($0.score)" }).joined(separator: " ")
        case .hint(let position, let card): return "HINT \(position):\(card)"
        case .history(let text): return "HISTORY \(text)"
        case .help(let text): return "HELP \(text)"
        case .ping(let token): return "PING \(token)"
        case .bye(let reason): return "BYE \(reason)"
        case .ready(let name, let ready, let seated): return "READY \(name) \(ready) \(seated)"
        case .countdown(let n): return "COUNTDOWN \(n)"
        case .host(let name): return "HOST \(name)"
        case .kicked(let name, let host, let reason):
            return reason.map { "KICKED \(name) \(host) \($0)" } ?? "KICKED \(name) \(host)"
        case .countdownStopped: return "COUNTDOWN -"
        case .unready(let name, let ready, let seated): return "UNREADY \(name) \(ready) \(seated)"
        case .started(let ms): return "STARTED \(ms)"
        case .proposal(nil): return "PROPOSAL -"
        case .proposal(let p?):
            return
                (["PROPOSAL", "\(p.votes)", "\(p.needed)", p.voters.joined(separator: ",")]
                + p.options.map { "\($0)=\($1)" }).joined(separator: " ")
        case .locked(let host): return "LOCKED \(host)"
        case .unlocked(let host): return "UNLOCKED \(host)"
        case .stats(let entry): return entry.text
        case .duration(let ms): return "DURATION \(ms)"
        case .rating(let entry): return entry.text
        case .top(let rank, let name, let rating, let games): return "TOP \(rank) \(name) \(rating) \(games)"
        case .token(let token): return "TOKEN \(token)"
        case .notice(let text): return "NOTICE \(text)"
        case .rematch(let name, let offers, let needed): return "REMATCH \(name) \(offers) \(needed)"
        case .standings(let games): return "STANDINGS \(games)"
        case .standing(let row): return row.text
        case .csv(let text): return "CSV \(text)"
        case .unknown(let text): return text
        }
    }

    // MARK: Random lines

    /// Words that test the joints: empty, spaces, punctuation the line uses, text Unicode glues together.
    static let sampleWords = [
        "", "a", "bob", "1RFS", "2GHT", " ", "a b", ":", ",", "=", "-", "e\u{301}", "\u{0600}x", "👩‍👩‍👧", "\t",
        "ſ", "long word here",
    ]

    static func line(_ random: inout SeededGenerator) -> ServerLine {
        func word() -> String { sampleWords[Int(random.next() % UInt64(sampleWords.count))] }
        func words(_ most: Int) -> [String] {
            (0..<Int(random.next() % UInt64(most + 1))).map { _ in word() }
        }
        func number() -> Int {
            switch random.next() % 6 {
            case 0: return 0
            case 1: return -Int(random.next() % 1000)
            case 2: return Int(truncatingIfNeeded: random.next())
            case 3: return [Int.max, Int.min, Int.min + 1][Int(random.next() % 3)]
            default: return Int(random.next() % 100_000)
            }
        }
        func pairs() -> [(String, String)] { (0..<Int(random.next() % 4)).map { _ in (word(), word()) } }
        switch random.next() % 46 {
        case 0: return .greeting(version: number(), text: word())
        case 1: return .ok(verb: word(), detail: word())
        case 2:
            return .err(
                verb: word(), code: [.stale, .notSet, .tooLong][Int(random.next() % 3)], text: word())
        case 3:
            return .room(
                name: word(), game: random.next() % 2 == 0 ? .set : .matchismo, players: number(),
                status: [.playing, .over, .waiting][Int(random.next() % 3)])
        case 4: return .options(pairs())
        case 5: return .board(revision: number(), cards: words(5).map { ($0, word()) })
        case 6: return .deck(number())
        case 7: return .chain(words(3))
        case 8: return .turn(word())
        case 9: return .found(total: number(), claims: (0..<Int(random.next() % 3)).map { _ in words(3) })
        case 10: return .clock(milliseconds: number(), isRunning: random.next() % 2 == 0)
        case 11: return .player(name: word(), score: number(), isOnline: random.next() % 2 == 0)
        case 12: return .joined(word())
        case 13: return .left(word())
        case 14: return .set(name: word(), cards: words(4))
        case 15: return .wrong(name: word(), penalty: number(), cards: words(4), why: word())
        case 16: return .chose(name: word(), points: number(), text: word())
        case 17: return .chat(name: word(), text: word())
        case 18: return .newGame(word())
        case 19: return .vote(name: word(), votes: number(), needed: number(), options: pairs())
        case 20: return .over(words(3).map { ($0, number()) })
        case 21: return .hint(position: word(), card: word())
        case 22: return .history(word())
        case 23: return .help(word())
        case 24: return .ping(word())
        case 25: return .bye(word())
        case 26: return .ready(name: word(), ready: number(), seated: number())
        case 27: return .countdown(number())
        case 28: return .host(word())
        case 29: return .kicked(name: word(), by: word(), reason: random.next() % 2 == 0 ? nil : word())
        case 30: return .countdownStopped
        case 31: return .unready(name: word(), ready: number(), seated: number())
        case 32: return .started(number())
        case 33:
            guard random.next() % 3 != 0 else { return .proposal(nil) }
            return .proposal(Proposal(votes: number(), needed: number(), voters: words(3), options: pairs()))
        case 34: return .locked(word())
        case 35: return .unlocked(word())
        case 36:
            return .stats(
                ScoreSheetEntry(
                    name: word(), sets: number(), wrong: number(), stale: number(), fastest: nil, mean: 3))
        case 37: return .duration(number())
        case 38:
            return .rating(
                RatingEntry(
                    name: word(), mode: word(), rating: number(), games: 1, wins: 2, sets: 3, wrong: 4,
                    stale: 5))
        case 39: return .top(rank: number(), name: word(), rating: number(), games: number())
        case 40: return .token(word())
        case 41: return .notice(word())
        case 42: return .rematch(name: word(), offers: number(), needed: number())
        case 43: return .standings(games: number())
        case 44:
            return .standing(
                StandingRow(place: 1, name: word(), points: number(), wins: 0, games: 1, sets: 2, bestMs: nil)
            )
        default: return random.next() % 2 == 0 ? .csv(word()) : .unknown(word())
        }
    }
}
