import Foundation
import SetSocket
import SetTestSupport
import SetTestTraits
import Testing

/// setd behind the real proxies README's "Hosting on a server" names, with the configurations in
/// `scripts/proxy/` that README links to (issue 29): nginx (https for the page and `/ws`, a stream block
/// for the line protocol over TLS with a PROXY v1 header), HAProxy (the same, with X-Forwarded-For and a
/// PROXY v2 header) and Caddy (the page and `/ws`). Everything is on 127.0.0.0/8: a self-signed
/// certificate from `openssl`, ports chosen free at run time, the proxy a child process in the
/// foreground, stopped at the end, and players in `Tests/Proxy/proxy_players.py` (Python's `ssl`: Swift
/// has no TLS client here), each connecting from an address of its own (127.0.0.2, 127.0.0.3, …), and
/// README's terminal clients for the line protocol over TLS, `openssl s_client -quiet` and `ncat --ssl`.
///
/// setd runs with `--trust-proxy 127.0.0.1 --max-rooms-per-ip 1 --max-per-ip 2`: four friends at four
/// addresses behind one proxy each get their room; the first friend's second room and third connection
/// are refused, theirs alone; setd's log names each friend; a spoofed X-Forwarded-For or PROXY header
/// changes nothing (the header closes the connection), through the proxy or straight to setd.
///
/// A proxy that is not installed fails the test, naming its Debian package (never a silent skip).
@Suite(.ownThread, .serialized) struct BehindProxyTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// What one run of the players may take, on a loaded machine (and longer under ThreadSanitizer).
    static let playersTimeout = 30.0 * testTimeScale

    @Test(.stretchedTimeLimit(minutes: 3))
    func nginxCarriesThePageWebSocketAndLinePlayersEachAtTheirOwnAddress()
        throws
    {
        guard let nginx = Self.require("nginx", package: "nginx"), let rig = try Rig.make() else { return }
        guard access("/usr/lib/nginx/modules/ngx_stream_module.so", R_OK) == 0 else {
            Issue.record("nginx's stream module is not installed (Debian package libnginx-mod-stream)")
            return
        }
        let directory = rig.directory.path
        let page = try rig.configured(
            "nginx-setd.conf",
            [
                ("listen 443 ssl", "listen 127.0.0.1:\(rig.pagePort) ssl"),
                ("/etc/letsencrypt/live/set.example.org/fullchain.pem", rig.certificate),
                ("/etc/letsencrypt/live/set.example.org/privkey.pem", rig.key),
            ])
        let stream = try rig.configured(
            "nginx-setd-stream.conf",
            [
                ("listen 7778 ssl", "listen 127.0.0.1:\(rig.linePort) ssl"),
                ("/etc/letsencrypt/live/set.example.org/fullchain.pem", rig.certificate),
                ("/etc/letsencrypt/live/set.example.org/privkey.pem", rig.key),
            ])
        // What Debian's /etc/nginx/nginx.conf is around the two files, here in the test's directory.
        let main = """
            load_module /usr/lib/nginx/modules/ngx_stream_module.so;
            # Proxied pages are buffered to disk by the workers, which must reach this 0700 directory.
            user root;
            pid \(directory)/nginx.pid;
            error_log stderr warn;
            events { worker_connections 256; }
            http {
                access_log off;
                client_body_temp_path \(directory)/body;
                proxy_temp_path \(directory)/proxy;
                fastcgi_temp_path \(directory)/fastcgi;
                uwsgi_temp_path \(directory)/uwsgi;
                scgi_temp_path \(directory)/scgi;
                include \(page);
            }
            include \(stream);

            """
        try rig.write("nginx.conf", main)
        let proxy = try Child(
            nginx, ["-e", "stderr", "-p", directory, "-c", directory + "/nginx.conf", "-g", "daemon off;"])
        defer { Self.stop(proxy) }
        try rig.check(proxy, listeningOn: [rig.pagePort, rig.linePort])

        try rig.playPage(source: "127.0.0.2")
        try rig.playFriends(.webSocket, sources: (3...6).map { "127.0.0.\($0)" }, spoofer: "127.0.0.7")
        try rig.playFriends(.line, sources: (8...11).map { "127.0.0.\($0)" }, spoofer: "127.0.0.12")
        try rig.playDirect(source: "127.0.0.13")
        // README's way for a friend with a terminal: openssl s_client (which cannot choose its source).
        try rig.playTerminal(
            "openssl",
            [
                "s_client", "-quiet", "-connect", "127.0.0.1:\(rig.linePort)", "-CAfile", rig.certificate,
                "-verify_return_error",
            ], name: "sclient", source: "127.0.0.1")
    }

    @Test(.stretchedTimeLimit(minutes: 3))
    func haproxyCarriesThePageWebSocketAndLinePlayersEachAtTheirOwnAddress()
        throws
    {
        guard let haproxy = Self.require("haproxy", package: "haproxy"), let rig = try Rig.make() else {
            return
        }
        let configuration = try rig.configured(
            "haproxy-setd.cfg",
            [
                ("bind :443 ssl", "bind 127.0.0.1:\(rig.pagePort) ssl"),
                ("bind :7778 ssl", "bind 127.0.0.1:\(rig.linePort) ssl"),
                ("/etc/haproxy/certs/set.example.org.pem", rig.combined),
            ])
        // Debian's haproxy.cfg begins with a global section; the test's is empty.
        try rig.write("global.cfg", "global\n")
        let proxy = try Child(
            haproxy, ["-db", "-f", rig.directory.path + "/global.cfg", "-f", configuration])
        defer { Self.stop(proxy) }
        try rig.check(proxy, listeningOn: [rig.pagePort, rig.linePort])

        try rig.playPage(source: "127.0.0.2")
        try rig.playFriends(.webSocket, sources: (3...6).map { "127.0.0.\($0)" }, spoofer: "127.0.0.7")
        try rig.playFriends(.line, sources: (8...11).map { "127.0.0.\($0)" }, spoofer: "127.0.0.12")
        try rig.playDirect(source: "127.0.0.13")
        // README's other way: ncat --ssl, here from an address of its own.
        guard let ncat = Self.require("ncat", package: "ncat") else { return }
        try rig.playTerminal(
            ncat,
            [
                "--ssl", "--ssl-verify", "--ssl-trustfile", rig.certificate, "-4", "-s", "127.0.0.14",
                "localhost",
                String(rig.linePort),
            ], name: "ncat", source: "127.0.0.14")
    }

    @Test(.stretchedTimeLimit(minutes: 3)) func caddyCarriesThePageAndWebSocketPlayersEachAtTheirOwnAddress()
        throws
    {
        guard let caddy = Self.require("caddy", package: "caddy"), let rig = try Rig.make() else { return }
        let directory = rig.directory.path
        // The site's name becomes the test's address, with the test's certificate instead of one from
        // Let's Encrypt; nothing else of the file changes.
        let site = try rig.configured(
            "Caddyfile",
            [
                (
                    "set.example.org {",
                    "https://127.0.0.1:\(rig.pagePort) {\n\tbind 127.0.0.1\n\ttls \(rig.certificate) \(rig.key)"
                )
            ])
        let global =
            "{\n\tadmin off\n\tauto_https disable_redirects\n\tstorage file_system \(directory)/caddy\n}\n"
        try rig.write("Caddyfile", global + (String(decoding: readFile(site) ?? [], as: UTF8.self)))
        let proxy = try Child(
            caddy, ["run", "--config", directory + "/Caddyfile", "--adapter", "caddyfile"],
            environment: ["HOME": directory, "XDG_DATA_HOME": directory, "XDG_CONFIG_HOME": directory])
        defer { Self.stop(proxy) }
        try rig.check(proxy, listeningOn: [rig.pagePort])

        try rig.playPage(source: "127.0.0.2")
        try rig.playFriends(.webSocket, sources: (3...6).map { "127.0.0.\($0)" }, spoofer: "127.0.0.7")
        try rig.playDirect(source: "127.0.0.13")
    }

    /// README's configurations are these files, the ones the tests above run: it links each, and there
    /// is no other.
    @Test func theREADMELinksEveryConfigurationTheTestsRun() throws {
        let readme = String(decoding: readFile(Self.root + "/README.md") ?? [], as: UTF8.self)
        let files = directoryEntries(Self.root + "/scripts/proxy").sorted()
        #expect(files == ["Caddyfile", "haproxy-setd.cfg", "nginx-setd-stream.conf", "nginx-setd.conf"])
        for file in files {
            #expect(readme.contains("](scripts/proxy/\(file))"), "README links scripts/proxy/\(file)")
        }
    }

    /// The path of `program`, or a failure that names its Debian package.
    static func require(_ program: String, package: String) -> String? {
        for (name, debian) in [(program, package), ("openssl", "openssl"), ("python3", "python3")]
        where programOnPath(name) == nil {
            Issue.record(
                "\(name) is not installed (Debian package \(debian): apt-get install \(debian)); the proxy tests run it"
            )
            return nil
        }
        return programOnPath(program)
    }

    static func stop(_ proxy: Child) {
        proxy.kill(SIGTERM)
        if proxy.wait(timeout: 5) == nil { proxy.stop() }
    }
}

