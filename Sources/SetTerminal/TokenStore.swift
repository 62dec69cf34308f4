#if canImport(Glibc)
    import Glibc
#endif

/// The `RESUME` tokens of `set-cli`, one file per server and name, so that a client started again after
/// a crash or a closed laptop gets its seat and score back instead of a second name beside an away one.
///
/// The files live in `$XDG_STATE_HOME/set-cli/` (`~/.local/state/set-cli/` by default). A token is
/// all that stands between a stranger and a seat, so the directory is 0700 and each file 0600, and a
/// file is replaced whole: written to a new temporary file (opened `O_EXCL|O_NOFOLLOW`, so a planted
/// file or link is never written through), `fsync`ed, then renamed over the old one. A file that is
/// not a token (damaged, too long, readable by others, a link) is reported and never used.
public struct TokenStore: Equatable, Sendable {
    /// The directory the token files are in.
    public let directory: String

    /// Why a token could not be read or kept.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The file or directory concerned.
        public var path: String
        /// What is wrong, for people.
        public var reason: String

        /// Creates a failure.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        /// `path: reason`.
        public var description: String { "\(path): \(reason)" }
    }

    /// The longest token file read: a token is 32 hex digits, and a file much longer is not one.
    static let maximumFileBytes = 256
    /// The longest token accepted.
    static let maximumTokenLength = 128

    /// A store in `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// The store the environment names: `$XDG_STATE_HOME/set-cli`, else `$HOME/.local/state/set-cli`;
    /// `nil` when neither is set (or they are not absolute paths, which the XDG spec says to ignore).
    public static func standard(environment: [String: String]) -> TokenStore? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return TokenStore(directory: state + "/set-cli")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return TokenStore(directory: home + "/.local/state/set-cli")
        }
        return nil
    }

    /// The file of the token for `name` on `host:port`. The host is written with every byte other
    /// than letters, digits, `.` and `-` as `%XX`, so an IPv6 address or a hostile host name cannot
    /// make a path.
    public func path(host: String, port: UInt16, name: String) -> String {
        var encoded = ""
        for byte in host.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"):
                encoded.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                encoded += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return "\(directory)/\(name)@\(encoded)-\(port)"
    }

    /// Whether `text` has the shape of a token: 1–128 letters and digits.
    static func isToken(_ text: some Collection<UInt8>) -> Bool {
        !text.isEmpty && text.count <= maximumTokenLength
            && text.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
            }
    }

    /// The token kept for `name` on `host:port`: `nil` when there is none, a ``Failure`` when the file
    /// is there but cannot be trusted.
    public func load(host: String, port: UInt16, name: String) -> Result<String?, Failure> {
        let file = path(host: host, port: port, name: name)
        let fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return .success(nil) }
            return .failure(Failure(path: file, reason: Self.errorText(errno)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            return .failure(Failure(path: file, reason: Self.errorText(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return .failure(Failure(path: file, reason: "not a regular file"))
        }
        guard info.st_mode & 0o077 == 0 else {
            return .failure(Failure(path: file, reason: "readable by others (mode should be 0600)"))
        }
        var buffer = [UInt8](repeating: 0, count: Self.maximumFileBytes + 1)
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes {
                read(fd, $0.baseAddress! + count, $0.count - count)
            }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return .failure(Failure(path: file, reason: Self.errorText(errno))) }
            if n == 0 { break }
            count += n
        }
        var bytes = buffer[0..<count]
        if bytes.last == 0x0A { bytes.removeLast() }
        guard Self.isToken(bytes) else {
            return .failure(Failure(path: file, reason: "damaged: not a token"))
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }

    /// Keeps `token` for `name` on `host:port`, replacing the file whole.
    public func save(_ token: String, host: String, port: UInt16, name: String) throws(Failure) {
        guard Self.isToken(token.utf8) else { throw Failure(path: directory, reason: "not a token") }
        try makeDirectory()
        let file = path(host: host, port: port, name: name)
        let temporary = "\(file).tmp-\(getpid())"
        // A temporary left by a crash of this same pid's predecessor would make O_EXCL fail forever.
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(path: temporary, reason: Self.errorText(errno)) }
        let bytes = Array((token + "\n").utf8)
        var written = 0
        var failure: Int32 = 0
        // The umask may only take bits away, but be explicit: the file is for its owner alone.
        if fchmod(fd, 0o600) != 0 { failure = errno }
        while failure == 0, written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
            } else {
                written += n
            }
        }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, file) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw Failure(path: file, reason: Self.errorText(failure))
        }
        syncDirectory()
    }

    /// Forgets the token for `name` on `host:port` (after `QUIT`, which frees the seat).
    public func remove(host: String, port: UInt16, name: String) {
        if unlink(path(host: host, port: port, name: name)) == 0 { syncDirectory() }
    }

    /// Makes the directory (and its parents) if needed, and makes sure it is the owner's alone: a
    /// real directory, not a link, owned by this user, mode 0700.
    func makeDirectory() throws(Failure) {
        var prefix = ""
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw Failure(path: prefix, reason: Self.errorText(errno))
            }
        }
        var info = stat()
        guard lstat(directory, &info) == 0 else {
            throw Failure(path: directory, reason: Self.errorText(errno))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(path: directory, reason: "not a directory (a link is not followed)")
        }
        guard info.st_uid == getuid() else { throw Failure(path: directory, reason: "owned by another user") }
        if info.st_mode & 0o077 != 0, chmod(directory, 0o700) != 0 {
            throw Failure(path: directory, reason: Self.errorText(errno))
        }
    }

    private func syncDirectory() {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    private static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
