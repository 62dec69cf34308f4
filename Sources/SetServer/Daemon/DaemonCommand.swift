import SetProtocol
import SetServerCore

/// The `setd` command line: its options, help and version. The `setd` executable runs what it asks for.
public enum DaemonCommand {
    /// The version `--version` prints.
    public static let version = Release.banner("setd")

    /// The text `--help` prints.
    public static let usage = """
        USAGE: setd [--host ADDR] [--port N] [--max-clients N] [--max-rooms N] [--grace SECONDS]
                    [--idle-timeout SECONDS] [--log-level debug|info|warn|error] [--seed N]
                    [--max-per-ip N] [--max-rooms-per-ip N] [--max-archive N] [--name-expiry-days N]
                    [--register-timeout SECONDS] [--ping-interval SECONDS]
                    [--state-dir DIR] [--fsync always|everysec|no] [--no-http]
                    [--rate-limit N[/BURST]] [--no-qr] [--allow-origin ORIGIN ...] [--announce]
                    [--trust-proxy ADDR[/BITS] ...] [--public-url URL]
               setd --check-journal DIR | --repair-journal DIR

        Hosts SET and Matchismo rooms for friends on a LAN. Anyone can play with `nc HOST PORT`, or
        in a browser at http://HOST:PORT/ (the same port).

        OPTIONS:
          --host ADDR            address to listen on (default: every interface, IPv6 and IPv4)
          --port N               TCP port, 0 for any free one (default: 7777)
          --max-clients N        connections at once; the next gets ERR - FULL (default: 20000)
          --max-rooms N          rooms at once (default: 5000)
          --grace SECONDS        a dropped player keeps seat and score this long (default: 120)
          --idle-timeout SECONDS close connections silent this long (default: 600)
          --log-level LEVEL      lowest level logged to stderr (default: info)
          --seed N               make every room's deals reproducible
          --max-per-ip N         connections at once from one address (default: no limit)
          --max-rooms-per-ip N   open rooms one address may have created, 0 for no limit (default: 20)
          --max-archive N        finished games kept for HISTORY in all, oldest dropped first
                                 (default: 1000)
          --name-expiry-days N   a claimed name whose key nobody said for N days is freed, 0 never
                                 (default: 90)
          --register-timeout SECONDS
                                 a connection must say HELLO, RESUME or WATCH within this (default: 60)
          --ping-interval SECONDS
                                 PING a silent client this often; a vanished peer is dropped within
                                 about the same time (default: 30)
          --state-dir DIR        keep a journal of every room in DIR and restore it on start
                                 (default: none, everything in memory)
          --fsync POLICY         when the journal is flushed to disk: always (before every reply),
                                 everysec (once a second) or no (left to the kernel) (default: everysec)
          --no-http              serve no page and no WebSocket: the port speaks only the line
                                 protocol, and greets a new connection without waiting for a GET
          --rate-limit N[/BURST] commands a second per connection, bursts of BURST (default 100/200,
                                 BURST defaults to 2N); 0 turns it off: only for trusted LANs and
                                 benchmarks
          --allow-origin ORIGIN  let pages of ORIGIN (e.g. https://set.example.org, the proxy's public
                                 address) use the page and its WebSocket; may be given more than once.
                                 Without it only this server's own page may (its Origin must be its Host)
          --trust-proxy ADDR[/BITS]
                                 a proxy in front of setd (e.g. 127.0.0.1, 10.0.0.0/8, fd00::/8); may be
                                 given more than once. From these peers only, a PROXY protocol header
                                 (v1 or v2) and X-Forwarded-For or Forwarded name the real client, whom
                                 every limit and log line is about; from any other peer a PROXY header
                                 closes the connection and forwarding fields are ignored
          --public-url URL       where players reach the page through the proxy, e.g.
                                 https://set.example.org: the banner links to it (and draws its QR
                                 code), and its pages may use the WebSocket
          --no-qr                print no QR code of the page's link under the banner (it is
                                 printed only when standard output is a terminal)
          --announce             answer multicast DNS / DNS-SD queries on the LAN (_setd._tcp and
                                 _http._tcp), so that set-cli's find finds this server; off by
                                 default, when setd sends nothing to the LAN
          --check-journal DIR    say whether the journal in DIR restores, where it is damaged, and
                                 what a repair would drop
          --repair-journal DIR   keep a copy of a damaged journal and drop only what is damaged (a
                                 damaged chat alone, a room's play from the damage on)
          -h, --help             show this help
          --version              show the version
        """

    /// Why the command line was refused.
    public struct UsageError: Error, CustomStringConvertible {
        public var description: String
    }

    /// What the command line asks for.
    public enum Action: Equatable {
        /// Serve with `configuration`; `showsQRCode` is false after `--no-qr`, `announces` true after
        /// `--announce`.
        case run(ServerConfiguration, showsQRCode: Bool, announces: Bool = false)
        case checkJournal(String)
        case repairJournal(String)
        case help
        case version
    }

