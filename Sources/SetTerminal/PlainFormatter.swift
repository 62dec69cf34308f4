import SetGame
import SetProtocol

/// The lines `set-cli --plain` prints: one readable line per update, for scripts and logs.
public enum PlainFormatter {
    /// The line for a server line that changes the view (board, deck, scores, turn), or `nil` for
    /// lines that are shown as events or are not worth a line.
    public static func line(for line: ServerLine, in view: GameView) -> String? {
        switch line {
        case .room(let name, let game, let players, let status):
            guard name == view.room else { return nil }
            return
                "room \(TextRules.sanitized(name)): \(game.rawValue), \(players) player\(players == 1 ? "" : "s"), \(status.rawValue)"
        case .board(let revision, let cards):
            let shown = cards.map { "\(TextRules.sanitized($0.position)) \(TextRules.sanitized($0.card))" }
            return "board #\(revision): " + shown.joined(separator: "  ")
        case .deck(let n):
            return "deck: \(n) card\(n == 1 ? "" : "s") left"
        case .chain(let cards):
            return cards.isEmpty ? "chain: any set goes" : "chain: reuse one of " + CardArtText.codes(cards)
        case .turn(let name):
            return name == "-" ? "turn: nobody" : "turn: \(TextRules.sanitized(name))"
        case .clock(let ms, let isRunning):
            // A timed or practice game's clock (protocol.md, `CLOCK`): paused, ms is the play time so far.
            if !isRunning { return "clock: paused at \(GameNight.clock(milliseconds: ms)) of play" }
            let limit = view.minutesOfPlay.map { ", \($0) minute\($0 == 1 ? "" : "s") of play in all" } ?? ""
            let target = view.setsToWin.map { ", first to \($0) set\($0 == 1 ? "" : "s")" } ?? ""
            return "clock: running\(limit)\(target)"
        case .player(let name, let score, let isOnline):
            return "score: \(TextRules.sanitized(name)) \(score)\(isOnline ? "" : " (away)")"
        default:
            return nil
        }
    }

    /// The line for a session's status.
    public static func line(for status: ClientSession.Status) -> String {
        let text = TextRules.sanitized(status.text)  // It may quote the server (`OK NEW voted …`).
        switch status.kind {
        case .success: return "ok: " + text
        case .info: return text
        case .failure: return "error: " + text
        }
    }

    /// The lines of a panel: its title, then its lines indented.
    public static func lines(for panel: Panel) -> [String] {
        [panel.title] + panel.lines.map { "  " + $0.plainText }
    }
}
