/// The standing proposal for a new game (`PROPOSAL` lines): what `NEW` without options agrees with.
public struct Proposal: Equatable, Sendable {
    /// Votes for it.
    public var votes: Int
    /// Votes it needs to pass: more than half of the online players.
    public var needed: Int
    /// Who voted for it, in the order they did.
    public var voters: [String]
    /// The new game's options, as `OPTIONS` lists them (and `private=yes` if it sets a password).
    public var options: [(String, String)]

    /// Creates a proposal.
    public init(votes: Int, needed: Int, voters: [String], options: [(String, String)]) {
        self.votes = votes
        self.needed = needed
        self.voters = voters
        self.options = options
    }

    public static func == (lhs: Proposal, rhs: Proposal) -> Bool {
        lhs.votes == rhs.votes && lhs.needed == rhs.needed && lhs.voters == rhs.voters
            && lhs.options.map { "\($0)=\($1)" } == rhs.options.map { "\($0)=\($1)" }
    }
}
