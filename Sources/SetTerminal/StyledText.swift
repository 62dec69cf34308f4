/// A colour a terminal can show with the basic 16-colour SGR codes, which every terminal supports.
public enum TerminalColour: Int, Sendable {
    case red = 31
    case green = 32
    case yellow = 33
    case blue = 34
    case magenta = 35
    case cyan = 36
    case gray = 90
}

/// How a run of text looks: a colour and a few attributes.
public struct TextStyle: Equatable, Sendable {
    /// The foreground colour, or the terminal's default.
    public var colour: TerminalColour?
    /// Bold (or bright) text.
    public var isBold = false
    /// Faint text.
    public var isDim = false
    /// Swapped foreground and background.
    public var isReversed = false

    /// Creates a style.
    public init(
        colour: TerminalColour? = nil, isBold: Bool = false, isDim: Bool = false, isReversed: Bool = false
    ) {
        self.colour = colour
        self.isBold = isBold
        self.isDim = isDim
        self.isReversed = isReversed
    }

    /// The terminal's default look.
    public static let plain = TextStyle()
    /// Bold text in the default colour.
    public static let bold = TextStyle(isBold: true)
    /// Faint text, for what matters less.
    public static let dim = TextStyle(isDim: true)

    /// The SGR sequence that switches from the default look to this one; empty for `plain`.
    var sgr: String {
        var codes: [String] = []
        if isBold { codes.append("1") }
        if isDim { codes.append("2") }
        if isReversed { codes.append("7") }
        if let colour { codes.append(String(colour.rawValue)) }
        return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}

/// Text made of styled runs, measured in terminal columns.
///
/// The renderer builds every screen line as `StyledText` so that widths are counted on what shows,
/// never on escape sequences, and so one frame can be produced with or without colour.
public struct StyledText: Equatable, Sendable, ExpressibleByStringInterpolation {
    /// One run of text in one style.
    public struct Span: Equatable, Sendable {
        /// The text; never contains control characters.
        public var text: String
        /// How it looks.
        public var style: TextStyle
    }

    /// The runs, in order.
    public private(set) var spans: [Span] = []

    /// Creates text in one style.
    public init(_ text: String = "", _ style: TextStyle = .plain) {
        if !text.isEmpty { spans = [Span(text: text, style: style)] }
    }

    public init(stringLiteral value: String) { self.init(value) }

    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(String(stringInterpolation: stringInterpolation))
    }

    /// The text without styles.
    public var plainText: String { spans.map(\.text).joined() }

    /// Columns the text takes on a terminal.
    public var width: Int { spans.reduce(0) { $0 + TextWidth.columns($1.text) } }

    /// Appends text in a style.
    public mutating func append(_ text: String, _ style: TextStyle = .plain) {
        guard !text.isEmpty else { return }
        if let last = spans.last, last.style == style {
            spans[spans.count - 1].text += text
        } else {
            spans.append(Span(text: text, style: style))
        }
    }

    /// Appends other styled text.
    public mutating func append(_ other: StyledText) {
        for span in other.spans { append(span.text, span.style) }
    }

    /// The two texts one after the other.
    public static func + (lhs: StyledText, rhs: StyledText) -> StyledText {
        var result = lhs
        result.append(rhs)
        return result
    }

    /// The text cut to at most `columns` columns, ending in `…` when something was cut.
    public func truncated(to columns: Int) -> StyledText {
        guard width > columns else { return self }
        guard columns > 0 else { return StyledText() }
        var result = StyledText()
        var used = 0
        let limit = columns - 1  // room for the ellipsis
        outer: for span in spans {
            var kept = ""
            for character in span.text {
                let w = TextWidth.columns(character)
                if used + w > limit {
                    result.append(kept, span.style)
                    result.append("…", span.style)
                    break outer
                }
                kept.append(character)
                used += w
            }
            result.append(kept, span.style)
        }
        return result
    }

    /// The text padded with spaces (or cut) to exactly `columns` columns.
    public func padded(to columns: Int) -> StyledText {
        var result = truncated(to: columns)
        let missing = columns - result.width
        if missing > 0 { result.append(String(repeating: " ", count: missing)) }
        return result
    }

    /// The text broken into lines of at most `columns` columns, at spaces where possible.
    public func wrapped(to columns: Int) -> [StyledText] {
        guard columns > 0 else { return [] }
        guard width > columns else { return [self] }
        // Lay the characters out one by one, remembering the last space so a word can move down whole.
        var lines: [StyledText] = []
        var characters: [(Character, TextStyle)] = []
        for span in spans { for c in span.text { characters.append((c, span.style)) } }
        var start = 0
        while start < characters.count {
            var used = 0
            var end = start
            var lastSpace: Int?
            while end < characters.count {
                let w = TextWidth.columns(characters[end].0)
                if used + w > columns { break }
                if characters[end].0 == " " { lastSpace = end }
                used += w
                end += 1
            }
            if end < characters.count, characters[end].0 != " ", let space = lastSpace, space > start {
                end = space
            }
            if end == start { end = start + 1 }  // a character wider than the line: show it anyway
            var line = StyledText()
            for (c, style) in characters[start..<end] { line.append(String(c), style) }
            lines.append(line)
            start = end
            while start < characters.count, characters[start].0 == " " { start += 1 }
        }
        return lines
    }

    /// The text as bytes for the terminal: with SGR sequences when `colour` is on, plain otherwise.
    public func rendered(colour: Bool) -> String {
        guard colour else { return plainText }
        var out = ""
        var styled = false
        for span in spans {
            let sgr = span.style.sgr
            if styled {
                out += "\u{1B}[0m"
                styled = false
            }
            if !sgr.isEmpty {
                out += sgr
                styled = true
            }
            out += span.text
        }
        if styled { out += "\u{1B}[0m" }
        return out
    }
}

/// How many terminal columns text takes.
///
/// An approximation of `wcwidth`: East Asian wide characters and emoji take two columns, combining
/// marks none, everything else one. It only has to be right for what the renderer draws and close
/// for what other players type.
public enum TextWidth {
    /// Columns of a string.
    public static func columns(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns($1) }
    }

    /// Columns of one character (a grapheme cluster shows as one glyph).
    public static func columns(_ character: Character) -> Int {
        var width = 0
        for scalar in character.unicodeScalars { width = max(width, columns(scalar)) }
        return width
    }

    /// Columns of one scalar on its own.
    public static func columns(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if v < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
