#if canImport(Glibc)
    import Glibc
#endif

/// A child process with its output on pipes.
public struct Child {
    public var pid: pid_t
    public var stdout: Int32
    public var stderr: Int32

    /// Reads what the pipe has until `deadline` or until `done` says enough.
    public static func read(_ fd: Int32, until deadline: Double, done: (String) -> Bool = { _ in false })
        -> String
    {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while monotonicNow() < deadline, !done(String(decoding: bytes, as: UTF8.self)) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, (deadline - monotonicNow()) * 1000))
            guard poll(&poller, 1, ms) > 0 else { break }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Waits up to `timeout` seconds for the child to exit; returns its exit status, or `nil` if it did not
    /// exit normally (it is killed after the timeout).
    public func waitForExit(timeout: Double) -> Int32? {
        let deadline = monotonicNow() + timeout
        var status: Int32 = 0
        while monotonicNow() < deadline {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
            }
            pause(0.01)
        }
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        return nil
    }

    public func closePipes() {
        close(stdout)
        close(stderr)
    }
}

/// The built `setd`: next to the test bundle, or in the package's default build folder.
public func setdPath() throws -> String {
    var candidates: [String] = []
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if length > 0 {
        let exe = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var directory = exe
        // The bundle may be a directory (…/setdPackageTests.xctest/…); walk up to the products folder.
        while let slash = directory.lastIndex(of: "/"), !directory.isEmpty {
            directory = String(directory[..<slash])
            candidates.append(directory + "/setd")
            if !directory.contains(".xctest") { break }
        }
    }
    for argument in CommandLine.arguments.prefix(1) {
        if let slash = argument.lastIndex(of: "/") { candidates.append(String(argument[..<slash]) + "/setd") }
    }
    let file = String(#filePath)
    let root = file.firstRange(of: "/Tests/").map { String(file[..<$0.lowerBound]) } ?? "."
    candidates += [root + "/.build/debug/setd", root + "/.build/release/setd"]
    guard let found = candidates.first(where: { access($0, X_OK) == 0 }) else {
        throw ClientError(description: "no setd executable; looked in \(candidates)")
    }
    return found
}

/// Starts `setd` with `arguments`, stdin from /dev/null and stdout and stderr on pipes.
public func spawnSetd(_ arguments: [String]) throws -> Child {
    try spawn(try setdPath(), arguments)
}

/// This test binary, for running one test in a process of its own.
public func testBinaryPath() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Starts `path` with `arguments` and `environment` (`NAME=value`), stdin from /dev/null and stdout and
/// stderr on pipes.
public func spawn(_ path: String, _ arguments: [String], environment: [String] = []) throws -> Child {
    var out: [Int32] = [0, 0]
    var err: [Int32] = [0, 0]
    guard pipe(&out) == 0, pipe(&err) == 0 else {
        throw ClientError(description: "pipe failed, errno \(errno)")
    }
    // The child gets only the ends it is given.
    for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, out[1], 1)
    posix_spawn_file_actions_adddup2(&actions, err[1], 2)
    // Default dispositions and an empty mask, whatever the test process did with its signals.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    close(out[1])
    close(err[1])
    guard status == 0 else {
        close(out[0])
        close(err[0])
        throw ClientError(description: "posix_spawn \(path) failed: \(status)")
    }
    return Child(pid: pid, stdout: out[0], stderr: err[0])
}
