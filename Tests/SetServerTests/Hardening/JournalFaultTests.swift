import SetProtocol
import SetTestSupport
import SetTestTraits
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The faults a host meets with `--state-dir`: damage is loud and leaves the file alone, a full disk
/// never costs an acknowledged change, one directory has one owner, and seats come back by token.
@Suite(.ownThread, .serialized) struct JournalFaultTests {
    /// Starts `setd` expecting it to refuse; returns its exit status and what it printed on stderr.
    private func refusedStart(_ arguments: [String]) throws -> (status: Int32?, errors: String) {
        let child = try Child(try setdPath(), ["--host", "127.0.0.1", "--port", "0"] + arguments)
        defer { child.stop() }
        let status = child.wait(timeout: 10)
        return (status, child.errors(within: 1))
    }

    /// Runs `setd` with one of its journal commands; returns the exit status and both outputs.
    private func journalCommand(_ arguments: [String]) throws -> (status: Int32?, text: String) {
        let child = try Child(try setdPath(), arguments)
        defer { child.stop() }
        let status = child.wait(timeout: 10)
        return (status, child.output(within: 1) + child.errors(within: 1))
    }

    private func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw ClientError(description: "cannot write \(path)") }
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// A journal with a room, a seat and three chats; returns the directory.
    private func journalWithChats() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory("setd-damage")
        let daemon = try Daemon(["--state-dir", directory.path])
        let ann = try daemon.connect("ann")
        _ = try ann.hello("ann")
        #expect(try ann.request("JOIN fun").isOK("JOIN"))
        for text in ["one", "two", "three"] { #expect(try ann.request("CHAT \(text)").isOK("CHAT")) }
        #expect(daemon.terminate() == 0)
        return directory
    }

    @Test(.stretchedTimeLimit(minutes: 2)) func aDamagedMiddleRecordStopsTheStartAndLeavesTheFileAsItWas()
        throws
    {
        let directory = try journalWithChats()
        let path = directory.path + "/journal"
        var bytes = try #require(readFile(path))
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let chat = try #require(
            lines.firstIndex { String(decoding: $0, as: UTF8.self).hasPrefix("chat fun ann one") })
        let offset = lines[..<chat].reduce(0) { $0 + $1.count + 1 }
        bytes[offset + 14] ^= 0x20  // "one" becomes "oNe": the checksum no longer matches.
        try writeFile(path, bytes)

        let (status, errors) = try refusedStart(["--state-dir", directory.path])
        #expect(status != nil && status != 0, "setd exits non-zero on damage: \(errors)")
        #expect(errors.contains("\(path): line \(chat + 1), byte offset \(offset)"), "\(errors)")
        #expect(readFile(path) == bytes, "the file is left exactly as it was")

        let check = try journalCommand(["--check-journal", directory.path])
        #expect(check.status == 1, "\(check.text)")
        #expect(check.text.contains("line \(chat + 1), byte offset \(offset)"), "\(check.text)")
        #expect(readFile(path) == bytes)

        #expect(check.text.contains("would keep a copy and drop 1 record(s)"), "\(check.text)")
        #expect(check.text.contains("line \(chat + 1), byte offset \(offset): chat in fun"), "\(check.text)")

        let repair = try journalCommand(["--repair-journal", directory.path])
        #expect(repair.status == 0, "\(repair.text)")
        #expect(
            repair.text.contains("dropped 1 record(s)"), "a damaged chat costs only itself: \(repair.text)")
        let copies = directory.entries.filter { $0.hasPrefix("journal.broken-") }
        #expect(copies.count == 1, "\(directory.entries)")
        #expect(
            copies.first.flatMap { readFile(directory.path + "/" + $0) } == bytes,
            "the copy is the damaged file")
        let next = offset + lines[chat].count + 1
        #expect(readFile(path) == Array(bytes[..<offset] + bytes[next...]), "only the damaged chat is gone")
        #expect(try journalCommand(["--check-journal", directory.path]).status == 0)
        let daemon = try Daemon(["--state-dir", directory.path])
        #expect(daemon.terminate() == 0)
    }

    @Test(.stretchedTimeLimit(minutes: 2)) func aRecordThatDoesNotReplayStopsTheStart() throws {
        let directory = try journalWithChats()
        let path = directory.path + "/journal"
        let before = try #require(readFile(path))
        // A whole, checksummed record for a room that does not exist.
        let body = Array("seat nowhere ann 0123456789abcdef0123456789abcdef".utf8)
        var line = body + Array(" ~".utf8)
        line += Array(ChecksumReference.journalChecksum(String(decoding: body, as: UTF8.self)).utf8) + [0x0A]
        try appendToFile(path, line)
        let (status, errors) = try refusedStart(["--state-dir", directory.path])
        #expect(status != nil && status != 0, "\(errors)")
        #expect(errors.contains("byte offset \(before.count)") && errors.contains("nowhere"), "\(errors)")
        #expect(readFile(path) == before + line)
    }

    @Test(.stretchedTimeLimit(minutes: 2)) func anUnreadableJournalOrAnOpenDirectoryIsRefused() throws {
        let directory = try TemporaryDirectory("setd-unreadable")
        // A journal that cannot be read as a file: setd must not take it for an empty one.
        #expect(mkdir(directory.path + "/journal", 0o700) == 0)
        let (status, errors) = try refusedStart(["--state-dir", directory.path])
        #expect(status != nil && status != 0, "\(errors)")
        #expect(errors.contains(directory.path + "/journal"), "\(errors)")
        #expect(!errors.contains("cannot listen"), "a state problem is not a port problem: \(errors)")
        rmdir(directory.path + "/journal")

        // A directory others may write to is refused, and not changed.
        #expect(chmod(directory.path, 0o777) == 0)
        let open = try refusedStart(["--state-dir", directory.path])
        #expect(open.status != nil && open.status != 0)
        #expect(open.errors.contains("can be written by other users"), "\(open.errors)")
        #expect(chmod(directory.path, 0o700) == 0)

        // A missing directory is created, for this user only.
        let fresh = directory.path + "/fresh"
        let daemon = try Daemon(["--state-dir", fresh])
        var info = stat()
        #expect(stat(fresh, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(daemon.terminate() == 0)
        for name in directoryEntries(fresh) { unlink(fresh + "/" + name) }
        rmdir(fresh)
    }

    /// A state directory on a read-only file system: setd cannot keep its promise, so it does not start.
    @Test(.stretchedTimeLimit(minutes: 2)) func aReadOnlyStateDirectoryIsRefused() throws {
        guard let mountPoint = try Tmpfs(options: "ro,size=1m", for: "aReadOnlyStateDirectoryIsRefused")
        else { return }
        defer { mountPoint.unmount() }
        let (status, errors) = try refusedStart(["--state-dir", mountPoint.path])
        #expect(status != nil && status != 0, "\(errors)")
        #expect(errors.contains(mountPoint.path) && errors.contains("Read-only file system"), "\(errors)")
        #expect(!errors.contains("cannot listen"))
    }

    @Test(.stretchedTimeLimit(minutes: 2)) func aSecondDaemonOnTheSameDirectoryIsRefused() throws {
        let directory = try TemporaryDirectory("setd-twice")
        let first = try Daemon(["--state-dir", directory.path])
        let (status, errors) = try refusedStart(["--state-dir", directory.path])
        #expect(status != nil && status != 0)
        #expect(
            errors.contains("another setd (pid \(first.child.pid)) is using \(directory.path)"), "\(errors)")
        // The first goes on, and its journal is the one file.
        let ann = try first.connect("ann")
        _ = try ann.hello("ann")
        #expect(try ann.request("JOIN fun").isOK("JOIN"))
        #expect(first.terminate() == 0)
        let second = try Daemon(["--state-dir", directory.path])
        let rooms = try second.connect("bob").request("ROOMS")
        #expect(rooms.final == "OK ROOMS 1", "\(rooms)")
        #expect(second.terminate() == 0)
    }

    /// A journal of the first format, with a chat ending in U+0600 (which fused with the space before its
    /// checksum when read by `Character`s), is read and rewritten in the current format.
    @Test(.stretchedTimeLimit(minutes: 2)) func aJournalOfTheFirstFormatIsUpgraded() throws {
        let directory = try TemporaryDirectory("setd-legacy")
        let token = "0123456789abcdef0123456789abcdef"
        let records = [
            "room lg 42 game=set mode=normal penalty=1 hints=on",
            "game lg 0 1767225600000 1 game=set mode=normal penalty=1 hints=on",
            "seat lg ann \(token)", "chat lg ann hi \u{600}", "presence lg ann away",
        ]
        var bytes: [UInt8] = []
        for record in records {
            bytes += Array(record.utf8) + Array(" ~".utf8)
            bytes += Array(ChecksumReference.journalChecksum(record).utf8) + [0x0A]
        }
        try writeFile(directory.path + "/journal", bytes)
        #expect(try journalCommand(["--check-journal", directory.path]).text.contains("first format"))
        let daemon = try Daemon(["--state-dir", directory.path])
        let ann = try daemon.connect("ann")
        #expect(try ann.request("RESUME \(token)").isOK("RESUME ann lg"))
        #expect(daemon.terminate() == 0)
        let text = String(decoding: readFile(directory.path + "/journal") ?? [], as: UTF8.self)
        #expect(text.hasPrefix("setd-journal 2 ~"), "rewritten in the current format: \(text)")
    }

    @Test(.stretchedTimeLimit(minutes: 2)) func journalCommandsNeverCreateOrTrustAnUnsafeDirectory() throws {
        let directory = try TemporaryDirectory("setd-tools")
        let missing = directory.path + "/typo"
        #expect(try journalCommand(["--repair-journal", missing]).status == 1)
        #expect(access(missing, F_OK) != 0, "a mistyped path is not created")
        #expect(chmod(directory.path, 0o1777) == 0)
        let check = try journalCommand(["--check-journal", directory.path])
        #expect(check.status == 1 && check.text.contains("can be written by other users"), "\(check.text)")
        #expect(chmod(directory.path, 0o700) == 0)
    }

    @Test(.stretchedTimeLimit(minutes: 2)) func aSymlinkPlantedAtTheTemporaryFileIsNotFollowed() throws {
        let directory = try TemporaryDirectory("setd-symlink")
        let victim = try TemporaryDirectory("setd-victim")
        let target = victim.path + "/precious"
        try writeFile(target, Array("do not touch\n".utf8))
        #expect(symlink(target, directory.path + "/journal.tmp") == 0)
        // It compacts at start, through journal.tmp.
        let daemon = try Daemon(["--state-dir", directory.path])
        let ann = try daemon.connect("ann")
        _ = try ann.hello("ann")
        #expect(try ann.request("JOIN fun").isOK("JOIN"))
        #expect(daemon.terminate() == 0)
        #expect(readFile(target) == Array("do not touch\n".utf8))
        #expect(try journalCommand(["--check-journal", directory.path]).status == 0)
    }

    @Test(.stretchedTimeLimit(minutes: 2)) func seatsComeBackByTokenOverThreeRestarts() throws {
        let directory = try TemporaryDirectory("setd-seats")
        let arguments = ["--state-dir", directory.path, "--seed", "9"]
        var daemon = try Daemon(arguments)
        var ann = try daemon.connect("ann")
        let annToken = try ann.hello("ann")
        #expect(try ann.request("JOIN first").isOK("JOIN"))
        let bob = try daemon.connect("bob")
        let bobToken = try bob.hello("bob")
        #expect(try bob.request("JOIN first").isOK("JOIN"))
        // Ann moves rooms; her seat goes with her token.
        #expect(try ann.request("JOIN second").isOK("JOIN"))
        #expect(daemon.terminate() == 0)

        daemon = try Daemon(arguments)  // Restart 1: ann in second, bob in first.
        ann = try daemon.connect("ann")
        #expect(try ann.request("RESUME \(annToken)").isOK("RESUME ann second"))
        var carl = try daemon.connect("carl")
        let bobResumed = try carl.request("RESUME \(bobToken)")
        #expect(bobResumed.isOK("RESUME bob first"))
        // A RESUME retires the token it presented: bob's seat now answers to the new one only.
        let bobToken2 = try #require(bobResumed.newToken)
        // Ann quits: her name is free, and a stranger takes it.
        #expect(try ann.request("QUIT").isOK("QUIT"))
        let stranger = try daemon.connect("stranger")
        let strangerToken = try stranger.hello("ann")
        #expect(try stranger.request("JOIN third").isOK("JOIN"))
        #expect(daemon.terminate() == 0)

        daemon = try Daemon(arguments)  // Restart 2.
        carl = try daemon.connect("carl")
        #expect(
            try carl.request("RESUME \(annToken)").error == .badToken, "the old owner's token is gone")
        let back = try daemon.connect("back")
        let strangerResumed = try back.request("RESUME \(strangerToken)")
        #expect(strangerResumed.isOK("RESUME ann third"))
        let strangerToken2 = try #require(strangerResumed.newToken)
        let rooms = try carl.request("ROOMS")
        #expect(
            rooms.lines == ["ROOM first set 1 playing", "ROOM third set 1 playing"], "no ghost room: \(rooms)"
        )
        #expect(daemon.terminate() == 0)

        daemon = try Daemon(arguments)  // Restart 3: the same again.
        let last = try daemon.connect("last")
        let retired = try last.request("RESUME \(strangerToken)")
        #expect(retired.error == .badToken && retired.final.contains("replaced"), "\(retired)")
        #expect(try last.request("RESUME \(strangerToken2)").isOK("RESUME ann third"))
        #expect(try daemon.connect("bob").request("RESUME \(bobToken2)").isOK("RESUME bob first"))
        #expect(daemon.terminate() == 0)
    }

    /// The scenarios that once stopped setd from starting on its own journal: Matchismo's new games, by
    /// one player alone or by a vote, and a Matchismo room dealt after READY; restarted after SIGTERM and
    /// after kill -9, each comes back as it was and plays on.
    @Test(.stretchedTimeLimit(minutes: 2)) func matchismoPlayRestartsAfterSigtermAndKillNine() throws {
        for kills in [false, true] {
            let directory = try TemporaryDirectory("setd-matchismo")
            let arguments = ["--state-dir", directory.path, "--seed", "4"]
            var daemon = try Daemon(arguments)
            let ann = try daemon.connect("ann")
            let annToken = try ann.hello("ann")
            #expect(try ann.request("JOIN m matchismo").isOK("JOIN"))
            #expect(try ann.request("NEW").final == "OK NEW started")
            for position in ["a", "b", "c"] { #expect(try ann.request("CHOOSE \(position)").isOK("CHOOSE")) }
            let bob = try daemon.connect("bob")
            let bobToken = try bob.hello("bob")
            #expect(try bob.request("JOIN r matchismo start=ready").isOK("JOIN"))
            #expect(try bob.request("READY").isOK("READY"))
            _ = try bob.expect(prefix: "ROOM r matchismo 1 playing")
            #expect(try bob.request("CHOOSE a").isOK("CHOOSE"))
            let before = try ann.request("STATE").lines
            if kills { daemon.kill9() } else { #expect(daemon.terminate() == 0) }

            daemon = try Daemon(arguments)
            let back = try daemon.connect("back")
            let resumed = try back.request("RESUME \(annToken)")
            #expect(resumed.isOK("RESUME ann m"), "\(resumed)")
            #expect(resumed.shownLines == before, "kill -9: \(kills)")
            #expect(try back.request("CHOOSE d").isOK("CHOOSE"), "play goes on")
            let bobBack = try daemon.connect("bob")
            #expect(try bobBack.request("RESUME \(bobToken)").isOK("RESUME bob r"))
            #expect(try bobBack.request("CHOOSE b").isOK("CHOOSE"))
            #expect(daemon.terminate() == 0)
            #expect(try journalCommand(["--check-journal", directory.path]).status == 0)
        }
    }

    @Test(.stretchedTimeLimit(minutes: 2)) func aGraceExpiryWithNobodyConnectedIsWrittenBeforeShutdown()
        throws
    {
        let directory = try TemporaryDirectory("setd-grace")
        let arguments = ["--state-dir", directory.path, "--grace", "1"]
        var daemon = try Daemon(arguments)
        var ann = try daemon.connect("ann")
        let token = try ann.hello("ann")
        #expect(try ann.request("JOIN brief").isOK("JOIN"))
        ann.close()
        // The seat expires and the room closes with nobody connected; then SIGTERM.
        pause(2.5)
        #expect(daemon.terminate() == 0)
        daemon = try Daemon(arguments)
        ann = try daemon.connect("ann")
        #expect(try ann.request("RESUME \(token)").error == .badToken)
        #expect(try ann.request("ROOMS").final == "OK ROOMS 0")
        #expect(daemon.terminate() == 0)
    }

    /// A full disk: changes are refused with UNAVAILABLE, reads go on, nothing acknowledged is lost, and
    /// changes resume by themselves when space comes back. Needs root, for a small tmpfs of its own.
    @Test(.stretchedTimeLimit(minutes: 2)) func aFullDiskRefusesChangesAndLosesNothingAcknowledged() throws {
        guard
            let mountPoint = try Tmpfs(
                options: "size=8m", for: "aFullDiskRefusesChangesAndLosesNothingAcknowledged")
        else { return }
        defer { mountPoint.unmount() }
        let state = mountPoint.path + "/state"
        let arguments = ["--state-dir", state, "--seed", "4"]
        var daemon = try Daemon(arguments)
        var ann = try daemon.connect("ann")
        let token = try ann.hello("ann")
        var told = try Told(snapshot: try ann.request("JOIN fun").lines, player: "ann")
        // Fill the disk.
        let filler = mountPoint.path + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 0x78, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
        // Chat until the journal's reserve runs out and changes are refused: `%` is escaped in the
        // journal, so each of these chats is a record of about 3 KB.
        let text = "CHAT " + String(repeating: "%", count: 1000)
        var refusal: Reply?
        for _ in 0..<3000 {
            let reply = try ann.request(text)
            if reply.isOK("CHAT") { continue }
            if reply.error == .slowDown {
                pause(0.05)
                continue
            }
            refusal = reply
            break
        }
        let refused = try #require(refusal, "changes were never refused on a full disk")
        #expect(refused.final.hasPrefix("ERR CHAT UNAVAILABLE "), "\(refused)")
        pause(2.1)  // The chats spent the rate limit.
        let board = try #require(told.boardView)
        #expect(try ann.request(board.claim(board.sets[0])).error == .unavailable)
        #expect(try ann.request("STATE").isOK("STATE"), "reads still work")
        #expect(try ann.request("ROOMS").isOK("ROOMS"))

        // Space comes back: within a couple of ticks changes are accepted again.
        unlink(filler)
        var accepted: Reply?
        for _ in 0..<50 where accepted == nil {
            pause(0.1)
            let current = try #require(told.boardView)
            let reply = try ann.request(current.claim(current.sets[0]))
            if reply.isOK("CHOOSE") {
                told.update(from: reply.lines, player: "ann")
                accepted = reply
            } else {
                #expect(reply.error == .unavailable, "\(reply)")
            }
        }
        try #require(accepted != nil, "changes never resumed")
        // What was acknowledged survives kill -9.
        daemon.kill9()
        #expect(try journalCommand(["--check-journal", state]).status == 0)
        daemon = try Daemon(arguments)
        ann = try daemon.connect("ann")
        let reply = try ann.request("RESUME \(token)")
        #expect(try Told(snapshot: reply.lines, player: "ann") == told, "\(reply)")
        daemon.kill9()
        _ = daemon.log
    }
}

/// A small tmpfs of a test's own, for a full or read-only disk; mounting needs root, so without it the
/// test says why it skipped and `init` returns `nil`.
private final class Tmpfs {
    private let directory: TemporaryDirectory
    var path: String { directory.path }

    init?(options: String, for test: String) throws {
        guard geteuid() == 0 else {
            print("skipped \(test): mounting a tmpfs needs root")
            return nil
        }
        directory = try TemporaryDirectory("setd-tmpfs")
        let mounted = try Child.run(
            "/bin/mount", ["-t", "tmpfs", "-o", "\(options),mode=0700", "tmpfs", directory.path])
        guard mounted.status == 0 else {
            throw ClientError(description: "mount -o \(options) failed: \(mounted.output)")
        }
    }

    func unmount() { _ = try? Child.run("/bin/umount", ["-l", directory.path]) }
}
