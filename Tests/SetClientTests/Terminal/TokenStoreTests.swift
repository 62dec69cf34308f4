import Foundation
import SetTerminal
import SetTestSupport
import Testing

/// The seat tokens kept on disk: private files, replaced whole, and damage reported, never used.
@Suite struct TokenStoreTests {
    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    @Test("A saved token reads back; the directory is 0700 and the file 0600, with no temporary left")
    func roundTrip() throws {
        let root = try TemporaryDirectory("token-store")
        let store = TokenStore(directory: root.path + "/state/set-cli")
        #expect(store.load(host: "127.0.0.1", port: 7777, name: "carol") == .success(nil))
        try store.save("0123abcd", host: "127.0.0.1", port: 7777, name: "carol")
        #expect(store.load(host: "127.0.0.1", port: 7777, name: "carol") == .success("0123abcd"))
        #expect(store.load(host: "127.0.0.1", port: 7778, name: "carol") == .success(nil), "per server")
        #expect(store.load(host: "127.0.0.1", port: 7777, name: "dave") == .success(nil), "per name")
        #expect(mode(store.directory) == 0o700)
        let file = store.path(host: "127.0.0.1", port: 7777, name: "carol")
        #expect(mode(file) == 0o600)
        try store.save("ffff0000", host: "127.0.0.1", port: 7777, name: "carol")
        #expect(store.load(host: "127.0.0.1", port: 7777, name: "carol") == .success("ffff0000"))
        #expect(directoryEntries(store.directory).sorted() == ["carol@127.0.0.1-7777"])
        store.remove(host: "127.0.0.1", port: 7777, name: "carol")
        #expect(store.load(host: "127.0.0.1", port: 7777, name: "carol") == .success(nil))
    }

    @Test("A directory open to others is made 0700 before a token goes in")
    func tightensDirectory() throws {
        let root = try TemporaryDirectory("token-store")
        let store = TokenStore(directory: root.path + "/set-cli")
        #expect(mkdir(store.directory, 0o755) == 0)
        #expect(chmod(store.directory, 0o755) == 0)
        try store.save("abc", host: "::1", port: 1, name: "x")
        #expect(mode(store.directory) == 0o700)
        #expect(store.path(host: "::1", port: 1, name: "x").hasSuffix("/x@%3A%3A1-1"))
    }

    @Test("A damaged file, one readable by others, and a link are reported and not used")
    func damage() throws {
        let root = try TemporaryDirectory("token-store")
        let store = TokenStore(directory: root.path + "/set-cli")
        try store.save("abc", host: "h", port: 1, name: "n")
        let file = store.path(host: "h", port: 1, name: "n")
        try appendToFile(file, Array("\u{1B}[2J junk\n".utf8))
        guard case .failure(let damaged) = store.load(host: "h", port: 1, name: "n") else {
            Issue.record("a damaged token file was used")
            return
        }
        #expect(damaged.reason.contains("damaged") && damaged.path == file)
        // Saving again replaces the damaged file whole.
        try store.save("abc", host: "h", port: 1, name: "n")
        #expect(store.load(host: "h", port: 1, name: "n") == .success("abc"))

        #expect(chmod(file, 0o644) == 0)
        guard case .failure(let open) = store.load(host: "h", port: 1, name: "n") else {
            Issue.record("a token file readable by others was used")
            return
        }
        #expect(open.reason.contains("readable by others"))

        let other = root.path + "/elsewhere"
        try Data("abc\n".utf8).write(to: URL(fileURLWithPath: other))
        #expect(chmod(other, 0o600) == 0)
        let link = store.path(host: "h", port: 2, name: "n")
        #expect(symlink(other, link) == 0)
        guard case .failure = store.load(host: "h", port: 2, name: "n") else {
            Issue.record("a token file that is a link was followed")
            return
        }
        // Saving over a link replaces the link, never writes through it.
        try store.save("def", host: "h", port: 2, name: "n")
        #expect(store.load(host: "h", port: 2, name: "n") == .success("def"))
        #expect(String(decoding: readFile(other) ?? [], as: UTF8.self) == "abc\n")
    }

    @Test("The store is under XDG_STATE_HOME, else ~/.local/state; relative paths are ignored")
    func standardPlace() {
        #expect(
            TokenStore.standard(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])?.directory
                == "/s/set-cli")
        #expect(TokenStore.standard(environment: ["HOME": "/h"])?.directory == "/h/.local/state/set-cli")
        #expect(
            TokenStore.standard(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"])?.directory
                == "/h/.local/state/set-cli")
        #expect(TokenStore.standard(environment: [:]) == nil)
    }
}
