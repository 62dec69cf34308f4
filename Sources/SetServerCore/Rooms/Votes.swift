/// The votes for a new game during one: who asked for which options, in the order the votes were cast
/// (a vote moved is cast again, last). The order is what the journal holds — `vote` records in order, a
/// snapshot's votes in this order — so the standing proposal reads the same in a replay.
struct Votes: ExpressibleByDictionaryLiteral {
    /// Each voter with the options they voted for, oldest vote first.
    private(set) var cast: [(name: String, options: RoomOptions)] = []

    init(dictionaryLiteral elements: (String, RoomOptions)...) {
        for (name, options) in elements { self[name] = options }
    }

    /// The options `name` voted for; setting casts (or moves) their vote, `nil` takes it back.
    subscript(name: String) -> RoomOptions? {
        get { cast.first { $0.name == name }?.options }
        set {
            cast.removeAll { $0.name == name }
            if let newValue { cast.append((name, newValue)) }
        }
    }

    /// Whether nobody voted.
    var isEmpty: Bool { cast.isEmpty }

    /// Votes for `options`.
    func count(for options: RoomOptions) -> Int { cast.count { $0.options == options } }

    /// The standing proposal, the one `NEW` without options agrees with: the options with the most
    /// votes and, among as many, the one voted for last; with its voters in the order they voted.
    var standing: (options: RoomOptions, voters: [String])? {
        var best: (options: RoomOptions, votes: Int, last: Int)?
        for (index, vote) in cast.enumerated() {
            let votes = count(for: vote.options)
            if let current = best, current.votes > votes { continue }
            best = (vote.options, votes, index)
        }
        return best.map { best in (best.options, cast.filter { $0.options == best.options }.map(\.name)) }
    }
}
