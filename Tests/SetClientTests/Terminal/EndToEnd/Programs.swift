import Foundation
import Testing

/// Finding and running the programs an end-to-end test drives, with a deadline on everything.
///
/// Children are started with `posix_spawn` and an empty signal mask with default dispositions: test
/// threads block most signals, and a tmux server that inherited that mask could not be stopped.
enum Programs {
    /// The directory of the built executables: `SETD_PRODUCTS` if set, else the directory of the test
    /// bundle, which SwiftPM puts beside the products (as swift-argument-parser's test helpers assume).
    static var productsDirectory: URL {
        if let directory = ProcessInfo.processInfo.environment["SETD_PRODUCTS"] {
            return URL(fileURLWithPath: directory)
        }
        var url = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("set-cli").path) {
                return url
            }
        }
        return URL(fileURLWithPath: ".build/debug")
    }

    /// The path of a built product, or a recorded failure that says how to build it.
    static func product(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        let path = productsDirectory.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            Issue.record(
                "\(name) is not built at \(path); run `swift build` first", sourceLocation: sourceLocation)
            return nil
        }
        return path
    }

    /// The full path of a program on PATH.
    static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs a program to completion, killing it after `timeout` seconds; returns its exit status and
    /// standard output.
    @discardableResult
    static func run(_ path: String, _ arguments: [String], timeout: Double = 10) throws -> (
        status: Int32, output: String
    ) {
        let child = try Child(path, arguments)
        defer { child.closeOutput() }
        var output = ""
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            output += child.readAvailable()
            if let status = child.exitStatus() {
                output += child.readAvailable()
                return (status, output)
            }
            usleep(5_000)
        }
        child.kill(SIGKILL)
        _ = child.wait(timeout: 2)
        throw TestFailure("\(path) \(arguments.joined(separator: " ")) took more than \(timeout) s")
    }

    /// Waits up to `timeout` seconds for `condition`, checking every 50 ms; returns whether it held.
    static func wait(timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if try condition() { return true }
            usleep(50_000)
        } while Date() < deadline
        return try condition()
    }
}

/// A failure with a message, thrown out of a test helper.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Reaps one child process and remembers how it ended, so its status can be asked for any number of
/// times from any thread.
final class Reaper: @unchecked Sendable {
    let pid: pid_t
    private let lock = NSLock()
    private var status: Int32?

    init(pid: pid_t) { self.pid = pid }

    /// The exit status once the child has exited (128 + signal when killed), else `nil`.
    func exitStatus() -> Int32? {
        lock.withLock {
            if let status { return status }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
            status = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
            return status
        }
    }

    /// Waits up to `timeout` seconds for the child to exit.
    func wait(timeout: Double) -> Int32? {
        _ = Programs.wait(timeout: timeout) { exitStatus() != nil }
        return exitStatus()
    }

    /// Sends a signal, unless the child is gone.
    func kill(_ signal: Int32) {
        if exitStatus() == nil { _ = Glibc.kill(pid, signal) }
    }
}

/// A child process with standard input from /dev/null, standard output on a non-blocking pipe and
/// standard error discarded.
final class Child: @unchecked Sendable {
    let pid: pid_t
    private let output: Int32
    private let reaper: Reaper

    init(_ path: String, _ arguments: [String]) throws {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw TestFailure("pipe: errno \(errno)") }
        for fd in pipeEnds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(pipeEnds[0], F_SETFL, O_NONBLOCK)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(pipeEnds[1])
        guard result == 0 else {
            close(pipeEnds[0])
            throw TestFailure("posix_spawn \(path): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        reaper = Reaper(pid: pid)
        self.output = pipeEnds[0]
    }

    /// What the child wrote since the last call.
    func readAvailable() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The exit status once the child has exited (128 + signal when killed), else `nil`.
    func exitStatus() -> Int32? { reaper.exitStatus() }

    /// Waits up to `timeout` seconds for the child to exit.
    func wait(timeout: Double) -> Int32? { reaper.wait(timeout: timeout) }

    /// Sends a signal, unless the child is gone.
    func kill(_ signal: Int32) { reaper.kill(signal) }

    func closeOutput() { close(output) }
}

/// A `setd` of our own on 127.0.0.1, stopped when the test ends.
final class Daemon: @unchecked Sendable {
    let port: Int
    private let child: Child

    /// Starts `setd` (on `port`, or a free one) and waits for it to say where it listens.
    init(path: String, port: Int = 0, arguments: [String] = []) throws {
        let child = try Child(path, ["--host", "127.0.0.1", "--port", String(port)] + arguments)
        self.child = child
        var said = ""
        var found: Int?
        _ = Programs.wait(timeout: 15) {
            said += child.readAvailable()
            if let range = said.range(of: "listening on port ") {
                found = Int(said[range.upperBound...].prefix { $0.isNumber })
            }
            return found != nil || child.exitStatus() != nil
        }
        guard let found else {
            child.kill(SIGKILL)
            throw TestFailure("setd did not say 'listening on port N' within 15 s; it said: \(said)")
        }
        self.port = found
    }

    /// Stops the daemon: SIGTERM (or SIGKILL when `kill`), then SIGKILL if it lingers.
    func stop(kill: Bool = false) {
        child.kill(kill ? SIGKILL : SIGTERM)
        if child.wait(timeout: 5) == nil {
            child.kill(SIGKILL)
            _ = child.wait(timeout: 5)
        }
    }

    deinit {
        stop(kill: true)
        child.closeOutput()
    }
}

/// A directory of scratch files for one test, removed with it.
final class TemporaryDirectory: @unchecked Sendable {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("set-cli-e2e-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The contents of a file in the directory, once it has a complete last line.
    func read(_ name: String) -> String? {
        guard let text = try? String(contentsOfFile: "\(path)/\(name)", encoding: .utf8), text.hasSuffix("\n")
        else { return nil }
        return text
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The first process under `pid` (children, grandchildren, …) whose name is `name`.
func descendant(of pid: String, named name: String) -> Int32? {
    var queue = [pid]
    while !queue.isEmpty {
        let current = queue.removeFirst()
        let comm = (try? String(contentsOfFile: "/proc/\(current)/comm", encoding: .utf8)) ?? ""
        if comm.trimmingCharacters(in: .whitespacesAndNewlines) == name, current != pid {
            return Int32(current)
        }
        let children =
            (try? String(contentsOfFile: "/proc/\(current)/task/\(current)/children", encoding: .utf8)) ?? ""
        queue += children.split(separator: " ").map(String.init)
    }
    return nil
}
