import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process of a test: standard output and error collected by threads of their own, standard
/// input from /dev/null or a socket the test types into, and a reaper that any thread may ask.
///
/// Children start with `posix_spawn`, default signal dispositions and an empty signal mask: test threads
/// block most signals, and a child that inherited that mask (tmux, a daemon) could not be stopped. Every
/// descriptor the test keeps is close-on-exec from the start, so children of tests running at the same
/// time never inherit it. A child still running when the value is released is killed and reaped.
public final class Child: Sendable {
    /// What the child reads on its standard input.
    public enum Input: Sendable {
        /// /dev/null: the child sees end of file at once.
        case null
        /// A socket the test writes with ``type(_:)`` and ends with ``closeInput()``. A socket, not a pipe,
        /// so writing after the child is gone fails instead of raising SIGPIPE.
        case socket
    }

    /// The program, as given to ``init(_:_:environment:workingDirectory:input:)``.
    public let path: String
    /// The child's process ID.
    public let pid: pid_t
    private let reaper: Reaper
    private let input: Mutex<Int32>
    private let standardOutput: CollectedStream
    private let standardError: CollectedStream

    /// Starts `path` with `arguments`, the test's environment with `environment` added (and with an
    /// `XDG_STATE_HOME` of its own unless `environment` names one, see `stateDirectory()`), and in
    /// `workingDirectory` if given (through `/bin/sh -c 'cd … && exec …'`, so the pid is still the
    /// program's).
    public init(
        _ path: String, _ arguments: [String] = [], environment: [String: String] = [:],
        workingDirectory: String? = nil, input: Input = .null
    ) throws {
        var argv = [path] + arguments
        if let workingDirectory {
            argv = ["/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", workingDirectory] + argv
        }
        // Socket pairs, made close-on-exec at once; the child gets its ends through dup2 only.
        var ends: [[Int32]] = []
        for _ in 0..<3 {
            var pair: [Int32] = [-1, -1]
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
                let code = errno
                for fd in ends.joined() { close(fd) }
                throw ClientError(description: "socketpair failed, errno \(code)")
            }
            ends.append(pair)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch input {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .socket: posix_spawn_file_actions_adddup2(&actions, ends[0][1], 0)
        }
        posix_spawn_file_actions_adddup2(&actions, ends[1][1], 1)
        posix_spawn_file_actions_adddup2(&actions, ends[2][1], 2)
        Self.closeTheRest(&actions)
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

        var variables = currentEnvironment()
        variables["XDG_STATE_HOME"] = Self.stateDirectory()
        for (name, value) in environment { variables[name] = value }
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnvironment: [UnsafeMutablePointer<CChar>?] =
            variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in cArguments + cEnvironment { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        for pair in ends { close(pair[1]) }
        guard status == 0 else {
            for pair in ends { close(pair[0]) }
            throw ClientError(description: "posix_spawn \(path) failed: \(String(cString: strerror(status)))")
        }
        if input == .null { close(ends[0][0]) }
        self.path = path
        self.pid = pid
        reaper = Reaper(pid: pid)
        self.input = Mutex(input == .null ? -1 : ends[0][0])
        standardOutput = CollectedStream(collecting: ends[1][0])
        standardError = CollectedStream(collecting: ends[2][0])
    }

    deinit { stop() }

    /// Runs `path` to completion, killing it after `timeout` seconds; returns its exit status and
    /// standard output.
    @discardableResult
    public static func run(
        _ path: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 10
    ) throws -> (status: Int32, output: String) {
        let child = try Child(path, arguments, environment: environment)
        guard let status = child.wait(timeout: timeout) else {
            child.stop()
            throw ClientError(
                description: "\(path) \(arguments.joined(separator: " ")) took more than \(timeout) s")
        }
        return (status, child.output(within: 2))
    }

    // MARK: Output

    /// Standard output so far, as bytes.
    public var rawOutput: [UInt8] { standardOutput.bytes }
    /// Standard error so far, as bytes.
    public var rawErrors: [UInt8] { standardError.bytes }
    /// Standard output so far.
    public var output: String { String(decoding: rawOutput, as: UTF8.self) }
    /// Standard error so far.
    public var errors: String { String(decoding: rawErrors, as: UTF8.self) }

    /// Standard output once `done` says enough, its end has come, or `seconds` have passed.
    public func output(within seconds: Double, until done: (String) -> Bool = { _ in false }) -> String {
        standardOutput.text(within: seconds, until: done)
    }

    /// Standard error once `done` says enough, its end has come, or `seconds` have passed.
    public func errors(within seconds: Double, until done: (String) -> Bool = { _ in false }) -> String {
        standardError.text(within: seconds, until: done)
    }

    /// Waits until standard output contains `text`; throws, with both streams, when `timeout` seconds
    /// pass or the child exits without printing it.
    public func waitForOutput(_ text: String, timeout: Double = 10) throws {
        _ = eventually(timeout: timeout) { output.contains(text) || exitStatus() != nil }
        if exitStatus() != nil {
            // What was written before the exit may still be on its way to the collecting threads.
            _ = output(within: 2)
            _ = errors(within: 2)
        }
        guard output.contains(text) else {
            let how = exitStatus().map { "\(path) exited with status \($0)" } ?? "waited \(timeout) s"
            throw ClientError(
                description: "'\(text)' not printed (\(how)); stdout:\n\(output)\nstderr:\n\(errors)")
        }
    }

    // MARK: Input

    /// Types `line` and an LF on standard input (with ``Input/socket``); does nothing once it is closed
    /// or the child is gone.
    public func type(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        input.withLock { fd in
            guard fd >= 0 else { return }
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes {
                    send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
                }
                if n > 0 {
                    offset += n
                } else if !(n < 0 && errno == EINTR) {
                    break
                }
            }
        }
    }

