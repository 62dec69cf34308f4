#if canImport(Glibc)
    import Glibc
#endif

/// The built `setd` running as a child process on 127.0.0.1, its port read from the banner. Its log
/// (standard error) is collected all along, and is complete once the daemon has been stopped.
public final class Daemon: Sendable {
    /// The `setd` process.
    public let child: Child
    /// The port it listens on.
    public let port: UInt16

    /// How long a daemon may take to print its banner, or to exit after SIGTERM, on a loaded machine.
    private static let startTimeout = 15.0
    private static let stopTimeout = 5.0

    /// Starts `setd --host 127.0.0.1 --port <port> --log-level warn` and `arguments` (which may override
    /// them), in `workingDirectory` if given, and waits for it to say where it listens. Port 0, the
    /// default, picks a free port; another port lets a test restart a daemon where it was. With
    /// `descriptorLimit` the daemon may open no more descriptors than that (soft and hard limit).
    public init(
        _ arguments: [String] = [], port: UInt16 = 0, workingDirectory: String? = nil,
        descriptorLimit: Int? = nil
    ) throws {
        let all = ["--host", "127.0.0.1", "--port", String(port), "--log-level", "warn"] + arguments
        let child: Child
        if let descriptorLimit {
            // The shell lowers both limits, then becomes setd.
            let script =
                "ulimit -Sn \(descriptorLimit) && ulimit -Hn \(descriptorLimit) && exec \"$0\" \"$@\""
            child = try Child(
                "/bin/sh", ["-c", script, try setdPath()] + all, workingDirectory: workingDirectory)
        } else {
            child = try Child(try setdPath(), all, workingDirectory: workingDirectory)
        }
        let banner = child.output(within: Self.startTimeout) { Self.port(inBanner: $0) != nil }
        guard let found = Self.port(inBanner: banner) else {
            child.stop()
            let log = child.errors(within: 1)
            throw ClientError(
                description:
                    "setd \(arguments) did not say 'listening on port N' within \(Self.startTimeout) s;"
                    + " it said: '\(banner)', log: \(log)")
        }
        self.child = child
        self.port = found
    }

    deinit { kill9() }

    /// The port of a complete `… listening on port N …` line.
    private static func port(inBanner text: String) -> UInt16? {
        guard let range = text.firstRange(of: "listening on port "),
            text[range.upperBound...].contains("\n")
        else { return nil }
        return UInt16(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// What the daemon logged so far; all of it once ``kill9()`` or ``terminate()`` has returned.
    public var log: String { child.errors }

    /// Connects a test client and checks the greeting.
    public func connect(_ label: String) throws -> TestClient {
        let client = try TestClient(port: port, label: label)
        let greeting = try client.readLine()
        guard greeting.hasPrefix("SETD 1 ") else {
            throw ClientError(description: "\(label): greeting was '\(greeting)'")
        }
        return client
    }

    /// `kill -9`: the daemon gets no chance to write or close anything. Safe to call again.
    public func kill9() {
        child.stop()
        _ = child.errors(within: 2)
    }

    /// SIGTERM, as a host stops it; returns the exit status, or `nil` if it did not exit within 5 s by
    /// itself (it is killed then). Once the daemon has exited, returns how it ended.
    @discardableResult
    public func terminate() -> Int32? {
        child.kill(SIGTERM)
        let status = child.wait(timeout: Self.stopTimeout)
        kill9()
        return status
    }

    /// Where the daemon's open descriptors point (`socket:[…]`, `pipe:[…]`, paths), while it runs.
    public var openDescriptorTargets: [String] { descriptorTargets(pid: child.pid) }
}
