#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under /tmp for one test's files, removed with everything in it by ``remove()`` or
/// when it is released.
public final class TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Makes `/tmp/<prefix>.XXXXXX`.
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

    /// The text of file `name` in the directory once its last line is complete, else `nil` (a shell may
    /// be writing it still).
    public func read(_ name: String) -> String? {
        guard let bytes = readFile(path + "/" + name), bytes.last == 0x0A else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Deletes everything in the directory, subdirectories too (a proxy a test runs makes its own),
    /// then the directory.
    public func remove() {
        Self.removeTree(path)
    }

    private static func removeTree(_ path: String) {
        for name in directoryEntries(path) {
            let entry = path + "/" + name
            var status = stat()
            // lstat: a symbolic link is removed, never followed.
            if lstat(entry, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                removeTree(entry)
            } else {
                unlink(entry)
            }
        }
        rmdir(path)
    }
}
