import SetDiscovery
import SetTerminal
import Testing

/// `set-cli --find`'s command line, its list of servers and the pick, without a network (the search
/// itself runs in DiscoveryNamespaceTests, inside a network namespace).
@Suite struct FindTests {
    static let servers = [
        FoundServer(
            instance: "setd", host: "setd-box.local", port: 7777,
            addresses: [
                .v6([0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1]), .v4([192, 168, 1, 20]),
            ],
            txt: ["rooms": "3", "players": "1", "version": "1.1.0"]),
        FoundServer(
            instance: "setd (2)", host: "setd-pc.local", port: 7778,
            addresses: [.v6([0xFD, 0] + [UInt8](repeating: 0, count: 13) + [2])], txt: [:]),
    ]

    @Test func findIsAFlagAndExcludesHostAndPort() throws {
        #expect(try CLIOptions.parse(["--find"]).isFinding)
        #expect(try !CLIOptions.parse([]).isFinding)
        #expect(throws: CLIError.self) { try CLIOptions.parse(["--find", "--host", "10.0.0.1"]) }
        #expect(throws: CLIError.self) { try CLIOptions.parse(["--port=7000", "--find"]) }
        #expect(CLIOptions.usage.contains("--find"))
    }

    @Test func theListShowsEveryAddressToTypeWithRoomsAndPlayers() {
        #expect(
            LANSearch.listing(Self.servers) == """
                found 2 setd servers on the LAN:
                  1) setd  192.168.1.20:7777  3 rooms, 1 player  (setd-box.local)
                  2) setd (2)  [fd00::2]:7778  ? rooms, ? players  (setd-pc.local)

                """)
        #expect(LANSearch.listing([Self.servers[0]]).hasPrefix("found 1 setd server on the LAN:\n"))
        // IPv4 before IPv6, a link-local address only when there is nothing else.
        #expect(LANSearch.address(of: Self.servers[0]) == "192.168.1.20")
        #expect(LANSearch.address(of: Self.servers[1]) == "fd00::2")
    }

    @Test func aPickIsANumberOrAName() {
        #expect(LANSearch.pick("2\n", from: Self.servers)?.port == 7778)
        #expect(LANSearch.pick(" setd (2) ", from: Self.servers)?.port == 7778)
        #expect(LANSearch.pick("1", from: Self.servers)?.port == 7777)
        #expect(LANSearch.pick("3", from: Self.servers) == nil)
        #expect(LANSearch.pick("", from: Self.servers) == nil)
    }
}
