extension QRCode {
    /// The light margin around a rendered code, in modules: the 4 that ISO/IEC 18004 asks for.
    public static let quietZone = 4

    /// Which modules terminal text draws as block characters, in the terminal's text colour; the others
    /// are spaces and show the terminal's background.
    public enum TerminalInk: Hashable, Sendable {
        /// Light modules (and the quiet zone) are blocks: right on light text over a dark background, the
        /// default of most terminals. On a light background this shows the code inverted, which zbar and
        /// many phone readers refuse; add colours (`colored: true`) when the background is unknown.
        case lightModules
        /// Dark modules are blocks: right on dark text over a light background.
        case darkModules
    }

    /// The code as terminal text: the quiet zone of 4 modules all round (5 below: the last line's lower
    /// half), two module rows per line drawn with the half blocks `▀` (upper row inked), `▄` (lower row),
    /// `█` (both) and space (neither), each line ended by a newline.
    ///
    /// With `colored`, each line starts with 256-colour escapes that set the ink to pure white on pure
    /// black for `.lightModules` (pure black on white for `.darkModules`) and ends with a reset, so the
    /// code is dark on light whatever the terminal's theme; those two colours sit in the fixed colour
    /// cube, which themes leave alone. A terminal without 256 colours ignores them and shows the plain
    /// text.
    public func terminalText(ink: TerminalInk = .lightModules, colored: Bool = false) -> String {
        let first = -Self.quietZone
        let end = size + Self.quietZone
        let (start, reset) =
            switch (colored, ink) {
            case (false, _): ("", "")
            case (true, .lightModules): ("\u{1B}[38;5;231;48;5;16m", "\u{1B}[0m")
            case (true, .darkModules): ("\u{1B}[38;5;16;48;5;231m", "\u{1B}[0m")
            }
        func isInked(_ row: Int, _ column: Int) -> Bool {
            let isDark = (0..<size).contains(row) && (0..<size).contains(column) && modules[row, column]
            return isDark == (ink == .darkModules)
        }
        var text = ""
        for row in stride(from: first, to: end, by: 2) {
            text += start
            for column in first..<end {
                // The row below the last one is outside the quiet zone: light like it.
                switch (isInked(row, column), isInked(row + 1, column)) {
                case (true, true): text += "█"
                case (true, false): text += "▀"
                case (false, true): text += "▄"
                case (false, false): text += " "
                }
            }
            text += reset + "\n"
        }
        return text
    }
}
