extension LineClient {
    /// Claims the first set of every board, starting from the `BOARD` line among `lines`, until the game
    /// is over; returns the number of sets taken and the reply that ended the game.
    @discardableResult
    public func playToTheEnd(from lines: [String], atMost limit: Int = 40) throws -> (sets: Int, last: Reply)
    {
        guard var board = BoardView.last(in: lines) else {
            throw ClientError(description: "\(label): no BOARD line to play from in \(lines)")
        }
        for taken in 0..<limit {
            guard let set = board.sets.first else {
                throw ClientError(description: "\(label): a board without a set before the end: \(board)")
            }
            let reply = try request(board.claim(set))
            guard reply.isOK("CHOOSE") else { throw ClientError(description: "\(label): \(reply)") }
            if reply.lines.contains(where: { $0.hasPrefix("OVER ") }) { return (taken + 1, reply) }
            guard let next = BoardView.last(in: reply.lines) else {
                throw ClientError(description: "\(label): no new board after \(reply)")
            }
            board = next
        }
        throw ClientError(description: "\(label): the game did not end in \(limit) sets")
    }
}
