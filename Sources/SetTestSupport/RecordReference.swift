import SetGame
import SetServerCore

/// Rebuilds a game from its record (`RECORD <id>`) with the reference rules, trusting nothing the
/// server worked out: the board starts as the record's first 12 cards, every claim the record calls a
/// set must be a set on the board of the moment, every wrong one must not be, and the sheet is counted
/// from the events alone.
public enum RecordReference {
    /// One player's counts, as rebuilt.
    public struct Line: Equatable, Sendable, CustomStringConvertible {
        public var score = 0
        public var sets = 0
        public var wrong = 0
        public var stale = 0
        public var description: String { "score=\(score) sets=\(sets) wrong=\(wrong) stale=\(stale)" }
        public init(score: Int = 0, sets: Int = 0, wrong: Int = 0, stale: Int = 0) {
            (self.score, self.sets, self.wrong, self.stale) = (score, sets, wrong, stale)
        }
    }

    /// The sheet rebuilt from `record` (normal SET only), by player; throws where the record breaks the
    /// rules.
    public static func rebuild(_ record: GameRecord) throws -> [String: Line] {
        guard record.kind == "set", record.options["mode"] ?? "normal" == "normal" else {
            throw ClientError(description: "only normal SET rebuilds: \(record.kind) \(record.options)")
        }
        let penalty = Int(record.options["penalty"] ?? "0") ?? 0
        var deck: [Card] = []
        for code in record.deck {
            guard let card = try? Card(code: code) else { throw ClientError(description: "bad card \(code)") }
            deck.append(card)
        }
        guard Set(deck).count == 81 else { throw ClientError(description: "a deck of \(deck.count) cards") }
        var board = Array(deck.prefix(12))
        var rest = Array(deck.dropFirst(12))
        func dealUntilPlayable() {
            while SetReference.allSets(in: board).isEmpty, !rest.isEmpty {
                board += rest.prefix(3)
                rest.removeFirst(min(3, rest.count))
            }
        }
        dealUntilPlayable()
        var sheet: [String: Line] = [:]
        // Who is seated, from who was dealt in and the joins and leaves: every claim, stale claim and
        // vote must come from a seated player, and those seated at the end must be the record's players.
        var seated: [String] = record.dealtIn ?? record.players
        for name in seated { sheet[name] = Line() }
        var lastMs = 0
        var kickedAwaitingLeave: String?
        for event in record.events {
            guard event.ms >= lastMs else { throw ClientError(description: "time runs back at \(event)") }
            lastMs = event.ms
            if let kicked = kickedAwaitingLeave, event.type != "leave" || event.name != kicked {
                throw ClientError(description: "\(kicked) was kicked but did not leave: \(event)")
            }
            switch event.type {
            case "deal", "over": continue
            case "join":
                guard let name = event.name, !seated.contains(name) else {
                    throw ClientError(description: "a join of someone seated: \(event)")
                }
                seated.append(name)
                if sheet[name] == nil { sheet[name] = Line() }
                continue
            case "leave":
                guard let name = event.name, let index = seated.firstIndex(of: name) else {
                    throw ClientError(description: "a leave of someone not seated: \(event)")
                }
                seated.remove(at: index)
                kickedAwaitingLeave = nil
                continue
            case "kick":
                guard let name = event.name, seated.contains(name), let host = event.by, seated.contains(host)
                else { throw ClientError(description: "a kick that cannot be: \(event)") }
                kickedAwaitingLeave = name
                continue
            case "vote":
                guard let name = event.name, seated.contains(name), event.options != nil else {
                    throw ClientError(description: "a vote that cannot be: \(event)")
                }
                continue
            case "claim":
                break
            default:
                throw ClientError(description: "an unknown event \(event)")
            }
            guard let name = event.name, seated.contains(name) else {
                throw ClientError(description: "a claim by nobody seated: \(event)")
            }
            if event.result == "stale" {
                // A stale claim named cards of a board that had changed: nothing to check them against.
                sheet[name, default: Line()].stale += 1
                continue
            }
            let cards = try (event.cards ?? []).map { code throws -> Card in
                guard let card = try? Card(code: code) else {
                    throw ClientError(description: "bad card \(code)")
                }
                return card
            }
            let isSetOnBoard =
                cards.count == 3 && cards.allSatisfy(board.contains)
                && SetReference.isSet(cards[0], cards[1], cards[2])
            switch event.result {
            case "set":
                guard isSetOnBoard else { throw ClientError(description: "not a set on \(board): \(event)") }
                (board, _) = {
                    let after = SetReference.boardAfterTaking(cards, from: board, deck: rest)
                    rest.removeFirst(after.used)
                    return (after.board, after.used)
                }()
                dealUntilPlayable()
                sheet[name, default: Line()].sets += 1
                sheet[name, default: Line()].score += 1
            case "wrong":
                guard !isSetOnBoard else { throw ClientError(description: "a set called wrong: \(event)") }
                sheet[name, default: Line()].wrong += 1
                sheet[name, default: Line()].score -= penalty
            default:
                throw ClientError(description: "an unknown result in \(event)")
            }
        }
        guard record.events.last?.type == "over", record.events.last?.ms == record.durationMs else {
            throw ClientError(description: "the record does not end with over at its length")
        }
        guard Set(seated) == Set(record.players) else {
            throw ClientError(description: "seated at the end \(seated), the record says \(record.players)")
        }
        // Only a game played out must have used every card; one ended by a vote or abandoned stops anywhere.
        if (record.end ?? "over") == "over" {
            guard rest.isEmpty, SetReference.allSets(in: board).isEmpty else {
                throw ClientError(
                    description: "the game ended with \(rest.count) cards to deal or a set on board")
            }
        }
        return sheet
    }

    /// Rebuilds `record` and checks it against its own sheet: every row of the sheet must be what the
    /// events give that player (a player who left before the end keeps their figures, off the sheet).
    public static func check(_ record: GameRecord) throws {
        let rebuilt = try rebuild(record)
        for (name, line) in claimedSheet(record) where rebuilt[name] != line {
            throw ClientError(
                description: "\(name): the sheet says \(line), the events give \(rebuilt[name] ?? Line())")
        }
    }

    /// The record's own sheet in the same shape, to compare with ``rebuild(_:)``.
    public static func claimedSheet(_ record: GameRecord) -> [String: Line] {
        var sheet: [String: Line] = [:]
        for row in record.sheet {
            sheet[row.name] = Line(score: row.score, sets: row.sets, wrong: row.wrong, stale: row.stale)
        }
        return sheet
    }
}
