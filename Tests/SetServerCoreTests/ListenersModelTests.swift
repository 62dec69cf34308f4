import SetTestSupport
import Testing

/// Who hears a room's chat, held to a model through every way of coming and going: a room keeps its
/// listener list between events (issue 28), so any change of seats, spectators or a seat's connection
/// that did not make it look again would show as a line missed or a line sent to the wrong connection.
@Suite struct ListenersModelTests {
    /// One person at the keyboard: their connection, name, token, and where the model says they are.
    final class Person {
        var client: EmbeddedClient?
        var name: String
        var token = ""
        var seat: String?
        var watching: String?
        init(name: String) { self.name = name }
    }

    /// SplitMix64: the same steps every run for a seed.
    struct Steps {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d4_9bb1_3311_11eb
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    @Test(arguments: [1, 2, 3, 4]) func everyChatReachesExactlyTheRoomsListeners(seed: UInt64) throws {
        let server = EmbeddedServer {
            $0.commandsPerSecond = 10_000
            $0.commandBurst = 10_000
            $0.maxRoomsPerIP = nil
        }
        defer { server.stop() }
        let rooms = ["r0", "r1", "r2"]
        var people: [Person] = []
        for index in 0..<6 {
            let person = Person(name: "p\(index)")
            let (client, token) = try server.named(person.name)
            (person.client, person.token) = (client, token)
            people.append(person)
        }
        var steps = Steps(state: seed)
        var generation = 0
        var chats = 0
        for step in 0..<1_500 {
            let person = people[steps.next(people.count)]
            let room = rooms[steps.next(rooms.count)]
            let label = "step \(step) seed \(seed): \(person.name)"
            switch steps.next(12) {
            case 0, 1:
                // JOIN: a seat here, no other seat, no watching.
                guard let client = person.client else { continue }
                let reply = try client.request("JOIN \(room)")
                #expect(reply.isOK("JOIN \(room)"), "\(label): \(reply)")
                (person.seat, person.watching) = (room, nil)
            case 2:
                // WATCH: a spectator here, seat given up.
                // Only a room someone is in is open.
                guard let client = person.client,
                    people.contains(where: { $0.seat == room || $0.watching == room })
                else { continue }
                let reply = try client.request("WATCH \(room)")
                #expect(reply.isOK("WATCH \(room)"), "\(label): \(reply)")
                (person.seat, person.watching) = (nil, room)
            case 3:
                guard let client = person.client, person.seat != nil || person.watching != nil else {
                    continue
                }
                #expect(try client.request("LEAVE").final.hasPrefix("OK LEAVE"), "\(label)")
                if person.watching != nil { person.watching = nil } else { person.seat = nil }
            case 4:
                // Dropped, or taken over from a new connection while the old one is still open.
                if person.client != nil, steps.next(2) == 0 {
                    person.client?.close()
                    person.client = nil
                    // A closed connection watches nothing; a seat waits, away.
                    person.watching = nil
                    server.advance(by: 0.01)
                    continue
                }
                let old = person.client
                let fresh = try server.connect("\(person.name) again")
                let reply = try fresh.request("RESUME \(person.token)")
                if person.seat == nil && old == nil {
                    // Nothing to come back to: the name went with the connection.
                    generation += 1
                    person.name = "n\(generation)"
                    person.token = try fresh.hello(person.name)
                } else {
                    #expect(reply.isOK("RESUME \(person.name)"), "\(label): \(reply)")
                    person.token = try #require(reply.newToken, "\(label): \(reply)")
                }
                old?.discardAvailable()
                person.client = fresh
                person.watching = nil
            case 5:
                // QUIT: seat and name gone; back at once under a new name.
                guard let client = person.client else { continue }
                #expect(try client.request("QUIT").final.hasPrefix("OK QUIT"), "\(label)")
                person.seat = nil
                person.watching = nil
                generation += 1
                person.name = "n\(generation)"
                let (fresh, token) = try server.named(person.name)
                (person.client, person.token) = (fresh, token)
            default:
                // CHAT: heard by every seated player with a connection and every spectator, speaker too.
                guard let client = person.client, let seat = person.seat else { continue }
                for other in people { other.client?.discardAvailable() }
                let text = "s\(step)"
                let reply = try client.request("CHAT \(text)")
                #expect(reply.isOK("CHAT"), "\(label): \(reply)")
                let line = "CHAT \(person.name) \(text)"
                chats += 1
                #expect(reply.lines.filter { $0 == line }.count == 1, "\(label): \(reply)")
                for other in people where other !== person {
                    guard let listener = other.client else { continue }
                    let heard = listener.readAvailable().filter { $0 == line }.count
                    let hears = other.seat == seat || other.watching == seat
                    #expect(heard == (hears ? 1 : 0), "\(label): \(other.name) heard \(heard)")
                }
            }
            server.advance(by: 0.01)
        }
        #expect(chats > 100, "the steps chatted \(chats) times")
    }
}