    /// Ends standard input: the child reads end of file.
    public func closeInput() {
        input.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    // MARK: Status

    /// The exit status once the child has exited (128 + the signal when a signal ended it), else `nil`.
    public func exitStatus() -> Int32? { reaper.exitStatus() }

    /// Waits up to `timeout` seconds for the child to exit; returns ``exitStatus()`` (`nil` if it still
    /// runs, and then it is left running).
    public func wait(timeout: Double) -> Int32? { reaper.wait(timeout: timeout) }

    /// Sends `signal`, unless the child has been reaped.
    public func kill(_ signal: Int32) { reaper.kill(signal) }

    /// Kills the child if it still runs, reaps it, and closes its input.
    public func stop() {
        kill(SIGKILL)
        _ = wait(timeout: 5)
        closeInput()
    }

    /// The child's resident memory in kB, from /proc; `nil` once it is gone.
    public var residentKilobytes: Int? {
        guard let bytes = readFile("/proc/\(pid)/status") else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        where line.hasPrefix("VmRSS:") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return words.count > 1 ? Int(words[1]) : nil
        }
        return nil
    }
}

/// Reaps one child process and remembers how it ended, so that its status can be asked any number of
/// times from any thread. Only the reaper waits for its pid, and it signals under the same lock, so a
/// signal never reaches a reaped pid that the system may have given to another process.
final class Reaper: Sendable {
    let pid: pid_t
    private let status = Mutex<Int32?>(nil)

    init(pid: pid_t) { self.pid = pid }

    /// The exit status once the child has exited (128 + the signal when a signal ended it), else `nil`.
    func exitStatus() -> Int32? {
        status.withLock { status in reap(&status) }
    }

    /// Waits up to `timeout` seconds for the child to exit.
    func wait(timeout: Double) -> Int32? {
        _ = eventually(timeout: timeout) { exitStatus() != nil }
        return exitStatus()
    }

    /// Sends a signal, unless the child has been reaped.
    func kill(_ signal: Int32) {
        status.withLock { status in
            if reap(&status) == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    private func reap(_ status: inout Int32?) -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
        let value = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        status = value
        return value
    }
}

/// One output stream of a child, read to its end by a thread of its own, so a child never blocks on a
/// full pipe while the test is busy elsewhere.
private final class CollectedStream: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var isOpen = true
    }
    private let state = Mutex(State())

    /// Starts a thread that reads `fd` to its end and then closes it.
    init(collecting fd: Int32) {
        startThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    state.withLock { $0.bytes += chunk[0..<n] }
                } else if !(n < 0 && errno == EINTR) {
                    break
                }
            }
            close(fd)
            state.withLock { $0.isOpen = false }
        }
    }

    /// Everything read so far.
    var bytes: [UInt8] { state.withLock { $0.bytes } }

    /// The text once `done` says enough, the stream has ended, or `seconds` have passed.
    func text(within seconds: Double, until done: (String) -> Bool) -> String {
        var text = ""
        _ = eventually(timeout: seconds) {
            let (bytes, isOpen) = state.withLock { ($0.bytes, $0.isOpen) }
            text = String(decoding: bytes, as: UTF8.self)
            return !isOpen || done(text)
        }
        return text
    }
}

/// The body of a thread started by ``startThread(_:)``.
private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Runs `body` on a new detached thread: a blocking read must not hold a Dispatch worker.
private func startThread(_ body: @escaping @Sendable () -> Void) {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    let result = pthread_create(
        &thread, nil,
        { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
    precondition(result == 0, "pthread_create failed: \(result)")
    pthread_detach(thread)
}

extension Child {
    /// The directory of this test process's children's own state, made once, and removed with what they
    /// wrote in it when the process exits.
    private static let stateRoot: TemporaryDirectory = {
        let directory: TemporaryDirectory
        do {
            directory = try TemporaryDirectory("setd-test-state")
        } catch {
            fatalError("no directory for the children's state: \(error)")
        }
        atexit { Child.stateRoot.remove() }
        return directory
    }()

    private static let stateCount = Atomic<Int>(0)

    /// A state directory for one child, not made until the child makes it.
    ///
    /// set-cli keeps each seat's `RESUME` token under `$XDG_STATE_HOME`, by host, port and name. With the
    /// test's own environment, every run on the machine shared `~/.local/state/set-cli`: a token a real
    /// daemon gave alice on some port, left by an earlier test, was found again when the system handed
    /// that port to a fake server, which then read `RESUME` where it waited for `HELLO alice`. So each
    /// child starts with none, and no test writes into the home directory. A test that restarts set-cli
    /// to resume its seat names its own directory in `environment`.
    private static func stateDirectory() -> String {
        let number = stateCount.add(1, ordering: .relaxed).newValue
        return "\(stateRoot.path)/child-\(number)"
    }
}

/// This process's environment, by name.
private func currentEnvironment() -> [String: String] {
    var variables: [String: String] = [:]
    var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = environ
    while let pointer = entry.pointee {
        let text = String(cString: pointer)
        if let equals = text.firstIndex(of: "=") {
            variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        entry += 1
    }
    return variables
}

extension Child {
    /// A descriptor some library opened without close-on-exec while another test spawned a child would
    /// leak into it (a daemon then "holds" /proc/net/tcp). glibc 2.34's `addclosefrom_np` closes every
    /// descriptor above 2 in the child; Swift's Glibc module does not export it, so it is looked up.
    private static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else {
            return
        }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
}
