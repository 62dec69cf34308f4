import SetServerCore
import SetWeb

/// `GET /games` (the public kept games, newest first, `?page=N`) and `GET /games/<id>` (one record):
/// answered here rather than in `WebRouter` because they read the core's archive.
extension Engine {
    /// The reply to a `/games` request, `nil` for any other path (the router answers those).
    func gamesReply(to head: HTTPRequestHead) -> WebRouter.Reply? {
        let path = head.path
        if head.method == Array("GET".utf8), path.elementsEqual("/standings.csv".utf8) {
            return standingsReply(to: head)
        }
        let prefix = Array("/games".utf8)
        guard head.method == Array("GET".utf8), path.starts(with: prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        if rest.isEmpty || rest.elementsEqual([UInt8(ascii: "/")]) {
            guard let page = Self.pageNumber(in: head.target) else {
                return WebRouter.Reply(
                    response: .error(.badRequest, "page is a number from 1, as in /games?page=2"))
            }
            return json(core.publicGamesJSON(page: page), for: head)
        }
        guard rest.first == UInt8(ascii: "/") else { return nil }
        let id = String(decoding: rest.dropFirst(), as: UTF8.self)
        let isID =
            id.utf8.count == 16
            && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        guard isID else {
            return WebRouter.Reply(response: .error(.badRequest, "a game id is 16 hex digits: /games/<id>"))
        }
        guard let record = core.publicRecordJSON(id: id) else {
            return WebRouter.Reply(response: .error(.notFound, "no kept public game has the id \(id)"))
        }
        return json(record, for: head)
    }

    /// `page=N` from the query (1 without one), `nil` when it is not a number from 1 to 100,000.
    static func pageNumber(in target: [UInt8]) -> Int? {
        guard let mark = target.firstIndex(of: UInt8(ascii: "?")) else { return 1 }
        for pair in target[(mark + 1)...].split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(
                separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].elementsEqual("page".utf8) else { continue }
            guard parts[1].count <= 6, let n = Int(String(decoding: parts[1], as: UTF8.self)),
                (1...100_000).contains(n)
            else { return nil }
            return n
        }
        return 1
    }

    /// `GET /standings.csv?room=<room>`: a public room's standings for the night as CSV, a download.
    private func standingsReply(to head: HTTPRequestHead) -> WebRouter.Reply {
        guard let room = Self.queryValue("room", in: head.target), !room.isEmpty else {
            return WebRouter.Reply(response: .error(.badRequest, "name the room: /standings.csv?room=<room>"))
        }
        guard let csv = core.publicStandingsCSV(room: room) else {
            return WebRouter.Reply(response: .error(.notFound, "no public room has that name"))
        }
        let persists = WebRouter.keepsAlive(head)
        let response = HTTPResponse(
            status: .ok,
            fields: [
                ("Content-Type", "text/csv; charset=utf-8"),
                ("Content-Disposition", "attachment; filename=\"standings-\(room).csv\""),
                ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
                ("Connection", persists ? "keep-alive" : "close"),
            ],
            body: Array(csv.utf8))
        return WebRouter.Reply(response: response, keepsAlive: persists)
    }

    /// The value of `key` in the query, when it is a room name (`[A-Za-z0-9_-]`, at most 16 bytes: no
    /// escapes to decode, nothing that could break the `Content-Disposition` header).
    static func queryValue(_ key: String, in target: [UInt8]) -> String? {
        guard let mark = target.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        for pair in target[(mark + 1)...].split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(
                separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].elementsEqual(key.utf8) else { continue }
            let value = parts[1]
            let isName =
                value.count <= 16
                && value.allSatisfy {
                    (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                        || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
                }
            return isName ? String(decoding: value, as: UTF8.self) : nil
        }
        return nil
    }

    private func json(_ text: String, for head: HTTPRequestHead) -> WebRouter.Reply {
        let persists = WebRouter.keepsAlive(head)
        let response = HTTPResponse(
            status: .ok,
            fields: [
                ("Content-Type", "application/json"), ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"), ("Connection", persists ? "keep-alive" : "close"),
            ],
            body: Array(text.utf8))
        return WebRouter.Reply(response: response, keepsAlive: persists)
    }
}
