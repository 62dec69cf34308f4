#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under /tmp, removed with everything in it by ``remove()``.
public final class TemporaryDirectory {
    public let path: String

    public init(_ prefix: String = "setd-test") throws {
        var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ClientError(description: "mkdtemp failed, errno \(errno)")
        }
        path = String(cString: made)
    }

    deinit { remove() }

    /// The names in the directory (not `.` or `..`).
    public var entries: [String] { directoryEntries(path) }

    /// Deletes the files in the directory (it holds no subdirectories), then the directory.
    public func remove() {
        for name in entries { unlink(path + "/" + name) }
        rmdir(path)
    }
}

/// The names in directory `path`, without `.` and `..`; empty if it cannot be read.
public func directoryEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafePointer(to: entry.pointee.d_name) {
            $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

/// The whole content of a file, or `nil` if it cannot be read.
public func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n <= 0 { break }
        bytes += chunk[..<n]
    }
    return bytes
}

/// Appends `bytes` to the file at `path` with one `write`.
public func appendToFile(_ path: String, _ bytes: [UInt8]) throws {
    let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
    guard fd >= 0 else { throw ClientError(description: "cannot open \(path), errno \(errno)") }
    defer { close(fd) }
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw ClientError(description: "short write to \(path)") }
}

/// The built `setd` running as a child process on 127.0.0.1 and a free port, its port read from the
/// banner. Its stderr (the log) is collected when it exits.
public final class Daemon {
    public let child: Child
    public let port: UInt16
    private var hasExited = false
    /// What the daemon logged, once it has exited.
    public private(set) var log = ""

    /// Starts `setd --host 127.0.0.1 --port 0 --log-level warn` and `arguments`; with `directory`, the
    /// daemon runs in it (through `/bin/sh -c 'cd … && exec setd …'`, so the pid is still setd's).
    public init(_ arguments: [String], workingDirectory directory: String? = nil) throws {
        let setd = try setdPath()
        let all = ["--host", "127.0.0.1", "--port", "0", "--log-level", "warn"] + arguments
        if let directory {
            let quoted = ([setd] + all).map { "'" + $0 + "'" }.joined(separator: " ")
            child = try spawn("/bin/sh", ["-c", "cd '\(directory)' && exec \(quoted)"])
        } else {
            child = try spawn(setd, all)
        }
        let banner = Child.read(child.stdout, until: monotonicNow() + 10) { $0.contains("\n") }
        guard let range = banner.firstRange(of: "listening on port "),
            let port = UInt16(banner[range.upperBound...].prefix { $0.isNumber })
        else {
            _ = child.waitForExit(timeout: 0)
            let log = Child.read(child.stderr, until: monotonicNow() + 1)
            child.closePipes()
            hasExited = true
            throw ClientError(description: "setd \(arguments) printed no port: '\(banner)', log: \(log)")
        }
        self.port = port
    }

    deinit {
        if !hasExited { kill9() }
        child.closePipes()
    }

    /// Connects a test client and checks the greeting.
    public func connect(_ label: String) throws -> TestClient {
        let client = try TestClient(port: port, label: label)
        let greeting = try client.readLine()
        guard greeting.hasPrefix("SETD 1 ") else {
            throw ClientError(description: "\(label): greeting was '\(greeting)'")
        }
        return client
    }

    /// `kill -9`: the daemon gets no chance to write or close anything.
    public func kill9() {
        guard !hasExited else { return }
        kill(child.pid, SIGKILL)
        _ = child.waitForExit(timeout: 5)
        finish()
    }

    /// SIGTERM, as a host stops it; returns the exit status (`nil` if it did not exit by itself).
    @discardableResult
    public func terminate() -> Int32? {
        guard !hasExited else { return nil }
        kill(child.pid, SIGTERM)
        let status = child.waitForExit(timeout: 5)
        finish()
        return status
    }

    private func finish() {
        hasExited = true
        log = Child.read(child.stderr, until: monotonicNow() + 2)
    }

    /// Where the daemon's open descriptors point (`socket:[…]`, `pipe:[…]`, paths), while it runs.
    public var openDescriptorTargets: [String] { descriptorTargets(pid: child.pid) }
}

/// The targets of the descriptors of process `pid`, read from /proc.
public func descriptorTargets(pid: pid_t?) -> [String] {
    let directory = pid.map { "/proc/\($0)/fd" } ?? "/proc/self/fd"
    var targets: [String] = []
    for name in directoryEntries(directory) {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let length = readlink(directory + "/" + name, &buffer, buffer.count - 1)
        guard length > 0 else { continue }
        targets.append(String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return targets
}

/// Descriptors open in this process.
public func openDescriptorCount() -> Int { directoryEntries("/proc/self/fd").count }

/// Descriptors of this process that are TCP sockets whose local port is `port`: an in-process server's
/// listener and the connections it accepted. Other tests running in parallel never use that port, so
/// unlike the total count this one is exact.
public func socketDescriptorCount(localPort port: UInt16) -> Int {
    var inodes = Set<String>()
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        guard let bytes = readFile(table) else { continue }
        for row in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
            let fields = row.split(separator: " ")
            guard fields.count > 9, let colon = fields[1].lastIndex(of: ":"),
                UInt16(fields[1][fields[1].index(after: colon)...], radix: 16) == port, fields[9] != "0"
            else { continue }
            inodes.insert(String(fields[9]))
        }
    }
    return descriptorTargets(pid: nil).filter { target in
        target.hasPrefix("socket:[") && inodes.contains(String(target.dropFirst(8).dropLast()))
    }.count
}

/// This process's resident memory in bytes, from /proc/self/status.
public func residentMemoryBytes() -> Int {
    guard let bytes = readFile("/proc/self/status") else { return 0 }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return kilobytes * 1024
    }
    return 0
}

/// Polls `condition` every 10 ms until it holds or `timeout` seconds pass; returns whether it held.
public func eventually(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = monotonicNow() + timeout
    while true {
        if condition() { return true }
        if monotonicNow() >= deadline { return false }
        pause(0.01)
    }
}
