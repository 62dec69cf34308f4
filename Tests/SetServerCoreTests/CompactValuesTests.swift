import SetGame
import SetTestSupport
import Testing

@testable import SetServerCore

/// The values every seated player's records hold, kept small (a token in 128 bits, a peer in 6 bytes)
/// yet reading back exactly as they were written: the journal, the protocol and the log are unchanged.
@Suite struct CompactValuesTests {
    @Test func aTokenTheServerMakesIsItsBitsAndReadsBack() {
        let text = "0123456789abcdef00000000000000ff"
        #expect("\(SessionToken(text))" == text)
        #expect(SessionToken(text) == SessionToken(text))
        #expect(SessionToken(text) != SessionToken("0123456789abcdef00000000000000fe"))
        #expect(MemoryLayout<SessionToken>.size <= 17)
        let random = Randomness.seeded(1)
        let made = Session.makeToken(random)
        #expect("\(made)".utf8.count == 32)
        #expect(SessionToken("\(made)") == made)
        // The generator's first word is the first 16 digits, its second the rest: the tokens a seeded
        // core makes (the simulator's, the fuzzers') are the ones it always made.
        let again = Randomness.seeded(1)
        let words = [again.bits(), again.bits()].map { word in
            String(repeating: "0", count: 16 - String(word, radix: 16).count) + String(word, radix: 16)
        }
        #expect("\(made)" == words.joined())
    }

