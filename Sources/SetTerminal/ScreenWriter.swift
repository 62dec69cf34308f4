/// Turns frames into the bytes that update the terminal, rewriting only the lines that changed.
///
/// Each update is one write, wrapped in synchronized-output marks (terminals that know them show
/// the whole update at once, others ignore them) with the cursor hidden, so the screen never shows
/// half a frame. Every line is written at an absolute position and never past the last column, so the
/// terminal never scrolls.
public struct ScreenWriter: Sendable {
    private var shown: [String] = []
    private var size: TerminalSize?

    /// Creates a writer for a screen in an unknown state.
    public init() {}

    /// Forgets what is on the screen, so the next update redraws everything (after a resize, Ctrl-L,
    /// or coming back from Ctrl-Z).
    public mutating func invalidate() {
        shown = []
        size = nil
    }

    /// The bytes that change the screen from the last frame to `frame`.
    public mutating func update(to frame: Frame, size: TerminalSize, isColour: Bool) -> String {
        var out = "\u{1B}[?2026h\u{1B}[?25l"
        let lines = frame.lines.map { $0.rendered(colour: isColour) }
        if self.size != size {
            out += "\u{1B}[0m\u{1B}[2J"
            shown = []
        }
        for (row, line) in lines.enumerated() where row >= shown.count || shown[row] != line {
            out += "\u{1B}[\(row + 1);1H" + line
            if frame.lines[row].width < size.columns { out += "\u{1B}[K" }
        }
        if let cursor = frame.cursor {
            out += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h"
        }
        out += "\u{1B}[?2026l"
        shown = lines
        self.size = size
        return out
    }
}
