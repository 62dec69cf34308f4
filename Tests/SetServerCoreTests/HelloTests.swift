import SetTestSupport
import Testing

/// The greeting and naming: what a newcomer sees before playing.
@Suite struct HelloTests {
    @Test func greetingIsTheFirstLine() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let client = server.open("newcomer")
        #expect(client.readAvailable().isEmpty, "nothing before the sniff window ends")
        server.advance(by: server.engine.configuration.sniffWindow)
        let greeting = try client.readLine()
        let parts = words(greeting)
        #expect(parts.first == "SETD")
        #expect(parts.count >= 3 && parts[1] == "1", "greeting: \(greeting)")
        // Exactly one greeting: the next line is the reply to the first command.
        #expect(try client.request("PING").final == "OK PING")
    }

    @Test func helloGivesNameAndToken() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let client = try server.connect("ann")
        let reply = try client.request("HELLO ann")
        #expect(reply.lines.isEmpty)
        let parts = words(reply.final)
        #expect(parts.count == 4 && parts[0] == "OK" && parts[1] == "HELLO" && parts[2] == "ann", "\(reply)")
        let token = parts.count == 4 ? parts[3] : ""
        #expect(token.count >= 16, "a token long enough to be secret: \(token)")

        let other = try server.connect("other")
        let second = try other.request("HELLO bob")
        #expect(second.isOK("HELLO bob"))
        #expect(words(second.final).last != token, "tokens differ")
    }

    @Test(arguments: [
        "bad!name", "seventeen-chars-x", "ünïcode", "a.b", "a/b", "spa\u{7F}ce",
    ])
    func badNamesAreRefused(name: String) throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let client = try server.connect("picky")
        let reply = try client.request("HELLO \(name)")
        #expect(reply.final.hasPrefix("ERR HELLO BADNAME "), "\(name): \(reply)")
        // The connection still has no name and can pick a good one.
        #expect(try client.request("HELLO good_name-16").isOK("HELLO good_name-16"))
    }

    @Test func sixteenCharactersAreEnough() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let client = try server.connect("long")
        #expect(try client.request("HELLO abcdefghijklmnop").isOK("HELLO abcdefghijklmnop"))
    }

    @Test func takenNameIsRefused() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (_, _) = try server.named("ann")
        let second = try server.connect("second")
        let reply = try second.request("HELLO ann")
        #expect(reply.final.hasPrefix("ERR HELLO TAKEN "), "\(reply)")
        // Names are case-sensitive.
        #expect(try second.request("HELLO Ann").isOK("HELLO Ann"))
    }

    @Test func secondHelloIsAlready() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let (client, _) = try server.named("ann")
        #expect(try client.request("HELLO bob").final.hasPrefix("ERR HELLO ALREADY "))
        #expect(try client.request("HELLO ann").final.hasPrefix("ERR HELLO ALREADY "))
        #expect(try client.request("RESUME 0123456789abcdef").final.hasPrefix("ERR RESUME ALREADY "))
        // The refused HELLO did not take the name "bob".
        let other = try server.connect("bob")
        #expect(try other.request("HELLO bob").isOK("HELLO bob"))
    }

    @Test func commandsThatNeedANameSayNoName() throws {
        let server = EmbeddedServer()
        defer { server.stop() }
        let client = try server.connect("anonymous")
        for command in ["JOIN lobby", "CHOOSE a b c", "CHAT hello", "NEW", "HINT", "LEAVE"] {
            let verb = words(command)[0]
            let reply = try client.request(command)
            #expect(reply.final.hasPrefix("ERR \(verb) NONAME "), "\(command): \(reply)")
        }
        // Commands that need no name work.
        #expect(try client.request("PING").final == "OK PING")
        #expect(try client.request("ROOMS").final == "OK ROOMS 0")
    }
}

/// `-` means "nobody" in `TURN -` and `CHAIN -`, so nobody may be called that.
@Suite struct NobodyNameTests {
    @Test func dashAloneIsABadName() throws {
        let server = EmbeddedServer()
        let client = try server.connect("dash")
        #expect(try client.request("HELLO -").error == .badName)
        #expect(try client.request("HELLO a-").isOK("HELLO"))
        #expect(try client.request("JOIN -").error == .badName)
    }
}