    /// A token's text is its two words' 16 hex digits each, leading zeros kept, as `String(_:radix:)`
    /// spells them: on words of every length of digits and random ones.
    @Test func aTokensTextIsItsBitsInHex() {
        func hex(_ word: UInt64) -> String {
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.utf8.count) + digits
        }
        var generator = SeededGenerator(seed: 22)
        var words: [UInt64] = [0, 1, 0xF, 0x10, .max, .max >> 4, 1 << 63]
        for _ in 0..<200 { words.append(generator.next() >> (generator.next() % 64)) }
        for (high, low) in zip(words, words.reversed()) {
            let text = hex(high) + hex(low)
            #expect("\(SessionToken(text))" == text)
        }
    }

    /// A token of any other shape (a hand-edited journal's, a client's guess) is its text: it reads back
    /// as given and never equals a token of 32 hex digits.
    @Test(arguments: [
        "", "x", "0123456789ABCDEF00000000000000FF", "0123456789abcdef00000000000000f",
        "é" + String(repeating: "a", count: 30),
    ])
    func anyOtherTokenIsItsText(text: String) {
        #expect("\(SessionToken(text))" == text)
        #expect(SessionToken(text) != SessionToken("0123456789abcdef00000000000000ff"))
    }

    @Test(arguments: [
        "127.0.0.123:45678", "192.168.100.200:65535", "0.0.0.0:0", "010.0.0.1:5", "1.2.3.4", "1.2.3.4:",
        "1.2.3.4:65536", "256.1.1.1:5", "[2001:db8::1]:443", "1.2.3.4:5:6", "1.2.3.4.5:6", "", "unix",
        "255.255.255.255:65535", "1.2.3.4:05", "1.2.3.4:+5", "1.2.3.4:00", "1.2.3.1000:5", "1.2.3:4",
        "1.2.3.4:123456", "1..3.4:5", "1.2.3.4 :5", "9.10.100.0:10",
    ])
    func aPeerReadsBackAsGiven(text: String) {
        #expect("\(PeerText(text, key: "k"))" == text)
        #expect(Client(id: 1, peer: text, addressKey: "k", at: 0).peer == text)
        #expect(Client(id: 1, peer: text, addressKey: "k", at: 0).addressKey == "k")
    }

    /// Every IPv4 peer in the plain spelling is held as its 6 bytes and reads back as given, its key
    /// the address: on the ends of each part's range of digits and random ones.
    @Test func everyPlainIPv4PeerIsHeldPackedAndReadsBack() {
        var generator = SeededGenerator(seed: 22)
        let ends: [UInt32] = [0, 9, 10, 99, 100, 255]
        let ports: [UInt32] = [0, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 65_535]
        for round in 0..<400 {
            let parts = (0..<4).map { part in
                round < 36 ? ends[(round + part * (round / 6)) % ends.count] : UInt32(generator.next() % 256)
            }
            let port = round < ports.count ? ports[round] : UInt32(generator.next() % 65_536)
            let address = parts.map { String($0) }.joined(separator: ".")
            let text = "\(address):\(port)"
            let peer = PeerText(text, key: address)
            #expect(peer.packed != nil, "\(text)")
            #expect("\(peer)" == text && peer.key == address)
            // The engine hands such a peer over as its address and port (`connect(_:ipv4:port:at:)`).
            let value = parts.reduce(0) { $0 << 8 | $1 }
            let client = Client(id: 1, ipv4: value, port: UInt16(port), at: 0)
            #expect(client.peer == text && client.addressKey == address)
        }
    }

    /// A client's key is spelled from its peer when it is the peer's IPv4 address, and kept as given
    /// when it is anything else (an IPv6 /64, a mapped address's, another address's).
    @Test(arguments: [
        ("127.0.0.123:45678", "127.0.0.123"), ("127.0.0.123:45678", "127.0.0.12"),
        ("1.2.3.4:5", "9.9.9.9"), ("1.2.3.4:5", ""), ("[2001:db8::1]:443", "2001:db8:0:0::/64"),
        ("[::ffff:1.2.3.4]:80", "1.2.3.4"), ("010.0.0.1:5", "010.0.0.1"), ("1.2.3.4:5", "1.2.3.4:"),
        ("1.2.3.4:5", "1.2.3.4:5"), ("9.10.100.0:0", "9.10.100.0"), ("1.2.3.4:5", "1.2.3."),
    ])
    func aClientsKeyReadsBackAsGiven(peer: String, key: String) {
        let client = Client(id: 1, peer: peer, addressKey: key, at: 0)
        #expect(client.peer == peer && client.addressKey == key)
    }

    /// The core's side of a connection is one 80-byte block of malloc's (it was 128 with the key beside
    /// the peer, 96 with the peer's tag and the room watched inline).
    @Test func aClientIsOneSmallBlock() {
        #expect(heapBlockSize(ofInstancesOf: Client.self) <= 72)
    }

    /// The room a client watches and a peer in a form other than IPv4 share the client's box: either
    /// reads back as set while the other comes and goes.
    @Test(arguments: [("192.168.1.20:50123", "192.168.1.20"), ("[2001:db8::1]:443", "2001:db8:0:0::/64")])
    func aWatchedRoomAndThePeerReadBackTogether(peer: String, key: String) throws {
        let server = EmbeddedServer()
        _ = try server.player("ann", room: "watched")
        let room = try #require(server.core.rooms["watched"])
        let client = Client(id: 1, peer: peer, addressKey: key, at: 0)
        #expect(client.watching == nil)
        client.watching = room
        #expect(client.watching === room)
        #expect(client.peer == peer && client.addressKey == key)
        client.watching = nil
        #expect(client.watching == nil)
        #expect(client.peer == peer && client.addressKey == key)
    }

    /// A client is unidentified, for the registration deadline, until it says who it is, and then for
    /// good.
    @Test func aClientIdentifiesOnce() {
        let client = Client(id: 1, peer: "1.2.3.4:5", addressKey: "1.2.3.4", at: 7)
        #expect(!client.hasIdentified && client.unidentifiedSince == 7)
        client.hasIdentified = true
        #expect(client.hasIdentified && client.unidentifiedSince.isNaN)
    }

    /// Which seated players are online is a bit beside the session's connection, not a set of names per
    /// room, and the token is its bits: the session is one 80-byte block.
    @Test func aSessionIsOneSmallBlock() {
        #expect(heapBlockSize(ofInstancesOf: Session.self) <= 72)
    }

    /// A session's token reads back as set, whether the server made it (its bits, inline) or not (its
    /// text, in the box), through any change from one to the other.
    @Test func aSessionsTokenReadsBackAsSet() {
        let tokens = [
            "0123456789abcdef0123456789abcdef", "hand-edited", "ffffffffffffffff0000000000000000",
            "0123456789ABCDEF0123456789ABCDEF", "00000000000000000000000000000000",
        ].map(SessionToken.init)
        let session = Session(name: "ann", token: tokens[1], connection: nil)
        for token in tokens + tokens.reversed() {
            session.token = token
            #expect(session.token == token && "\(session.token)" == "\(token)")
        }
    }

    /// Presence and the connection share a word and never disturb each other.
    @Test(arguments: [nil, 0, 1, 7, Int.max - 1] as [ConnectionID?])
    func presenceAndConnectionAreKeptApart(connection: ConnectionID?) {
        let session = Session(
            name: "ann", token: SessionToken("0123456789abcdef0123456789abcdef"), connection: nil)
        #expect(session.connection == nil && !session.isPresent)
        session.connection = connection
        session.isPresent = true
        #expect(session.connection == connection && session.isPresent)
        session.isPresent = false
        #expect(session.connection == connection && !session.isPresent)
        session.isPresent = true
        session.connection = nil
        #expect(session.connection == nil && session.isPresent)
        session.connection = connection
        #expect(session.connection == connection && session.isPresent)
    }

    /// What an idle room of ten holds for its players (issue 28): its record's ten `join`s in an array
    /// grown by half (13 events, not 16), its options' journal pairs shared with every room of the same
    /// default options, and its board's arrival times, all as its players saw and the journal keeps.
    @Test func anIdleRoomOfTenHoldsLittleForItsPlayers() throws {
        let server = EmbeddedServer()
        var clients: [EmbeddedClient] = []
        for index in 0..<10 { clients.append(try server.player("p\(index)", room: "idle").0) }
        _ = try server.player("q", room: "other")
        let room = try #require(server.core.rooms["idle"])
        #expect(room.recordEvents.count(where: { $0.type == "join" }) == 10)
        #expect(room.recordEvents.capacity <= 13)
        #expect(room.tally.arrivals.count == 12)
        #expect(room.onlineCount == 10)
        let pairs = try #require(server.core.snapshot(ofRoom: "idle")?.options)
        let otherPairs = try #require(server.core.snapshot(ofRoom: "other")?.options)
        #expect(pairs.elementsEqual(otherPairs) { $0 == $1 })
        #expect(
            pairs.withUnsafeBufferPointer { $0.baseAddress }
                == otherPairs.withUnsafeBufferPointer { $0.baseAddress })
    }

    /// The rare state (issue 28) is boxed only while something rare is under way: a vote makes the box,
    /// the new game the vote starts leaves none, and neither does a game dealt again without one.
    @Test func aRoomHoldsItsRareStateOnlyWhileSomethingRareIsUnderWay() throws {
        let server = EmbeddedServer()
        let ann = try server.player("ann", room: "fun").0
        let bob = try server.player("bob", room: "fun").0
        let room = try #require(server.core.rooms["fun"])
        #expect(room.rareState == nil)
        let voted = try ann.request("NEW")
        #expect(voted.isOK("NEW"), "\(voted)")
        #expect(room.rareState != nil && !room.votes.isEmpty)
        let started = try bob.request("NEW")
        #expect(started.isOK("NEW"), "\(started)")
        #expect(room.rareState == nil && room.votes.isEmpty)
        // Alone, a NEW starts a game at once: every field the restart sets back is at its start already.
        _ = try bob.request("LEAVE")
        let alone = try ann.request("NEW")
        #expect(alone.isOK("NEW"), "\(alone)")
        #expect(room.rareState == nil)
    }

    /// Inline, no heap block: an IPv4 peer and its key are 6 bytes and a tag, where the two strings
    /// were 32 bytes; any other is a reference to a box.
    @Test func aPeerAndItsKeyAreSmallerThanAString() {
        #expect(MemoryLayout<PeerText>.size <= 9)
    }
}
