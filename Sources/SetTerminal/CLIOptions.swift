import SetProtocol

/// The command line of `set-cli`.
public struct CLIOptions: Equatable, Sendable {
    /// The server's address. Default `127.0.0.1`.
    public var host = "127.0.0.1"
    /// The server's port. Default 7777.
    public var port: UInt16 = 7777
    /// The player name to ask for.
    public var name = "player"
    /// The room to join. Default `lobby`.
    public var room = "lobby"
    /// The game to create the room with, if it does not exist yet.
    public var game: GameKind?
    /// Room options for creating the room (`mode=ultra`).
    public var options: [String] = []
    /// Whether to draw in colour (off with `--no-color` or `NO_COLOR`).
    public var isColour = true
    /// Whether to print one line per update instead of drawing a screen.
    public var isPlain = false
    /// Whether `--help` was asked for.
    public var wantsHelp = false
    /// Whether `--version` was asked for.
    public var wantsVersion = false
    /// Whether to ring the terminal bell when a set is taken (`--bell`).
    public var isBell = false
    /// Whether to watch the room instead of sitting down (`--watch`).
    public var isWatching = false
    /// Whether to find the server on the LAN by multicast DNS instead of `--host` (`--find`).
    public var isFinding = false
    /// The game to replay instead of playing (`--replay <id>`), 16 lower-case hex digits.
    public var replayID: String?

    /// Creates the defaults.
    public init() {}

    /// The usage text.
    public static let usage = """
        usage: set-cli [--host H] [--port N] [--name NAME] [--room ROOM] [--game set|matchismo]
                       [--option K=V ...] [--sets N] [--minutes M] [--practice] [--watch]
                       [--no-color] [--plain] [--bell] [--find] [--version]
               set-cli --replay GAME-ID [--host H] [--port N] [--plain]

        Plays SET (or Matchismo) on a setd server from a terminal.
          --host H        server address (default 127.0.0.1)
          --port N        server port (default 7777)
          --name NAME     your name, 1–16 of A–Z a–z 0–9 _ - (default: $USER)
          --room ROOM     the room to join or create (default lobby)
          --game G        the game of a new room: set or matchismo
          --option K=V    an option of a new room, e.g. mode=ultra, penalty=0, n=3, or
                          password=SECRET for a private room (repeatable)
          --sets N        a new room's games end when a player has N sets (first to N)
          --minutes M     a new room's games end after M minutes of play (most sets wins)
          --practice      a new room plays practice games: unrated, free hints, /pause allowed
          --watch         follow the room as a spectator instead of playing (/join plays)
          --no-color      no colours: colour is written as a letter (also when NO_COLOR is set)
          --plain         one line per update instead of the full screen (the default when
                          standard output is not a terminal); commands are read line by line
          --bell          ring the terminal bell when a set is taken
          --find          ask the LAN which setd servers there are (multicast DNS; the host runs
                          setd --announce), list them with their addresses, and join the only
                          one or the one you pick; instead of --host and --port
          --replay ID     step through a finished game (its id as HISTORY or /record names it):
                          space or → next, ← back, q quit; with --plain every step is printed
          --version       print the version and exit
        Your seat is kept in $XDG_STATE_HOME/set-cli (~/.local/state/set-cli), so set-cli started
        again with the same --name on the same server takes it back.
        In the game, ? shows the keys.
        """

    /// Parses the arguments (without the program name) with the environment for defaults.
    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(CLIError)
        -> CLIOptions
    {
        var options = CLIOptions()
        if let user = environment["USER"].map(nameFromUser), TextRules.isValidName(user) {
            options.name = user
        }
        if let noColour = environment["NO_COLOR"], !noColour.isEmpty { options.isColour = false }
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            var flag = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            func value() throws(CLIError) -> String {
                if let inline { return inline }
                guard let next = rest.popFirst() else { throw CLIError("\(flag) needs a value") }
                return next
            }
            switch flag {
            case "--host":
                options.host = try value()
                guard !options.host.isEmpty else { throw CLIError("--host needs an address") }
            case "--port", "-p":
                let text = try value()
                guard let port = UInt16(text), port > 0 else {
                    throw CLIError("--port: '\(text)' is not a port (1–65535)")
                }
                options.port = port
            case "--name", "-n":
                options.name = try value()
                guard TextRules.isValidName(options.name) else {
                    throw CLIError(
                        "--name: '\(TextRules.sanitized(options.name))' is not 1–16 of A–Z a–z 0–9 _ -")
                }
            case "--room", "-r":
                options.room = try value()
                guard TextRules.isValidName(options.room) else {
                    throw CLIError(
                        "--room: '\(TextRules.sanitized(options.room))' is not 1–16 of A–Z a–z 0–9 _ -")
                }
            case "--game", "-g":
                let text = try value()
                guard let game = GameKind(rawValue: text.lowercased()) else {
                    throw CLIError("--game: '\(TextRules.sanitized(text))' is not set or matchismo")
                }
                options.game = game
            case "--option", "-o":
                let text = try value()
                let parts = text.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, !text.contains(" ") else {
                    throw CLIError("--option: '\(text)' is not K=V")
                }
                options.options.append(text)
            case "--sets", "--minutes":
                // Timed games (protocol.md, JOIN's `sets=` and `minutes=`): the server checks the range.
                let text = try value()
                guard let n = Int(text), n > 0 else {
                    throw CLIError("\(flag): '\(TextRules.sanitized(text))' is not a whole number above 0")
                }
                options.options.append("\(flag.dropFirst(2))=\(n)")
            case "--practice":
                options.options.append("practice=on")
            case "--no-color", "--no-colour":
                options.isColour = false
            case "--plain":
                options.isPlain = true
            case "--help", "-h":
                options.wantsHelp = true
            case "--version":
                options.wantsVersion = true
            case "--bell":
                options.isBell = true
            case "--watch":
                options.isWatching = true
            case "--find":
                options.isFinding = true
            case "--replay":
                let text = try value().lowercased()
                guard text.utf8.count == 16,
                    text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
                else {
                    throw CLIError(
                        "--replay: '\(TextRules.sanitized(text))' is not a game id (16 hex digits)")
                }
                options.replayID = text
            default:
                throw CLIError("unknown argument '\(TextRules.sanitized(argument))'")
            }
        }
        if options.isFinding,
            arguments.contains(where: { $0.hasPrefix("--host") || $0.hasPrefix("--port") || $0 == "-p" })
        {
            throw CLIError("--find looks the server up on the LAN: give it without --host and --port")
        }
        return options
    }

    /// A login name made into a player name: characters a name cannot have are dropped.
    static func nameFromUser(_ user: String) -> String {
        String(
            user.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }.prefix(16))
    }
}

/// A command line that cannot be used, with the reason.
public struct CLIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The reason.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
