import SetServer
import SetServerCore
import SetTestSupport
import SetTestTraits
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Starting and stopping a server inside another program, as the tests and embedders do.
@Suite(.ownThread) struct LifecycleTests {
    @Test func stopSaysByeToEveryone() throws {
        let server = try TestServer()
        let (ann, _) = try server.player("ann", room: "end")
        let fan = try server.connect("fan")
        #expect(try fan.request("WATCH end").isOK("WATCH"))
        server.stop()
        #expect(try ann.expectEOF() == ["BYE server shutting down"])
        #expect(try fan.expectEOF() == ["BYE server shutting down"])
    }

    /// Set in the child process that ``aStoppedServerCanBeReleased()`` runs the scenario in.
    private static let probeVariable = "SETD_RELEASE_PROBE"

    @Test func aStoppedServerCanBeReleased() throws {
        if getenv(Self.probeVariable) != nil {
            try Self.startStopAndRelease()
            return
        }
        // The scenario runs in a copy of this test binary, so that a crash fails this test alone.
        let binary = try #require(testBinaryPath())
        let child = try Child(
            binary, ["--testing-library", "swift-testing", "--filter", "aStoppedServerCanBeReleased"],
            environment: [Self.probeVariable: "1", "SWIFT_BACKTRACE": "enable=no"])
        defer { child.stop() }
        let status = child.wait(timeout: 30)
        let output =
            child.errors(within: 1)
            + child.output(within: 1)
        let fatal = output.split(separator: "\n").filter {
            $0.contains("Fatal error") || $0.contains("crashed")
        }
        #expect(status == 0, "releasing a stopped server killed the process: \(fatal)")
    }

    /// Starts a server, connects clients, stops it and lets it go, many times over.
    private static func startStopAndRelease() throws {
        for _ in 0..<50 {
            var configuration = ServerConfiguration()
            configuration.host = "127.0.0.1"
            configuration.port = 0
            configuration.logLevel = .error
            var server: Server? = Server(configuration: configuration)
            let port = try server!.start()
            let first = try TestClient(port: port, label: "first")
            _ = try first.readLine()
            try first.send("PING")
            let second = try TestClient(port: port, label: "second")
            _ = try second.readLine()
            server!.stop()
            server = nil
            _ = try first.expectEOF()
            pause(0.01)
        }
        pause(0.3)
    }
}
