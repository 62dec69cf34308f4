import SetServer
import SetServerCore
import SetTestSupport
import SetTestTraits
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `setd` executable, run as a host would run it.
@Suite(.ownThread) struct DaemonTests {
    @Test func sigtermSaysByeAndExitsCleanly() throws {
        let child = try Child(try setdPath(), ["--port", "0", "--host", "127.0.0.1", "--seed", "7"])
        defer { child.stop() }
        let banner = child.output(within: 10) { $0.contains("\n") }
        let match = banner.split(separator: "\n").first.flatMap { line -> UInt16? in
            guard let range = line.firstRange(of: "listening on port ") else { return nil }
            return UInt16(line[range.upperBound...].prefix { $0.isNumber })
        }
        guard let port = match else {
            child.stop()
            Issue.record("no 'listening on port N' in stdout: \(banner)")
            return
        }
        #expect(banner.contains("nc 127.0.0.1 \(port)"), "\(banner)")
        let client = try TestClient(port: port, label: "player")
        #expect(try client.readLine().hasPrefix("SETD 1 "))
        #expect(try client.request("HELLO ann").isOK("HELLO ann"))
        #expect(try client.request("JOIN night").isOK("JOIN"))

        child.kill(SIGTERM)
        let lines = try client.expectEOF(timeout: 5)
        #expect(lines == ["BYE server shutting down"])
        let status = child.wait(timeout: 5)
        #expect(status == 0, "setd exited with \(status.map(String.init) ?? "a signal or not at all")")
        let log = child.errors(within: 1)
        #expect(log.contains("shutdown"), "the log says why it stopped: \(log)")
    }

    @Test func sigintAlsoSaysBye() throws {
        let child = try Child(try setdPath(), ["--port", "0", "--host", "127.0.0.1", "--log-level", "error"])
        defer { child.stop() }
        let banner = child.output(within: 10) { $0.contains("\n") }
        let port = banner.firstRange(of: "port ").flatMap {
            UInt16(banner[$0.upperBound...].prefix { $0.isNumber })
        }
        guard let port else {
            child.stop()
            Issue.record("no port in \(banner)")
            return
        }
        let client = try TestClient(port: port, label: "player")
        _ = try client.readLine()
        child.kill(SIGINT)
        #expect(try client.expectEOF(timeout: 5) == ["BYE server shutting down"])
        #expect(child.wait(timeout: 5) == 0)
    }

    @Test func helpListsEveryFlagAndExitsZero() throws {
        let child = try Child(try setdPath(), ["--help"])
        defer { child.stop() }
        let status = child.wait(timeout: 10)
        let text = child.output(within: 1)
        #expect(status == 0)
        for flag in [
            "--host", "--port", "--max-clients", "--max-rooms", "--grace", "--idle-timeout", "--log-level",
            "--seed", "--help", "-h", "--version", "--fsync", "--check-journal", "--repair-journal",
            "--no-qr", "--trust-proxy", "--public-url",
        ] {
            #expect(text.contains(flag), "--help mentions \(flag)")
        }
        // Every flag the help lists is one the parser takes.
        let listed = Set(
            text.split { $0 == " " || $0 == "\n" || $0 == "[" || $0 == "]" || $0 == "," }
                .filter { $0.hasPrefix("--") }.map(String.init))
        #expect(listed.count >= 10, "\(listed)")
        for flag in listed {
            let value: [String] =
                switch flag {
                case "--help", "--version", "--no-http", "--no-qr", "--announce": []
                case "--host": ["127.0.0.1"]
                case "--log-level": ["warn"]
                case "--fsync": ["always", "--state-dir", "/x"]
                case "--allow-origin", "--public-url": ["https://set.example.org"]
                case "--trust-proxy": ["127.0.0.1"]
                default: ["5"]
                }
            #expect(throws: Never.self, "\(flag) parses") { _ = try DaemonCommand.parse([flag] + value) }
        }
    }

    /// A signal the moment the banner is out (as a service manager may send one) still stops setd: it
    /// is not lost while libdispatch arms its sources.
    @Test func aSignalRightAfterTheBannerIsNotLost() throws {
        for round in 0..<10 {
            let daemon = try Daemon()
            #expect(daemon.terminate() == 0, "round \(round): \(daemon.log)")
        }
    }

