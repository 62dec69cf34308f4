import Foundation

/// One line of `GET /games`: enough to choose a game, its record a request away.
struct GameSummary: Codable, Sendable {
    /// A player's final points.
    struct Score: Codable, Sendable {
        var name: String
        var score: Int
    }
    var id: String
    var room: String
    var kind: String
    var mode: String?
    var startedAtMs: Int64
    var durationMs: Int
    /// Best first, as the score sheet.
    var players: [Score]
}

/// The body of `GET /games?page=N`.
struct GamesPage: Codable, Sendable {
    var games: [GameSummary]
    var page: Int
    var pages: Int
    var total: Int

    /// The page as JSON, keys sorted.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
