import SetGame
import SetProtocol

/// A scrollable list shown over the board: the keys, the room's history, the rooms.
public struct Panel: Equatable, Sendable {
    /// The heading.
    public var title: String
    /// The lines, already styled.
    public var lines: [StyledText]
    /// The first line shown.
    public var scroll = 0

    /// Creates a panel.
    public init(title: String, lines: [StyledText], scroll: Int = 0) {
        self.title = title
        self.lines = lines
        self.scroll = scroll
    }

    /// The keys and commands.
    public static let help = Panel(
        title: "Keys and commands", lines: UserCommand.helpLines.map { StyledText($0) })

    /// Scrolls by `delta` lines, keeping a page of `height` lines in range.
    public mutating func scroll(by delta: Int, height: Int) {
        scroll = max(0, min(scroll + delta, max(0, lines.count - height)))
    }

    /// Scrolls to the end, so the newest lines show.
    public mutating func scrollToEnd(height: Int) {
        scroll = max(0, lines.count - height)
    }

    /// The `HISTORY` reply of `room` as a list: the running game's sets (or Matchismo choices) with the
    /// time since it started, then each finished game, newest first, under a heading with its scores.
    public static func history(_ data: [ServerLine], room: String) -> Panel {
        var current: [StyledText] = []
        var finished: [StyledText] = []
        var games = 0
        for case .history(let text) in data {
            var words = text.split(separator: " ").map(String.init)
            let isFinished = words.first == "GAME" && words.count >= 3
            if isFinished {
                words.removeFirst(2)  // GAME <k>
                if words.first == "ID", words.count == 2 {
                    // The game's record: shown as the command that prints it.
                    finished.append(StyledText("  record: /record \(TextRules.sanitized(words[1]))", .dim))
                    continue
                }
                if Int(words[0]) == nil {
                    // A heading: <start> <end> <name>:<score> ...
                    games += 1
                    finished.append(gameHeading(words))
                    continue
                }
            }
            let line = entry(words)
            if isFinished { finished.append("  " + line) } else { current.append(line) }
        }
        var lines: [StyledText] = []
        if !current.isEmpty || games == 0 {
            lines.append(StyledText("This game", .bold))
            lines += current.isEmpty ? [StyledText("nothing yet", .dim)] : current
        }
        lines += finished
        let count = current.count == 1 ? "1 entry" : "\(current.count) entries"
        let past = games == 0 ? "" : games == 1 ? ", 1 finished game" : ", \(games) finished games"
        return Panel(
            title: "History of \(TextRules.sanitized(room)) — \(count) this game\(past)", lines: lines)
    }

    /// One entry: `<seconds> <name> <card> ...` (SET) or `<seconds> <name> <points> <text>` (Matchismo).
    private static func entry(_ words: [String]) -> StyledText {
        guard words.count >= 3, let seconds = Double(words[0]) else {
            return StyledText(TextRules.sanitized(words.joined(separator: " ")))
        }
        let time = Int(seconds)
        var line = StyledText(format2(time / 60) + ":" + format2(time % 60) + "  ", .dim)
        line.append(
            StyledText(TextRules.sanitized(words[1]), TextStyle(colour: .cyan, isBold: true)).padded(to: 17))
        let rest = Array(words.dropFirst(2))
        if rest.allSatisfy({ (try? Card(anyCode: $0)) != nil }) {
            line.append(CardArt.inline(rest))
        } else if let points = Int(rest[0]) {
            // `magnitude`, not `abs`: the number is the server's, and abs(Int.min) traps.
            line.append(StyledText((points >= 0 ? "+" : "−") + String(points.magnitude)).padded(to: 5))
            line.append(TextRules.sanitized(rest.dropFirst().joined(separator: " ")))
        } else {
            line.append(TextRules.sanitized(rest.joined(separator: " ")))
        }
        return line
    }

    /// `<start> <end> <name>:<score> ...` as "Game of 2026-12-02 20:01–20:15 · alice 5, bob 3".
    private static func gameHeading(_ words: [String]) -> StyledText {
        func time(_ stamp: String) -> String {
            // 2026-12-02T20:01:00Z → 2026-12-02 20:01 (UTC, as sent).
            let clean = TextRules.sanitized(stamp)
            guard clean.count >= 16 else { return clean }
            return clean.prefix(10) + " " + clean.dropFirst(11).prefix(5)
        }
        guard words.count >= 2 else { return StyledText("Finished game", .bold) }
        let start = time(words[0])
        let end = time(words[1])
        let sameDay = start.prefix(10) == end.prefix(10)
        var heading = StyledText("Game of \(start)–\(sameDay ? String(end.dropFirst(11)) : end) UTC", .bold)
        let scores = words.dropFirst(2).map {
            TextRules.sanitized($0.split(separator: ":").joined(separator: " "))
        }
        if !scores.isEmpty { heading.append(" · " + scores.joined(separator: ", ")) }
        return heading
    }

    /// The `ROOMS` reply as a list.
    public static func rooms(_ data: [ServerLine]) -> Panel {
        var byName: [String: StyledText] = [:]
        var order: [String] = []
        for case .room(let name, let game, let players, let status) in data {
            var line = StyledText(TextRules.sanitized(name), .bold).padded(to: 18)
            line.append(StyledText(game.rawValue).padded(to: 11))
            line.append(StyledText(players == 1 ? "1 player" : "\(players) players").padded(to: 12))
            line.append(status.rawValue, status == .over ? .dim : .plain)
            if byName[name] == nil { order.append(name) }
            byName[name] = line
        }
        var lines = order.map { byName[$0]! }
        if lines.isEmpty { lines = [StyledText("no rooms yet: /join <room> makes one", .dim)] }
        lines.append(StyledText("/join <room> to sit down", .dim))
        return Panel(title: "Rooms — \(order.count)", lines: lines)
    }

    /// The `STATS` reply of `name` as a table: one row per mode with a finished game.
    public static func stats(_ data: [ServerLine], name: String) -> Panel {
        func cell(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        var lines = [
            StyledText(
                "Mode      " + cell("Rating", 7) + cell("Games", 7) + cell("Wins", 6) + cell("Sets", 6)
                    + cell("Wrong", 7) + cell("Late", 6), .bold)
        ]
        for case .rating(let entry) in data {
            lines.append(
                StyledText(TextRules.sanitized(entry.mode)).padded(to: 10)
                    + StyledText(
                        cell(String(entry.rating), 7) + cell(String(entry.games), 7)
                            + cell(String(entry.wins), 6)
                            + cell(String(entry.sets), 6) + cell(String(entry.wrong), 7)
                            + cell(String(entry.stale), 6)))
        }
        if lines.count == 1 { lines = [StyledText("no finished games yet", .dim)] }
        return Panel(title: "Stats of \(TextRules.sanitized(name))", lines: lines)
    }

    /// The `TOP` reply for `mode` as a ranking.
    public static func top(_ data: [ServerLine], mode: String) -> Panel {
        var lines: [StyledText] = []
        for case .top(let rank, let name, let rating, let games) in data {
            var line = StyledText(String(rank).padded(toWidth: 3) + ". ")
            line.append(StyledText(TextRules.sanitized(name), .bold).padded(to: 18))
            line.append("\(rating)  (\(games) game\(games == 1 ? "" : "s"))")
            lines.append(line)
        }
        if lines.isEmpty {
            lines = [StyledText("nobody has finished a \(TextRules.sanitized(mode)) game yet", .dim)]
        }
        return Panel(title: "Best ratings — \(TextRules.sanitized(mode))", lines: lines)
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    fileprivate func padded(toWidth width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}

private func format2(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
