/// `GET /replay/<game-id>`: the replay viewer, one page for every game. The page reads the id from its
/// own address and fetches the record from `GET /games/<id>` (the engine's, as it reads the archive), so
/// the router needs only the shape of the id, and `/games/<id>` keeps answering JSON to every client.
extension WebRouter {
    /// The path prefix of the viewer.
    static let replayPrefix = Array("/replay/".utf8)

    /// The viewer for a `/replay/…` path: `200` and the page for 16 lower-case hex digits (an optional
    /// trailing `/`), `400` saying what an id is for anything else; `nil` for other paths.
    static func replayReply(to head: HTTPRequestHead, page: [UInt8]) -> Reply? {
        guard head.path.starts(with: replayPrefix) else { return nil }
        var id = head.path.dropFirst(replayPrefix.count)
        if id.last == UInt8(ascii: "/") { id = id.dropLast() }
        let isID =
            id.count == 16 && id.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        guard isID else {
            return Reply(
                response: .error(.badRequest, "a replay's address is /replay/<game-id>, 16 hex digits"))
        }
        let persists = keepsAlive(head)
        return Reply(response: pageResponse(page, persists: persists), keepsAlive: persists)
    }
}
