import SetGame
import SetProtocol

/// A replay's step as text: plain lines for `set-cli --replay <id> --plain`, and a screen drawn with the
/// board renderer for the interactive viewer.
extension GameRecordReplay {
    /// The step in words: "ann took a set in 4.2 s", "bob: not a set", "Game over: ann wins with 9".
    public func caption(at index: Int) -> String {
        let step = steps[index]
        let clock = Self.clock(step.ms)
        switch (step.kind, step.result) {
        case ("deal", _):
            return "\(clock) the deal: \(step.board.count) cards, \(step.deckLeft) in the deck"
        case ("over", _):
            let best = step.scores.first.map { ": \($0.name) wins with \($0.score)" } ?? ""
            return "\(clock) game over\(best)"
        case ("choose", _):
            return "\(clock) \(step.name ?? "?"): \(step.cards.first ?? "")"
        case (_, "set"):
            return "\(clock) \(step.name ?? "?") took a set in \(Self.seconds(step.sinceMs ?? 0))"
        case (_, "wrong"):
            return "\(clock) \(step.name ?? "?"): not a set"
        default:
            return "\(clock) \(step.name ?? "?"): too late (the board had changed)"
        }
    }

    /// The step as plain lines: where it is, what happened, the board (`*` on a claim's cards), the
    /// sets missed at a set, and the scores.
    public func plainLines(at index: Int) -> [String] {
        let step = steps[index]
        var lines = ["step \(index)/\(steps.count - 1) \(caption(at: index))"]
        if !step.cards.isEmpty, step.kind == "claim" {
            lines.append("  cards: " + step.cards.joined(separator: " "))
        }
        if !step.board.isEmpty {
            let claimed = Set(step.cards)
            let cells = step.board.enumerated().map { i, card in
                "\(SetGame.positionName(i)):\(card.code)\(claimed.contains(card.code) ? "*" : "")"
            }
            lines.append("  board: " + cells.joined(separator: " "))
        }
        if step.result == "set" {
            let missed = step.missed.map { $0.map(\.code).joined(separator: " ") }
            lines.append("  missed: " + (missed.isEmpty ? "none" : missed.joined(separator: " | ")))
        }
        lines.append("  scores: " + step.scores.map { "\($0.name) \($0.score)" }.joined(separator: ", "))
        return lines
    }

    /// The step as a screen of at most `width` columns: a title, the caption, the board (a claim's
    /// cards marked as selected, new cards as fresh), the missed sets, the scores and the keys.
    public func screen(at index: Int, width: Int) -> [StyledText] {
        let step = steps[index]
        var lines: [StyledText] = [
            StyledText("Replay of \(id) in \(room) · step \(index) of \(steps.count - 1)", .bold),
            StyledText(
                caption(at: index),
                step.result == "wrong"
                    ? TextStyle(colour: .red, isBold: true)
                    : step.result == "set" ? TextStyle(colour: .green, isBold: true) : .plain),
        ]
        if step.kind == "claim", !step.cards.isEmpty { lines.append(CardArt.pictures(step.cards)) }
        lines.append("")
        if !step.board.isEmpty,
            let grid = BoardGrid.make(
                count: step.board.count, isMatchismo: false, isCompact: false, maxWidth: width)
                ?? BoardGrid.make(
                    count: step.board.count, isMatchismo: false, isCompact: true, maxWidth: width)
        {
            let claimed = Set(step.cards)
            var marks: [Int: CardMark] = [:]
            for i in step.fresh { marks[i] = .fresh }
            for (i, card) in step.board.enumerated() where claimed.contains(card.code) {
                marks[i] = .selected
            }
            lines += grid.lines(step.board.map { .set($0) }, marks: marks, colourLetters: false)
            lines.append("")
        }
        if step.result == "set" {
            var missed = StyledText("Missed: ", .bold)
            if step.missed.isEmpty { missed.append("none") }
            for (i, claim) in step.missed.enumerated() {
                if i > 0 { missed.append(" | ", .dim) }
                missed.append(CardArt.inline(claim.map(\.code)))
            }
            lines.append(missed)
        }
        lines.append(
            StyledText("Scores: ", .bold)
                + StyledText(step.scores.map { "\($0.name) \($0.score)" }.joined(separator: "  ")))
        lines.append(StyledText("space/→ next · ← back · Home/End · q quit", .dim))
        return lines
    }

    /// `m:ss`.
    static func clock(_ ms: Int) -> String {
        let seconds = max(0, ms) / 1000
        return "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }

    /// Seconds to a tenth, halves up: `1150` → "1.2 s".
    static func seconds(_ ms: Int) -> String {
        let tenths = (max(0, ms) + 50) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
