import SetSocket

#if canImport(Glibc)
    import Glibc
#endif

/// The file calls the journal needs, each behind one function that returns `errno`-free Swift values:
/// the one place in the shell, besides `SetSocket`, that talks to the kernel.
enum FileSystem {
    /// A failed call: what was being done, to which path, and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var code: Int32

        var description: String { "cannot \(operation) \(path): \(String(cString: strerror(code)))" }

        /// Whether the disk is full (or the quota spent), as opposed to a broken disk or a wrong path.
        var isOutOfSpace: Bool { code == ENOSPC || code == EDQUOT }
    }

    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600, for operation: String)
        throws(Failure)
        -> Int32
    {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC | O_NOFOLLOW, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw Failure(operation: operation, path: path, code: errno) }
        }
    }

    /// The whole file; `nil` if it does not exist.
    static func read(_ path: String) throws(Failure) -> [UInt8]? {
        let fd: Int32
        do {
            fd = try open(path, O_RDONLY, for: "open")
        } catch {
            if error.code == ENOENT { return nil }
            throw error
        }
        defer { Glibc.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "read", path: path, code: errno)
            }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
        }
    }

    /// Writes every byte at the descriptor's offset, resuming after short writes and `EINTR`; on failure,
    /// how many bytes made it.
    static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) -> (written: Int, failure: Failure?) {
        let (written, code) = FileDescriptor.writeAll(bytes, to: fd)
        return (written, code.map { Failure(operation: "write", path: path, code: $0) })
    }

    static func sync(_ fd: Int32, path: String) throws(Failure) {
        guard fsync(fd) == 0 else { throw Failure(operation: "fsync", path: path, code: errno) }
    }

    /// Flushes a directory's entries, so a rename in it survives a power cut.
    static func syncDirectory(_ path: String) throws(Failure) {
        let fd = try open(path, O_RDONLY | O_DIRECTORY, for: "open")
        defer { Glibc.close(fd) }
        try sync(fd, path: path)
    }

    /// Replaces the file at `path` with `bytes`: written to `temporary`, flushed to disk and renamed over
    /// it, then `directory` is flushed, so a crash leaves either the old file or the new one. A left-over
    /// temporary (from a crash) or a symlink planted there is removed, never followed.
    static func replace(_ path: String, with bytes: [UInt8], via temporary: String, in directory: String)
        throws(Failure)
    {
        unlink(temporary)
        let out = try open(temporary, O_WRONLY | O_CREAT | O_EXCL, for: "create")
        do throws(Failure) {
            if let failure = writeAll(bytes, to: out, path: temporary).failure { throw failure }
            try sync(out, path: temporary)
        } catch {
            Glibc.close(out)
            unlink(temporary)
            throw error
        }
        Glibc.close(out)
        guard rename(temporary, path) == 0 else {
            let failure = Failure(operation: "rename over", path: path, code: errno)
            unlink(temporary)
            throw failure
        }
        try syncDirectory(directory)
    }

    static func truncate(_ fd: Int32, to length: Int, path: String) throws(Failure) {
        guard ftruncate(fd, off_t(length)) == 0 else {
            throw Failure(operation: "truncate", path: path, code: errno)
        }
    }

    static func size(_ fd: Int32) -> Int {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : 0
    }

    private typealias Fallocate = @convention(c) (Int32, Int32, off_t, off_t) -> Int32
    /// `fallocate(2)`, which Glibc's Swift module does not export; `nil` where libc lacks it.
    private static let fallocateCall: Fallocate? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate") else { return nil }
        return unsafeBitCast(symbol, to: Fallocate.self)
    }()

    /// Reserves disk blocks for `length` bytes at `offset` without changing the file's size, so later
    /// appends into them cannot fail for want of space. Returns `false` (with nothing reserved) where the
    /// file system cannot reserve; throws when the disk is full.
    static func reserve(_ fd: Int32, at offset: Int, length: Int, path: String) throws(Failure) -> Bool {
        guard let call = fallocateCall else { return false }
        let keepSize: Int32 = 1  // FALLOC_FL_KEEP_SIZE
        while call(fd, keepSize, off_t(offset), off_t(length)) != 0 {
            switch errno {
            case EINTR: continue
            case EOPNOTSUPP, ENOSYS: return false
            default: throw Failure(operation: "reserve space for", path: path, code: errno)
            }
        }
        return true
    }
}
