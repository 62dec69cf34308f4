import SetTestSupport
import SetTestTraits
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `setd --announce` and `set-cli --find` for real, each scenario in a network namespace of its own
/// (`unshare -n`): its only link is `lo`, with multicast turned on and routed through it, so nothing
/// reaches the machine's real interfaces. An independent client, `Tests/Discovery/mdns_query.py`
/// (standard-library Python that shares no code with ours), asks the questions and listens. Needs root
/// and `unshare`, as CI has; elsewhere the suite is skipped.
@Suite(.ownThread, .enabled(if: NetworkNamespace.isAvailable, "needs root, unshare -n and python3"))
struct DiscoveryNamespaceTests {
    static let script: String = {
        let file = String(#filePath)
        let root = file.firstRange(of: "/Tests/").map { String(file[..<$0.lowerBound]) } ?? "."
        return root + "/Tests/Discovery/namespace.sh"
    }()

    /// Runs one scenario of `namespace.sh` in a new namespace; returns its lines.
    static func run(_ scenario: String) throws -> [Substring] {
        let result = try Child.run(
            programOnPath("unshare")!,
            ["-n", "sh", script, scenario, try setdPath(), try productPath("set-cli")],
            timeout: 60)
        let lines = result.output.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("NOT-ISOLATED") })
        return lines
    }

    static func value(_ lines: [Substring], _ prefix: String) -> String? {
        lines.first { $0.hasPrefix(prefix + " ") }.map { String($0.dropFirst(prefix.count + 1)) }
    }

    @Test func anIndependentClientFindsTheServerAndItsCountsAndSetCliJoinsIt() throws {
        let lines = try Self.run("query")
        let port = try #require(Self.value(lines, "PORT one").flatMap { UInt16($0) })
        // mdns_query.py's PTR question, answered with the SRV's port, the TXT keys and the addresses of
        // the only link, by unicast to its port (a legacy query): its ID echoed, TTLs at most 10 s.
        let empty = try #require(Self.value(lines, "QUERY-EMPTY"))
        #expect(empty.contains("\"port\": \(port)"))
        #expect(empty.contains("\"instance\": \"setd\""))
        #expect(empty.contains("\"rooms\": \"0\"") && empty.contains("\"players\": \"0\""))
        #expect(empty.contains("\"version\": \"1.1.0\""))
        #expect(empty.contains("\"addresses\": [\"127.0.0.1\", \"::1\"]"))
        #expect(
            empty.contains("\"id_echoed\": true") && empty.contains("\"ttls\": {\"ptr\": 10, \"srv\": 10}"))
        // With bob in room fun, the counts follow.
        let playing = try #require(Self.value(lines, "QUERY-PLAYING"))
        #expect(playing.contains("\"rooms\": \"1\"") && playing.contains("\"players\": \"1\""))
        // set-cli --find found the one server and joined it.
        #expect(Self.value(lines, "CLI-STATUS") == "0")
        #expect(
            lines.contains(
                "CLI   1) setd  127.0.0.1:\(port)  0 rooms, 0 players  (\(Self.hostLabel()).local)"))
        #expect(lines.contains("CLI joining setd at 127.0.0.1:\(port)"))
        #expect(lines.contains("CLI joined fun (SET); ? shows the keys"))
        #expect(Self.value(lines, "SETD-STATUS") == "0")
        // What the LAN heard: three probes, two announcements with every record, the new counts, and the
        // goodbye with TTL 0 at shutdown.
        let heard = lines.filter { $0.hasPrefix("HEARD {\"from\"") }
        let probes = heard.filter { $0.contains("\"response\": false") && $0.contains("\"type\": 33") }
        #expect(probes.count == 3)
        let announcements = heard.filter {
            $0.contains("\"response\": true") && $0.contains("\"name\": \"_setd._tcp.local\", \"ttl\": 4500")
        }
        #expect(announcements.count == 2)
        #expect(
            heard.contains {
                $0.contains("\"response\": true") && !$0.contains("\"type\": 33")
                    && $0.contains("\"type\": 16")
            })
        let goodbye = try #require(heard.last)
        #expect(goodbye.contains("\"name\": \"_setd._tcp.local\", \"ttl\": 0, \"type\": 12"))
        #expect(!goodbye.contains("\"ttl\": 4500") && !goodbye.contains("\"ttl\": 120"))
        #expect(lines.contains { $0.hasPrefix("LOG") && $0.contains("mdns-announced instance=setd") })
    }

    @Test func aSecondServerTakesAnotherNameAndSetCliJoinsTheOnePicked() throws {
        let lines = try Self.run("two")
        let one = try #require(Self.value(lines, "PORT one"))
        let two = try #require(Self.value(lines, "PORT two"))
        let found = lines.filter { $0.hasPrefix("FOUND ") }
        #expect(found.count == 2)
        #expect(found.contains { $0.contains("\"instance\": \"setd\"") && $0.contains("\"port\": \(one)") })
        #expect(
            found.contains { $0.contains("\"instance\": \"setd (2)\"") && $0.contains("\"port\": \(two)") })
        // Two setds on one machine share the host name: the same addresses are no conflict (RFC 6762 §9).
        #expect(found.allSatisfy { $0.contains("\"host\": \"\(Self.hostLabel()).local\"") })
        #expect(lines.contains { $0.contains("mdns-conflict name=setd renamed-to=\"setd (2)\"") })
        #expect(lines.contains("CLI found 2 setd servers on the LAN:"))
        #expect(lines.contains { $0.hasSuffix("join which? [1-2] joining setd (2) at 127.0.0.1:\(two)") })
        #expect(lines.contains("CLI connected to 127.0.0.1:\(two)"))
        #expect(Self.value(lines, "CLI-STATUS") == "0")
    }

    @Test func withoutTheFlagsNothingIsSentToTheLAN() throws {
        let lines = try Self.run("silent")
        // setd without --announce answers nothing, and neither it nor set-cli with --host sends a packet.
        #expect(Self.value(lines, "QUERY") == "")
        #expect(Self.value(lines, "CLI-STATUS") == "0")
        let heard = lines.filter { $0.hasPrefix("HEARD {\"from\"") }
        // The only packet is mdns_query.py's own question.
        #expect(heard.count == 1)
        #expect(heard.allSatisfy { $0.contains("\"records\": [], \"response\": false") })
    }

    /// The host label setd makes of this machine's name.
    static func hostLabel() -> String {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, 255)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let first = host.split(separator: ".").first.map(String.init) ?? ""
        let kept = first.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        return kept.isEmpty ? "setd" : "setd-" + kept
    }
}

/// Whether this test process can make network namespaces.
enum NetworkNamespace {
    static let isAvailable: Bool = {
        guard getuid() == 0, let unshare = programOnPath("unshare"), programOnPath("python3") != nil else {
            return false
        }
        return (try? Child.run(unshare, ["-n", "true"]).status) == 0
    }()
}
