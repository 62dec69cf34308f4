#if canImport(Glibc)
    import Glibc
#endif

/// The state directory, owned by one setd: created 0700, refused when others could write to it, and
/// locked with `flock` on `DIR/lock` for as long as the process lives.
///
/// Two setd processes on one directory would each append to their own idea of the journal; after the
/// first compaction one of them writes to a file that no longer has a name. The lock makes the second
/// refuse to start instead.
final class StateDirectory {
    let path: String
    private let lockDescriptor: Int32

    /// Why the directory cannot be used.
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    var journalPath: String { path + "/journal" }
    var temporaryPath: String { path + "/journal.tmp" }

    /// Opens (creating it 0700 if missing) and locks `path`.
    init(path: String) throws(Refusal) {
        self.path = path
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw Refusal(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        try Self.checkSafety(of: path)
        let lockPath = path + "/lock"
        let fd: Int32
        do {
            fd = try FileSystem.open(lockPath, O_RDWR | O_CREAT, for: "open")
        } catch {
            throw Refusal(description: "\(error)")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = (try? FileSystem.read(lockPath)).flatMap { $0 }.map {
                String(decoding: $0, as: UTF8.self)
            }
            Glibc.close(fd)
            if code == EWOULDBLOCK {
                let pid = holder?.split(separator: "\n").first.map { " (pid \($0))" } ?? ""
                throw Refusal(
                    description: "another setd\(pid) is using \(path); stop it or pick another --state-dir")
            }
            throw Refusal(description: "cannot lock \(lockPath): \(String(cString: strerror(code)))")
        }
        // The holder's pid, for the message a second setd prints.
        _ = ftruncate(fd, 0)
        _ = FileSystem.writeAll(Array("\(getpid())\n".utf8), to: fd, path: lockPath)
        lockDescriptor = fd
    }

    deinit { Glibc.close(lockDescriptor) }

    /// Refuses a path that is not a directory of this user's that only this user can write to.
    static func checkSafety(of path: String) throws(Refusal) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw Refusal(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Refusal(description: "\(path) is not a directory (a symlink is refused too)")
        }
        guard info.st_uid == geteuid() else {
            throw Refusal(
                description: "\(path) belongs to uid \(info.st_uid), not to this user (uid \(geteuid()))")
        }
        guard info.st_mode & 0o022 == 0 else {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw Refusal(
                description: "\(path) can be written by other users (mode \(mode)); run chmod 700 \(path)")
        }
    }
}