    /// Parses arguments (without the program name).
    public static func parse(_ arguments: [String]) throws(UsageError) -> Action {
        var configuration = ServerConfiguration()
        var showsQRCode = true
        var announces = false
        var rest = arguments[...]
        func value(_ flag: String) throws(UsageError) -> String {
            guard let value = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            return value
        }
        func number<T: FixedWidthInteger>(_ flag: String, _ range: ClosedRange<T>) throws(UsageError) -> T {
            let text = try value(flag)
            guard let n = T(text), range.contains(n) else {
                throw UsageError(
                    description:
                        "\(flag) takes a number in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
            }
            return n
        }
        func seconds(_ flag: String) throws(UsageError) -> Double {
            let text = try value(flag)
            guard let n = Double(text), n > 0, n.isFinite else {
                throw UsageError(description: "\(flag) takes a positive number of seconds, not '\(text)'")
            }
            return n
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "-h", "--help": return .help
            case "--version": return .version
            case "--host": configuration.host = try value(flag)
            case "--port": configuration.port = try number(flag, 0...65535)
            case "--max-clients": configuration.maxClients = try number(flag, 1...1_000_000)
            case "--max-rooms": configuration.maxRooms = try number(flag, 1...1_000_000)
            case "--grace": configuration.grace = try seconds(flag)
            case "--idle-timeout": configuration.idleTimeout = try seconds(flag)
            case "--seed": configuration.seed = try number(flag, 0...UInt64.max)
            case "--max-per-ip": configuration.maxPerIP = try number(flag, 1...1_000_000)
            case "--max-rooms-per-ip":
                let n: Int = try number(flag, 0...1_000_000)
                configuration.maxRoomsPerIP = n == 0 ? nil : n
            case "--max-archive": configuration.maxArchivedGames = try number(flag, 1...1_000_000)
            case "--name-expiry-days": configuration.nameExpiryDays = try number(flag, 0...36_500)
            case "--register-timeout": configuration.registrationTimeout = try seconds(flag)
            case "--ping-interval": configuration.pingInterval = try seconds(flag)
            case "--state-dir": configuration.stateDirectory = try value(flag)
            case "--no-http": configuration.isHTTPEnabled = false
            case "--no-qr": showsQRCode = false
            case "--announce": announces = true
            case "--allow-origin":
                let origin = try value(flag)
                guard origin.hasPrefix("http://") || origin.hasPrefix("https://"), !origin.hasSuffix("/")
                else {
                    throw UsageError(
                        description:
                            "--allow-origin takes an origin like https://set.example.org, not '\(origin)'")
                }
                configuration.allowedOrigins.append(origin)
            case "--trust-proxy":
                let text = try value(flag)
                guard let range = AddressRange(text) else {
                    throw UsageError(
                        description:
                            "--trust-proxy takes an address or a CIDR block like 127.0.0.1, 10.0.0.0/8 or "
                            + "fd00::/8, not '\(text)'")
                }
                configuration.trustedProxies.append(range)
            case "--public-url":
                configuration.publicURL = try publicOrigin(try value(flag))
            case "--rate-limit":
                let text = try value(flag)
                let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
                guard (1...2).contains(parts.count), let rate = parts[0], (0...1_000_000).contains(rate),
                    let burst = parts.count == 2 ? parts[1] : 2 * rate, (rate == 0 || burst >= 1),
                    burst <= 2_000_000
                else {
                    throw UsageError(description: "--rate-limit takes N or N/BURST (0 is off), not '\(text)'")
                }
                configuration.commandsPerSecond = Double(rate)
                configuration.commandBurst = Double(burst)
            case "--check-journal", "--repair-journal":
                // A journal command is a command of its own: other flags beside it would be ignored.
                let directory = try value(flag)
                guard arguments.count == 2 else {
                    throw UsageError(description: "\(flag) DIR takes no other option")
                }
                return flag == "--check-journal" ? .checkJournal(directory) : .repairJournal(directory)
            case "--fsync":
                let name = try value(flag)
                guard let policy = FsyncPolicy(rawValue: name) else {
                    throw UsageError(description: "--fsync is always, everysec or no, not '\(name)'")
                }
                configuration.fsync = policy
            case "--log-level":
                let name = try value(flag)
                guard let level = LogLevel.allCases.first(where: { $0.name == name }) else {
                    throw UsageError(description: "--log-level is debug, info, warn or error, not '\(name)'")
                }
                configuration.logLevel = level
            default:
                throw UsageError(description: "unknown option '\(flag)'; see setd --help")
            }
        }
        if configuration.stateDirectory == nil, arguments.contains("--fsync") {
            throw UsageError(description: "--fsync needs --state-dir: without a journal nothing is written")
        }
        return .run(configuration, showsQRCode: showsQRCode, announces: announces)
    }

    /// The origin of a `--public-url`: `http://` or `https://`, a host (and port), and at most a `/` after
    /// it. A path is refused: the page asks for its WebSocket at `/ws` of its own host, so setd must be
    /// at the root of the public address.
    static func publicOrigin(_ url: String) throws(UsageError) -> String {
        let origin = url.hasSuffix("/") ? String(url.dropLast()) : url
        let scheme = ["https://", "http://"].first { origin.lowercased().hasPrefix($0) }
        let authority = scheme.map { origin.dropFirst($0.count) } ?? ""
        guard let scheme, !authority.isEmpty,
            !authority.contains(where: { "/?#@ ".contains($0) || $0.isWhitespace || !$0.isASCII })
        else {
            throw UsageError(
                description:
                    "--public-url takes the page's public address, e.g. https://set.example.org (setd at its "
                    + "root, no path), not '\(url)'")
        }
        return scheme + authority.lowercased()
    }
}