/// One run's certificate, ports, setd and files.
final class Rig {
    let directory: TemporaryDirectory
    let certificate: String
    let key: String
    /// The certificate and then its key, in one file (what HAProxy reads).
    let combined: String
    let pagePort: UInt16
    let linePort: UInt16
    let daemon: Daemon

    enum Kind: String {
        case webSocket = "ws"
        case line
    }

    /// A self-signed certificate for 127.0.0.1, two free ports and setd behind them.
    static func make() throws -> Rig? {
        let directory = try TemporaryDirectory("setd-proxy")
        let certificate = directory.path + "/cert.pem"
        let key = directory.path + "/key.pem"
        let (status, output) = try Child.run(
            programOnPath("openssl")!,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-days", "2",
                "-subj", "/CN=set.test", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout",
                key,
                "-out", certificate,
            ], timeout: 20)
        guard status == 0, let certificateBytes = readFile(certificate), let keyBytes = readFile(key) else {
            Issue.record("openssl made no certificate (status \(status)): \(output)")
            return nil
        }
        let combined = directory.path + "/combined.pem"
        try Self.write(combined, certificateBytes + keyBytes)
        return try Rig(directory: directory, certificate: certificate, key: key, combined: combined)
    }

    private init(directory: TemporaryDirectory, certificate: String, key: String, combined: String) throws {
        self.directory = directory
        self.certificate = certificate
        self.key = key
        self.combined = combined
        pagePort = try Self.freePort()
        linePort = try Self.freePort()
        daemon = try Daemon([
            "--log-level", "info", "--trust-proxy", "127.0.0.1", "--max-rooms-per-ip", "1", "--max-per-ip",
            "2",
            "--public-url", "https://127.0.0.1:\(pagePort)", "--no-qr",
        ])
    }

    deinit { daemon.terminate() }

    var publicURL: String { "https://127.0.0.1:\(pagePort)" }

    /// A port nothing listens on now, for a proxy to bind later. Picked below the kernel's ephemeral range
    /// (32768 and up here): a port the kernel picked for port 0 was once taken, before the proxy bound it,
    /// by another test's listener, which the check below then found in the proxy's place.
    static func freePort() throws -> UInt16 {
        for _ in 0..<200 {
            let port = UInt16.random(in: 20_000..<32_000)
            guard let socket = try? Socket.listen(host: "127.0.0.1", port: port) else { continue }
            socket.close()
            return port
        }
        throw ClientError(description: "no free port between 20000 and 32000")
    }

    static func write(_ path: String, _ bytes: [UInt8]) throws {
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw ClientError(description: "cannot create \(path), errno \(errno)") }
        close(file)
        try appendToFile(path, bytes)
    }

    func write(_ name: String, _ text: String) throws {
        try Self.write(directory.path + "/" + name, Array(text.utf8))
    }

    /// `scripts/proxy/<name>` with setd's port and the test's `replacements`, written into the run's
    /// directory; returns its path. Each text replaced must be in the file, so the test follows the file.
    func configured(_ name: String, _ replacements: [(String, String)]) throws -> String {
        guard let bytes = readFile(BehindProxyTests.root + "/scripts/proxy/" + name) else {
            throw ClientError(description: "scripts/proxy/\(name) is missing")
        }
        var text = String(decoding: bytes, as: UTF8.self)
        for (old, new) in [("127.0.0.1:7777", "127.0.0.1:\(daemon.port)")] + replacements {
            guard text.contains(old) else {
                throw ClientError(
                    description: "scripts/proxy/\(name) no longer says '\(old)'; update the test")
            }
            text = text.replacing(old, with: new)
        }
        try write(name, text)
        return directory.path + "/" + name
    }

    /// Waits until the proxy accepts connections on `ports` (10 s at most); throws with its output if it
    /// exits or does not.
    func check(_ proxy: Child, listeningOn ports: [UInt16]) throws {
        let isUp = eventually(timeout: 10, every: 0.05) {
            proxy.exitStatus() == nil
                && ports.allSatisfy { port in
                    guard let socket = try? Socket.connect(host: "127.0.0.1", port: port) else {
                        return false
                    }
                    socket.close()
                    return true
                }
        }
        guard isUp else {
            throw ClientError(
                description:
                    "\(proxy.path) did not listen on \(ports) (status \(proxy.exitStatus().map(String.init) ?? "running")): "
                    + proxy.errors(within: 1) + proxy.output(within: 1))
        }
    }

    /// Runs the players' script; returns its JSON.
    func players(_ arguments: [String]) throws -> [String: Any] {
        let script = BehindProxyTests.root + "/Tests/Proxy/proxy_players.py"
        let child = try Child(
            programOnPath("python3")!,
            [script] + arguments + ["--cafile", certificate, "--timeout", String(10 * testTimeScale)])
        guard let status = child.wait(timeout: BehindProxyTests.playersTimeout) else {
            child.stop()
            throw ClientError(
                description: "proxy_players.py \(arguments) took over \(BehindProxyTests.playersTimeout) s")
        }
        let output = child.output(within: 2)
        guard status == 0,
            let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        else {
            throw ClientError(
                description:
                    "proxy_players.py \(arguments): status \(status), \(output) \(child.errors(within: 1))"
                    + "\nsetd log:\n\(daemon.log)")
        }
        return object
    }

    /// Whether setd's log has a `connect` or `http` line for a client at `source`.
    func logNames(_ source: String, as event: String = "connect") -> Bool {
        // setd may log a request after its answer has reached the client, and its log reaches the test
        // through a reader thread: wait for the line a while (under TSan once it had not come yet).
        eventually(timeout: 5 * testTimeScale, every: 0.05) {
            daemon.log.split(separator: "\n").contains { line in
                line.contains(" info \(event) ")
                    && (line.hasSuffix("peer=\(source)") || line.contains("peer=\(source) ")
                        || line.contains("peer=\(source):"))
            }
        }
    }

    func playPage(source: String) throws {
        #expect(daemon.child.output.contains("  \(publicURL)/\n"), "the banner links to --public-url")
        let result = try players([
            "page", "--port", String(pagePort), "--source", source, "--origin", publicURL,
        ])
        let own = result["own"] as? [String: Any]
        let other = result["other"] as? [String: Any]
        #expect(
            own?["status"] as? String == "HTTP/1.1 200 OK" && own?["isPage"] as? Bool == true, "\(result)")
        #expect(other?["status"] as? String == "HTTP/1.1 403 Forbidden", "another site's page: \(result)")
        #expect(logNames(source, as: "http"), "the page's request is logged at \(source): \(daemon.log)")
    }

    func playFriends(_ kind: Kind, sources: [String], spoofer: String) throws {
        let names = kind == .webSocket ? "web" : "line"
        let result = try players([
            "friends", "--kind", kind.rawValue, "--port", String(kind == .webSocket ? pagePort : linePort),
            "--sources", sources.joined(separator: ","), "--spoofer", spoofer, "--origin", publicURL,
            "--names", names,
        ])
        let context = "\(kind): \(result)\nsetd log:\n\(daemon.log)"
        let greetings = result["greetings"] as? [String] ?? []
        #expect(greetings.count == 4 && greetings.allSatisfy { $0.hasPrefix("SETD 1 ") }, "\(context)")
        let joins = result["joins"] as? [String] ?? []
        #expect(
            joins.count == 4
                && joins.enumerated().allSatisfy { $1.hasPrefix("OK JOIN \(names)room\($0 + 1) ") },
            "four friends, four rooms under --max-rooms-per-ip 1: \(context)")
        #expect(
            (result["second_room"] as? String)?.hasPrefix("ERR JOIN TOOMANYROOMS ") == true,
            "the first friend's own room limit: \(context)")
        let third = result["third_connection"] as? String ?? ""
        #expect(
            kind == .webSocket
                ? third == "HTTP/1.1 503 Service Unavailable"
                : third.hasPrefix("ERR - FULL 2 connections from your address"),
            "the first friend's own --max-per-ip 2: \(context)")
        #expect(result["still_playing"] as? String == "OK PING", "\(context)")
        for source in sources { #expect(logNames(source), "setd's log names \(source): \(context)") }
        if kind == .webSocket {
            #expect((result["spoofer"] as? String)?.hasPrefix("OK JOIN ") == true, "\(context)")
            #expect(logNames(spoofer), "a spoofed X-Forwarded-For: still \(spoofer): \(context)")
        } else {
            #expect(
                result["spoofer"] as? String == "closed", "a PROXY header of the client's own: \(context)")
            #expect(daemon.log.contains("proxy-header-refused id="), "\(context)")
            #expect(daemon.log.contains("peer=\(spoofer):"), "\(context)")
        }
        #expect(!daemon.log.contains("10.9.9.9"), "the spoofed address is never used: \(context)")
    }

    /// A friend at a terminal, with `program` over TLS to the line port: greeted, plays, and is named
    /// in setd's log at `source`. The program is stopped at the end (s_client -quiet ignores the end of
    /// its input).
    func playTerminal(_ program: String, _ arguments: [String], name: String, source: String) throws {
        let path = program.hasPrefix("/") ? program : programOnPath(program)!
        let child = try Child(path, arguments, input: .socket)
        defer { child.stop() }
        child.type("HELLO \(name)")
        child.type("JOIN \(name)room")
        child.type("PING")
        try child.waitForOutput("OK PING", timeout: 10)
        let output = child.output
        #expect(
            output.hasPrefix("SETD 1 ") && output.contains("OK JOIN \(name)room "), "\(program): \(output)")
        #expect(logNames(source), "\(program) at \(source): \(daemon.log)")
    }

    /// Straight to setd, from an address it does not trust: its PROXY header closes the connection,
    /// its X-Forwarded-For is ignored.
    func playDirect(source: String) throws {
        let result = try players(["direct", "--port", String(daemon.port), "--source", source])
        #expect(result["proxy_header"] as? String == "closed", "\(result)")
        #expect(result["forwarded_status"] as? String == "HTTP/1.1 200 OK", "\(result)")
        #expect(logNames(source, as: "http"), "logged as \(source) itself: \(daemon.log)")
        #expect(!daemon.log.contains("10.9.9.9"))
    }
}
