import Foundation
import SetProtocol
import SetTestSupport
import SetTestTraits
import Testing

/// Every binary names one version, and set-bench against nothing fails at once with one line.
@Suite(.ownThread) struct VersionAndDeadPortTests {
    @Test(
        "--version on every binary prints the one release line and exits 0",
        arguments: ["setd", "set-cli", "set-bench", "game-bench", "journal-bench"])
    func version(_ program: String) throws {
        let result = try Child.run(try productPath(program), ["--version"], timeout: 20)
        #expect(result.status == 0)
        #expect(result.output == Release.banner(program) + "\n")
        #expect(
            result.output.hasPrefix("\(program) \(Release.version) (protocol \(Release.protocolVersion))"))
    }

    @Test("set-bench against a port nobody listens on fails fast with one clear line and exit status 1")
    func deadPort() throws {
        // A port that was free a moment ago: bind 127.0.0.1:0, read the port, close it again.
        let listener = try TestServer()
        let port = listener.port
        listener.stop()
        let started = monotonicNow()
        let child = try Child(
            try productPath("set-bench"),
            [
                "--host", "127.0.0.1", "--port", String(port), "--bots", "50", "--rooms", "5", "--duration",
                "60",
            ])
        let status = child.wait(timeout: 20)
        #expect(status == 1)
        #expect(monotonicNow() - started < 10, "set-bench waited for its whole run against a dead port")
        let errors = child.errors(within: 1).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(errors.count == 2 && errors[1].isEmpty, "one line on standard error: \(errors)")
        #expect(errors.first?.hasPrefix("set-bench: cannot connect to 127.0.0.1:\(port): ") == true)
        #expect(errors.first?.lowercased().contains("refused") == true)
        #expect(child.output(within: 0.5).isEmpty, "no report for a run that never started")
    }
}
