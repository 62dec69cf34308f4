import SetProtocol

/// One line of the event list: something that happened in the room, or a note from the client.
///
/// Entries keep the server's words as data; ``styled`` turns them into text, removing control
/// characters from everything the server sent, so a name or a chat line can never move the cursor.
public enum LogEntry: Equatable, Sendable {
    /// `name` took a set.
    case took(name: String, cards: [String])
    /// `name` claimed cards that are not a set.
    case wrong(name: String, penalty: Int, cards: [String], why: String)
    /// Matchismo: `name` chose a card.
    case chose(name: String, points: Int, text: String)
    /// Somebody said something.
    case chat(name: String, text: String)
    /// A player sat down.
    case joined(String)
    /// A player left.
    case left(String)
    /// A new game started.
    case newGame(String)
    /// Somebody asked for a new game with these options (`mode=junior` …); `isMine` when it was us.
    case vote(name: String, votes: Int, needed: Int, options: [String], isMine: Bool)
    /// The game ended with these scores, best first.
    case over([String])
    /// The server is closing the connection.
    case bye(String)
    /// A note from the client: connected, joined, reconnecting.
    case info(String)
    /// A problem: a refused command, a lost connection.
    case problem(String)

    /// The entry as a line of text.
    public var styled: StyledText {
        func name(_ n: String) -> StyledText {
            StyledText(TextRules.sanitized(n), TextStyle(colour: .cyan, isBold: true))
        }
        func text(_ t: String) -> String { TextRules.sanitized(t) }
        switch self {
        case .took(let who, let cards):
            return name(who) + " took " + CardArt.pictures(cards)
        case .wrong(let who, let penalty, let cards, let why):
            var line = StyledText("✗ ", TextStyle(colour: .yellow, isBold: true)) + name(who) + " claimed "
            line.append(CardArt.inline(cards))
            line.append(": " + text(why))
            if penalty != 0 { line.append(" (−\(penalty))", TextStyle(colour: .yellow)) }
            return line
        case .chose(let who, let points, let entry):
            var line = name(who) + StyledText(": ")
            line.append(text(entry))
            // `magnitude`, not `abs`: the number is the server's, and abs(Int.min) traps.
            line.append(
                " (\(points >= 0 ? "+" : "−")\(points.magnitude))",
                points > 0 ? TextStyle(colour: .green) : .dim)
            return line
        case .chat(let who, let said):
            return StyledText("<", .dim) + name(who) + StyledText("> ", .dim) + StyledText(text(said))
        case .joined(let who):
            return StyledText("→ ", .dim) + name(who) + StyledText(" joined", .dim)
        case .left(let who):
            return StyledText("← ", .dim) + name(who) + StyledText(" left", .dim)
        case .newGame(let who):
            return StyledText("★ ", TextStyle(colour: .yellow)) + name(who) + " started a new game"
        case .vote(let who, let votes, let needed, let options, let isMine):
            let what = options.isEmpty ? "" : " with " + text(options.joined(separator: " "))
            let agree = isMine ? "" : "; /new agrees"
            return name(who) + " voted for a new game\(what) (\(votes)/\(needed) votes\(agree))"
        case .over(let scores):
            return StyledText("Game over: ", TextStyle(colour: .yellow, isBold: true))
                + StyledText(scores.map(text).joined(separator: ", "))
        case .bye(let reason):
            return StyledText("server: goodbye (\(text(reason)))", TextStyle(colour: .yellow))
        case .info(let note):
            return StyledText(text(note), .dim)
        case .problem(let note):
            return StyledText(text(note), TextStyle(colour: .yellow))
        }
    }
}
