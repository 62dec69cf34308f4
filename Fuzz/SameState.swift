// The engine target's equal-state check, without encoding: whether two cores' snapshot records hold the
// same values, compared field by field.
//
// `JournalRecord`'s own `==` encodes both sides (a quarter of the engine target's check, run every 16
// operations of every input). Field by field is enough to pass: equal fields encode to equal bytes,
// since the encoding is a function of them. Here strings are compared by their UTF-8 bytes (`==` on
// `String` would take canonically equivalent spellings, which encode differently, as equal) and
// doubles by their bits (`==` would take -0.0 for 0.0). The nested values compared with their own
// `==` (a game's state, a room's night, a game record, a score sheet) are the exception, said so where
// they are. A difference found here is not yet a failure: the caller then compares the encodings, which
// decide.

import SetServerCore

/// Field-by-field equality of the records a core's snapshot is made of.
enum SameState {
    /// Whether `a` and `b` hold the same records, each record's fields equal.
    static func holds(_ a: [JournalRecord], _ b: [JournalRecord]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy(same)
    }

    /// Whether two records are of the same kind with equal fields; records of a kind a snapshot does not
    /// hold are compared by their encoding.
    static func same(_ a: JournalRecord, _ b: JournalRecord) -> Bool {
        switch (a, b) {
        case (.header(let x), .header(let y)):
            return x == y
        case (.snapshot(let x), .snapshot(let y)):
            return same(x, y)
        case (.archive(let room, let x), .archive(let otherRoom, let y)):
            return same(room, otherRoom) && same(x, y)
        case (
            .rating(let name, let mode, let rating, let games, let wins, let sets, let wrong, let stale),
            .rating(
                let name2, let mode2, let rating2, let games2, let wins2, let sets2, let wrong2, let stale2)
        ):
            return same(name, name2) && same(mode, mode2)
                && (rating, games, wins, sets, wrong, stale) == (
                    rating2, games2, wins2, sets2, wrong2, stale2
                )
        case (
            .gain(let name, let mode, let time, let amount),
            .gain(let name2, let mode2, let time2, let amount2)
        ):
            return same(name, name2) && same(mode, mode2) && same(time, time2) && amount == amount2
        case (
            .nameKey(let name, let secret, let address, let claimedAt, let usedAt),
            .nameKey(let name2, let secret2, let address2, let claimedAt2, let usedAt2)
        ):
            return same(name, name2) && same(secret, secret2) && same(address, address2)
                && same(claimedAt, claimedAt2) && same(usedAt, usedAt2)
        case (.token(let room, let name, let old, let new), .token(let room2, let name2, let old2, let new2)):
            return same(room, room2) && same(name, name2) && same(old, old2) && same(new, new2)
        case (.header, _), (.snapshot, _), (.archive, _), (.rating, _), (.gain, _), (.nameKey, _),
            (.token, _):
            return false
        default:
            return a.body == b.body
        }
    }

    /// A room's state; its game, night (readiness, host, kicks, tally, record so far, standings) and votes'
    /// option values with their own `==`.
    static func same(_ a: RoomSnapshot, _ b: RoomSnapshot) -> Bool {
        same(a.name, b.name) && a.seed == b.seed && same(a.options, b.options) && a.gameIndex == b.gameIndex
            && same(a.startedAt, b.startedAt)
            && a.historyTimes.elementsEqual(b.historyTimes, by: same)
            && a.votes.elementsEqual(b.votes) { same($0.name, $1.name) && same($0.options, $1.options) }
            && same(a.creator, b.creator)
            && a.seats.elementsEqual(b.seats) {
                same($0.name, $1.name) && same($0.token, $1.token) && $0.isOnline == $1.isOnline
            }
            && a.game == b.game && a.night == b.night
    }

    /// A finished game; its score sheet and game record with their own `==`.
    static func same(_ a: ArchivedGame, _ b: ArchivedGame) -> Bool {
        same(a.startedAt, b.startedAt) && same(a.endedAt, b.endedAt)
            && optional(a.password, b.password, same)
            && a.scores.elementsEqual(b.scores) { same($0.name, $1.name) && $0.score == $1.score }
            && a.entries.elementsEqual(b.entries) {
                $0.seconds == $1.seconds && same($0.name, $1.name) && same($0.detail, $1.detail)
            }
            && a.sheet == b.sheet && a.duration == b.duration && a.record == b.record
    }

    static func same(_ a: [(String, String)], _ b: [(String, String)]) -> Bool {
        a.elementsEqual(b) { same($0.0, $1.0) && same($0.1, $1.1) }
    }

    /// Byte for byte, as the encoding writes them.
    static func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

    /// Bit for bit, as the encoding writes them.
    static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern }

    static func optional<T>(_ a: T?, _ b: T?, _ same: (T, T) -> Bool) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?): return same(x, y)
        default: return false
        }
    }
}
