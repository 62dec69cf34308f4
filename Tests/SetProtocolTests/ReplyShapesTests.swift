import Foundation
import SetProtocol
import Testing

/// The page's table of reply shapes (`Sources/SetWeb/Page/replies.json`) says what `ServerLine` says:
/// which replies have data lines, how many words their final line has with the count, which lines can
/// be their data, which are snapshot lines, and which are never data. One rule, two languages, checked
/// against each other.
@Suite struct ReplyShapesTests {
    private struct Shapes {
        var snapshot: [String]
        var replies: [String: (words: Int, data: [String])]
        var eventsOnly: [String]
    }

    private static func shapes() throws -> Shapes {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Sources/SetWeb/Page/replies.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let snapshot = try #require(object["snapshot"] as? [String])
        let eventsOnly = try #require(object["eventsOnly"] as? [String])
        var replies: [String: (Int, [String])] = [:]
        for (verb, value) in try #require(object["replies"] as? [String: [String: Any]]) {
            let words = try #require(value["words"] as? Int)
            let data =
                value["data"] as? String == "snapshot" ? snapshot : try #require(value["data"] as? [String])
            replies[verb] = (words, data)
        }
        return Shapes(snapshot: snapshot, replies: replies, eventsOnly: eventsOnly)
    }

    /// One line of every kind the server sends.
    static let samples: [ServerLine] = [
        .room(name: "r", game: .set, players: 1, status: .playing), .options([("mode", "normal")]),
        .board(revision: 1, cards: [("a", "1RFS")]), .deck(3), .chain([]), .turn("-"),
        .player(name: "a", score: 0, isOnline: true), .host("a"), .started(1),
        .proposal(Proposal(votes: 1, needed: 2, voters: ["a"], options: [])), .joined("a"), .left("a"),
        .set(name: "a", cards: ["1RFS"]), .wrong(name: "a", penalty: 1, cards: ["1RFS"], why: "x"),
        .chose(name: "a", points: 1, text: "x"), .chat(name: "a", text: "x"), .newGame("a"),
        .vote(name: "a", votes: 1, needed: 2, options: []), .over([]), .hint(position: "a", card: "1RFS"),
        .history("0 a 1RFS"), .help("HELP"), .ping("1"), .bye("x"), .ready(name: "a", ready: 1, seated: 1),
        .unready(name: "a", ready: 0, seated: 1), .countdown(3), .countdownStopped,
        .kicked(name: "a", by: "b"),
        .locked("a"), .unlocked("a"),
        .stats(ScoreSheetEntry(name: "a", sets: 0, wrong: 0, stale: 0, fastest: nil, mean: nil)),
        .duration(1),
        .rating(
            RatingEntry(name: "a", mode: "normal", rating: 1, games: 1, wins: 0, sets: 0, wrong: 0, stale: 0)),
        .top(rank: 1, name: "a", rating: 1, games: 1), .token("0123abcd"), .notice("x y"),
    ]

    private static func firstWord(_ line: ServerLine) -> String {
        String(line.text.prefix { $0 != " " })
    }

    @Test func theTableNamesTheRepliesThatHaveDataAndTheirFinalLines() throws {
        let shapes = try Self.shapes()
        #expect(Set(shapes.replies.keys) == Set(ServerLine.dataReplies.keys))
        for (verb, shape) in shapes.replies {
            #expect(ServerLine.dataReplies[verb] == shape.words, "\(verb)")
        }
        // The final lines as the server formats them have exactly that many words.
        let finals: [OKDetail] = [
            .help(count: 2), .rooms(count: 1), .join(room: "r", count: 7), .watch(room: "r", count: 7),
            .state(count: 7), .resume(name: "a", room: "r", count: 7), .hint(count: 1), .history(count: 3),
            .stats(count: 1), .top(count: 2),
        ]
        for detail in finals {
            let words = detail.line.text.split(separator: " ").count
            #expect(shapes.replies[detail.verb]?.words == words, "\(detail.line.text)")
        }
    }

    @Test func everyLineIsDataOfTheSameRepliesInBothTables() throws {
        let shapes = try Self.shapes()
        for line in Self.samples {
            let word = Self.firstWord(line)
            for verb in Verb.allCases.map(\.rawValue) {
                let inTable = shapes.replies[verb]?.data.contains(word) ?? false
                #expect(line.isData(ofReplyTo: verb) == inTable, "\(line.text) as data of \(verb)")
            }
            #expect(line.isSnapshot == shapes.snapshot.contains(word), "\(line.text) as a snapshot line")
            if shapes.eventsOnly.contains(word) {
                #expect(!line.isSnapshot && !Verb.allCases.contains { line.isData(ofReplyTo: $0.rawValue) })
            }
        }
        // Every line kind is either possible data or an event only, so the page never holds an event back
        // that it could know is one.
        let dataWords = Set(shapes.replies.values.flatMap(\.data))
        for line in Self.samples {
            let word = Self.firstWord(line)
            #expect(
                dataWords.contains(word) || shapes.eventsOnly.contains(word), "\(word) is in neither list")
        }
    }
}
