#if canImport(Glibc)
    import Glibc
#endif

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
    // "e": close-on-exec, or a daemon spawned meanwhile by a test running beside this one inherits it.
    guard let file = fopen(path, "re") else { return nil }
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

/// Checks `condition` every `interval` seconds until it holds or `timeout` seconds pass (once more at the
/// end); returns whether it held.
public func eventually(timeout: Double, every interval: Double = 0.01, _ condition: () throws -> Bool)
    rethrows -> Bool
{
    let deadline = monotonicNow() + timeout
    while true {
        if try condition() { return true }
        if monotonicNow() >= deadline { return false }
        pause(interval)
    }
}

/// The built executable `name`: in `SETD_PRODUCTS` if set, else beside this test binary (SwiftPM puts
/// the products there, in the folder above the bundle), else in the package's `.build/debug` or
/// `.build/release`. Throws, saying how to build it, when there is none.
public func productPath(_ name: String) throws -> String {
    var candidates: [String] = []
    if let directory = getenv("SETD_PRODUCTS") { candidates.append(String(cString: directory) + "/" + name) }
    if let exe = testBinaryPath() {
        var directory = exe
        // The bundle may be a directory (…/setdPackageTests.xctest/…); walk up to the products folder.
        while let slash = directory.lastIndex(of: "/"), !directory.isEmpty {
            directory = String(directory[..<slash])
            candidates.append(directory + "/" + name)
            if !directory.contains(".xctest") { break }
        }
    }
    for argument in CommandLine.arguments.prefix(1) {
        if let slash = argument.lastIndex(of: "/") {
            candidates.append(String(argument[..<slash]) + "/" + name)
        }
    }
    let file = String(#filePath)
    let root = file.firstRange(of: "/Sources/").map { String(file[..<$0.lowerBound]) } ?? "."
    candidates += [root + "/.build/debug/" + name, root + "/.build/release/" + name]
    guard let found = candidates.first(where: { access($0, X_OK) == 0 }) else {
        throw ClientError(
            description: "\(name) is not built (looked in \(candidates)); run `swift build` first")
    }
    return found
}

/// The built `setd`: `SETD_PATH` if set, else ``productPath(_:)``.
public func setdPath() throws -> String {
    if let path = getenv("SETD_PATH"), access(path, X_OK) == 0 { return String(cString: path) }
    return try productPath("setd")
}

/// This test binary, for running one test in a process of its own.
public func testBinaryPath() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The full path of program `name` on `PATH`, or `nil`.
public func programOnPath(_ name: String) -> String? {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// The first process under `pid` (children, grandchildren, …) whose name is `name`, from /proc.
public func descendant(of pid: pid_t, named name: String) -> pid_t? {
    var queue = [pid]
    while !queue.isEmpty {
        let current = queue.removeFirst()
        let comm = readFile("/proc/\(current)/comm").map { String(decoding: $0, as: UTF8.self) } ?? ""
        if comm.split(separator: "\n").first.map(String.init) == name, current != pid { return current }
        let children = readFile("/proc/\(current)/task/\(current)/children") ?? []
        queue += String(decoding: children, as: UTF8.self).split(separator: " ").compactMap { pid_t($0) }
    }
    return nil
}

/// The CPU seconds (user and system) process `pid` has used, from /proc/<pid>/stat.
public func cpuSeconds(pid: pid_t) -> Double? {
    guard let bytes = readFile("/proc/\(pid)/stat"), let close = bytes.lastIndex(of: UInt8(ascii: ")")) else {
        return nil
    }
    // After the command name in parentheses: state is field 3; utime and stime are fields 14 and 15.
    let fields = bytes[(close + 2)...].split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
        return nil
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