    @Test func rateLimitTakesARateAndABurst() throws {
        for (arguments, rate, burst) in [("0", 0.0, 0.0), ("50", 50, 100), ("1000/5000", 1000, 5000)] {
            guard case .run(let configuration, _, _) = try DaemonCommand.parse(["--rate-limit", arguments])
            else {
                Issue.record("--rate-limit \(arguments) does not run the server")
                continue
            }
            #expect(configuration.commandsPerSecond == rate, "\(arguments)")
            #expect(configuration.commandBurst == burst, "\(arguments)")
        }
        for bad in ["-1", "x", "10/", "10/0", "1/2/3", ""] {
            #expect(throws: DaemonCommand.UsageError.self, "'\(bad)'") {
                _ = try DaemonCommand.parse(["--rate-limit", bad])
            }
        }
    }

    @Test func fsyncTakesItsThreePoliciesOnly() throws {
        for (name, policy) in [("always", FsyncPolicy.always), ("everysec", .everySecond), ("no", .never)] {
            guard
                case .run(let configuration, _, _) = try DaemonCommand.parse([
                    "--state-dir", "/x", "--fsync", name,
                ])
            else {
                Issue.record("--fsync \(name) does not run the server")
                continue
            }
            #expect(configuration.fsync == policy)
        }
        #expect(throws: DaemonCommand.UsageError.self) {
            _ = try DaemonCommand.parse(["--fsync", "sometimes"])
        }
        #expect(throws: DaemonCommand.UsageError.self, "--fsync without a journal") {
            _ = try DaemonCommand.parse(["--fsync", "always"])
        }
        #expect(throws: DaemonCommand.UsageError.self, "a journal command stands alone") {
            _ = try DaemonCommand.parse(["--check-journal", "/x", "--repair-journal", "/x"])
        }
        #expect(throws: DaemonCommand.UsageError.self) {
            _ = try DaemonCommand.parse(["--state-dir", "/y", "--check-journal", "/x"])
        }
        #expect(try DaemonCommand.parse(["--check-journal", "/x"]) == .checkJournal("/x"))
        #expect(try DaemonCommand.parse(["--repair-journal", "/x"]) == .repairJournal("/x"))
    }

    @Test func versionExitsZero() throws {
        let child = try Child(try setdPath(), ["--version"])
        defer { child.stop() }
        #expect(child.wait(timeout: 10) == 0)
        #expect(child.output(within: 1).hasPrefix("setd "))
    }

    @Test func aHostThatDoesNotResolveSaysWhyTheLookupFailed() throws {
        let child = try Child(try setdPath(), ["--host", "nosuchhost.invalid", "--port", "0"])
        defer { child.stop() }
        #expect(child.wait(timeout: 30) == 1)
        let message = child.errors(within: 1)
        // The resolver's own words (which depend on the machine's DNS), never an errno's.
        let lookupErrors = [EAI_NONAME, EAI_AGAIN, EAI_FAIL].map {
            String(cString: gai_strerror($0))
        }
        #expect(message.contains("getaddrinfo nosuchhost.invalid: "), "\(message)")
        #expect(lookupErrors.contains { message.contains($0) }, "\(message)")
        #expect(!message.contains(String(cString: strerror(EADDRNOTAVAIL))), "\(message)")
    }

    @Test(arguments: [
        ["--bogus"], ["--port"], ["--port", "70000"], ["--grace", "-1"], ["--log-level", "loud"],
    ])
    func badArgumentsExitTwo(arguments: [String]) throws {
        let child = try Child(try setdPath(), arguments)
        defer { child.stop() }
        #expect(child.wait(timeout: 10) == 2, "\(arguments)")
        let message = child.errors(within: 1)
        #expect(message.hasPrefix("setd: "), "\(arguments): \(message)")
        #expect(child.output(within: 0.2).isEmpty)
        if arguments == ["--bogus"] { #expect(message.contains("--bogus"), "\(message)") }
    }
}
