import SetDiscovery
import SetSocket

#if canImport(Glibc)
    import Glibc
#endif

/// `set-cli --find`: asks the LAN for setd servers by multicast DNS (the DNS-SD type `_setd._tcp`),
/// lists what answers, and picks one. Nothing is sent to the LAN without `--find`.
///
/// It asks with a one-shot query from an ordinary port (RFC 6762 §5.1), so answers come straight back
/// by unicast and no socket on port 5353 is needed. Runs before the game's screen, on the caller's
/// thread, and blocks for at most ``searchSeconds``.
public enum LANSearch {
    /// How long answers are collected: responders answer a PTR query within 20–120 ms (RFC 6762 §6),
    /// a busy Wi-Fi takes longer, and a person barely notices a second and a half.
    public static let searchSeconds = 1.5
    /// The query is sent again this long after the first: a multicast packet on Wi-Fi can be lost.
    static let repeatAfter = 0.5

    /// Asks every multicast interface for servers and returns those that answered in time.
    public static func search() -> [FoundServer] {
        var sockets: [DatagramSocket] = []
        for isIPv6 in [false, true] {
            if let socket = try? DatagramSocket.open(ipv6: isIPv6, port: 0, sharesPort: false) {
                sockets.append(socket)
            }
        }
        defer { for socket in sockets { socket.close() } }
        let interfaces = NetworkInterface.all().filter { $0.isUp && $0.isMulticast }
        let id = UInt16.random(in: 1...UInt16.max)
        let query = ServiceFinder.query(id: id)
        func ask() {
            for socket in sockets {
                let group = socket.isIPv6 ? DatagramSocket.mdnsGroupIPv6 : DatagramSocket.mdnsGroupIPv4
                for interface in interfaces {
                    let source = interface.addresses.first { $0.bytes.count == 4 }?.bytes
                    _ = try? socket.send(
                        query, to: group, port: ResponderTiming.port, interface: interface.index,
                        source: source)
                }
            }
        }
        var finder = ServiceFinder()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: DNSMessage.maximumSize, alignment: 16)
        defer { buffer.deallocate() }
        let start = now()
        ask()
        var hasRepeated = false
        while true {
            let elapsed = now() - start
            guard elapsed < searchSeconds else { break }
            if !hasRepeated, elapsed >= repeatAfter {
                hasRepeated = true
                ask()
            }
            let wait = hasRepeated ? searchSeconds - elapsed : repeatAfter - elapsed
            for socket in DatagramSocket.waitForInput(sockets, timeout: wait) {
                while let datagram = try? socket.receive(into: buffer) {
                    guard let source = IPAddress(bytes: datagram.source) else { continue }
                    finder.receive(
                        Array(UnsafeRawBufferPointer(rebasing: buffer[..<datagram.count])), from: source)
                }
            }
        }
        return finder.servers
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `host:port` to connect to, with an IPv6 address as it is typed for `--host`.
    public static func address(of server: FoundServer) -> String? {
        server.preferredAddress.map(\.description)
    }

    /// The list shown to a person: one numbered line per server with its name, the address to type
    /// (always shown: a phone cannot browse DNS-SD, so friends need it), rooms and players.
    public static func listing(_ servers: [FoundServer]) -> String {
        var text =
            servers.count == 1
            ? "found 1 setd server on the LAN:\n" : "found \(servers.count) setd servers on the LAN:\n"
        for (i, server) in servers.enumerated() {
            let address = server.preferredAddress.map { $0.isIPv6 ? "[\($0)]" : "\($0)" } ?? "?"
            let rooms = server.rooms.map { $0 == 1 ? "1 room" : "\($0) rooms" } ?? "? rooms"
            let players = server.players.map { $0 == 1 ? "1 player" : "\($0) players" } ?? "? players"
            text +=
                "  \(i + 1)) \(server.instance)  \(address):\(server.port)  \(rooms), \(players)  (\(server.host))\n"
        }
        return text
    }

    /// The server a typed answer picks (`2`, or the instance name), or `nil`.
    public static func pick(_ answer: String, from servers: [FoundServer]) -> FoundServer? {
        let trimmed = answer.trimmedOfWhitespace
        if let number = Int(trimmed), (1...servers.count).contains(number) { return servers[number - 1] }
        return servers.first { $0.instance == trimmed }
    }

    /// Searches, shows what answered, and returns `options` pointed at the server chosen: the only one,
    /// or the one the person picks. Fails with a reason a person can act on.
    public static func choose(_ options: CLIOptions, readLine: () -> String?, write: (String) -> Void)
        throws(CLIError) -> CLIOptions
    {
        write("looking for setd servers on the LAN (\(searchSeconds) s)…\n")
        let servers = search()
        guard !servers.isEmpty else {
            throw CLIError(
                "no setd server answered on the LAN; the host must start setd with --announce, or give you "
                    + "the address setd prints (set-cli --host ADDRESS)")
        }
        write(listing(servers))
        var chosen = servers[0]
        if servers.count > 1 {
            write("join which? [1-\(servers.count)] ")
            guard let answer = readLine(), let picked = pick(answer, from: servers) else {
                throw CLIError("no server picked")
            }
            chosen = picked
        }
        guard let host = address(of: chosen) else { throw CLIError("\(chosen.instance) gave no address") }
        write(
            "joining \(chosen.instance) at \(chosen.preferredAddress!.isIPv6 ? "[\(host)]" : host):\(chosen.port)\n"
        )
        var options = options
        options.host = host
        options.port = chosen.port
        return options
    }
}

extension LANSearch {
    /// One line of standard input, read a byte at a time: `readLine()` would buffer what follows,
    /// and a script piped into `set-cli --find --plain` must keep its later lines for the game.
    public static func readAnswer() -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(STDIN_FILENO, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == 0x0A { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
            if line.count > 256 { return String(decoding: line, as: UTF8.self) }
        }
    }
}

extension String {
    fileprivate var trimmedOfWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
