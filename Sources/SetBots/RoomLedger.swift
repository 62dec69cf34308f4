import Foundation

/// What the bots of one room share: when each claim was sent, to time how long its event takes to
/// reach the others, and how many games the room has finished.
///
/// A room's bots may live on different queues (a big room is spread over all of them), so the ledger
/// has its own lock. Every bot is in this process, so send and arrival times come from one clock.
final class RoomLedger: @unchecked Sendable {
    /// A claim that can cause an event: who sent it and the revision it named. The event that follows
    /// it reaches each bot while that bot's view still shows that revision, so the pair finds the claim.
    struct Key: Hashable {
        var player: String
        var revision: Int
    }

    /// The room's name.
    let name: String
    private let lock = NSLock()
    /// Claim send times, pruned after a few seconds.
    private var sent: [Key: UInt64] = [:]
    /// The most games any bot of the room has seen end; a bot that was away for an `OVER` saw fewer.
    private var finished = 0

    init(name: String) { self.name = name }

    func recordClaim(by player: String, revision: Int, at time: UInt64) {
        lock.withLock { sent[Key(player: player, revision: revision)] = time }
    }

    func claimTime(by player: String, revision: Int) -> UInt64? {
        lock.withLock { sent[Key(player: player, revision: revision)] }
    }

    /// Games this room has finished.
    var gamesFinished: Int { lock.withLock { finished } }

    func noteGamesFinished(_ n: Int) { lock.withLock { finished = max(finished, n) } }

    /// Forgets claims older than `cutoff`; their events have long reached everyone.
    func prune(before cutoff: UInt64) {
        lock.withLock {
            if !sent.isEmpty { sent = sent.filter { $0.value >= cutoff } }
        }
    }
}
