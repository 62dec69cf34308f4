import SetTestSupport
import Testing

/// protocol.md's captured session, replayed line by line against the core: the page is what the server
/// says, byte for byte (only the random tokens differ).
@Suite struct ProtocolSessionTests {
    /// The `name > typed` and `name < shown` lines of the code blocks under "A real session".
    static func transcript() throws -> [(name: String, typed: Bool, text: String)] {
        let root = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        guard let bytes = readFile("/" + root + "/protocol.md") else {
            throw ClientError(description: "cannot read protocol.md under /\(root)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let session = try #require(text.split(separator: "## A real session").last)
        var lines: [(String, Bool, String)] = []
        var inBlock = false
        for line in session.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            guard inBlock else { continue }
            let match = try #require(line.wholeMatch(of: /\s*(\w+) ([<>]) (.*)/), "\(line)")
            lines.append((String(match.1), match.2 == ">", String(match.3)))
        }
        return lines
    }

    @Test func theCapturedSessionReplaysExactly() throws {
        let lines = try Self.transcript()
        #expect(lines.count >= 60, "the session has \(lines.count) lines")
        let server = EmbeddedServer { $0.seed = 2026 }
        var clients: [String: EmbeddedClient] = [:]
        func token(_ text: String) -> String { text.replacing(/[0-9a-f]{32}/, with: "<token>") }
        for (name, typed, text) in lines {
            let client: EmbeddedClient
            if let known = clients[name] {
                client = known
            } else {
                // The page shows the greeting once, for the first player only.
                client = server.open(name)
                server.advance(by: server.engine.configuration.sniffWindow)  // as nc: it says nothing first
                if text.hasPrefix("SETD ") == false { _ = try client.readLine() }
                clients[name] = client
            }
            if typed {
                try client.send(text)
            } else {
                let shown = try client.readLine()
                #expect(token(shown) == token(text), "\(name) was shown this instead of the page's line")
            }
        }
        for (name, client) in clients {
            #expect(client.readAvailable().isEmpty, "\(name) got lines the page does not show")
        }
    }
}
