import SetGame
import SetProtocol

/// How a card on the board is marked.
public enum CardMark: Equatable, Sendable {
    /// Nothing special.
    case none
    /// The player is typing this card's letter.
    case selected
    /// The server's hint named this card.
    case hinted
    /// The card was just dealt: it replaced one taken a moment ago.
    case fresh
}

/// Draws cards as terminal text: a three-line box, a one-line cell, or a code inside a sentence.
///
/// Every SET card shows its real count of shapes (up to 4 on 4Set's cards) in its real colour. The fill
/// is the glyph — solid ▲ ● ■ ✚, striped (half-filled) ◭ ◐ ◧ ✜, open △ ○ □ ✙, dotted (4Set's fourth
/// fill, a dot inside) ◬ ⊙ ⊡ ⊹ — so fills and shapes stay apart without colour; without colour the colour
/// is written as a letter (R, G, P, and B for 4Set's blue). A MegaSet card's border is the box's own
/// border (single ╭─╮, double ╔═╗, dotted ┌┄┐) and, in a one-line cell, a mark after the shapes (‖
/// double, ┆ dotted). A memory card lying face down is hatched ░.
public enum CardArt {
    /// Columns of a card box.
    public static let boxWidth = 9
    /// Lines of a card box.
    public static let boxHeight = 3
    /// Columns of a one-line card cell.
    public static let cellWidth = 7
    /// Columns of a one-line card cell for the decks that need one more: 4Set's four shapes, MegaSet's
    /// border mark.
    public static let wideCellWidth = 8

    /// The glyph for one shape with one fill, by `[shape][fill]` (4Set adds the fourth row and column).
    static let glyphs: [[String]] = [
        ["▲", "◭", "△", "◬"],
        ["●", "◐", "○", "⊙"],
        ["■", "◧", "□", "⊡"],
        ["✚", "✜", "✙", "⊹"],
    ]

    /// The mark a one-line cell gives a MegaSet card's border; a single border has none.
    static func borderMark(_ border: Border) -> String? {
        switch border {
        case .single: return nil
        case .double: return "‖"
        case .dotted: return "┆"
        }
    }

    /// The code letter of a border other than single (`W`, `O`), written beside the colour letter.
    static func borderLetter(_ border: Border) -> String {
        switch border {
        case .single: return ""
        case .double: return "W"
        case .dotted: return "O"
        }
    }

    /// The glyph of a card's shape and fill.
    public static func glyph(_ card: Card) -> String { glyphs[card.shape.rawValue][card.fill.rawValue] }

    /// The terminal colour of a SET colour; purple is the terminal's magenta.
    public static func terminalColour(_ colour: Colour) -> TerminalColour {
        switch colour {
        case .red: return .red
        case .green: return .green
        case .purple: return .magenta
        case .blue: return .blue  // 4Set's fourth colour
        }
    }

    /// The letter that stands for a colour without colour.
    public static func colourLetter(_ colour: Colour) -> String { ["R", "G", "P", "B"][colour.rawValue] }

    /// The style of a card's shapes.
    static func style(_ card: Card) -> TextStyle {
        TextStyle(colour: terminalColour(card.colour), isBold: true)
    }

    /// The style of a playing card's rank and suit: hearts and diamonds are red.
    static func style(_ card: PlayingCard) -> TextStyle {
        card.suit == .hearts || card.suit == .diamonds ? TextStyle(colour: .red, isBold: true) : .bold
    }

    /// A card code written in the card's colour, for sentences like "bob took 1RFS 2GHT 3PEC".
    public static func inline(_ code: String) -> StyledText {
        let shown = TextRules.sanitized(code)
        if let card = try? Card(anyCode: shown) { return StyledText(card.code, style(card)) }
        let isMatched = shown.hasPrefix("=")
        if let card = PlayingCard(code: isMatched ? shown.dropFirst() : Substring(shown)) {
            return StyledText((isMatched ? "=" : "") + card.symbol, style(card))
        }
        return StyledText(shown)
    }

    /// A SET card as its picture and code (`▲▲ 2RFT`), for an event line that says which cards were
    /// taken; anything else as ``inline(_:)-(String)``.
    public static func picture(_ code: String) -> StyledText {
        let shown = TextRules.sanitized(code)
        guard let card = try? Card(anyCode: shown) else { return inline(code) }
        return StyledText(String(repeating: glyph(card), count: card.count) + " " + card.code, style(card))
    }

    /// Cards as pictures and codes, separated by ` · `.
    public static func pictures(_ codes: [String]) -> StyledText {
        var text = StyledText()
        for (i, code) in codes.enumerated() {
            if i > 0 { text.append(" · ", .dim) }
            text.append(picture(code))
        }
        return text
    }

    /// Codes separated by spaces, each in its colour.
    public static func inline(_ codes: [String]) -> StyledText {
        var text = StyledText()
        for (i, code) in codes.enumerated() {
            if i > 0 { text.append(" ") }
            text.append(inline(code))
        }
        return text
    }

    /// A card as a box of ``boxHeight`` lines, ``boxWidth`` columns each, labelled with `label`. With
    /// `showsBorders` (MegaSet) the box's border is the card's and a selection reverses it rather than
    /// doubling it, which would make a single-bordered card look double-bordered.
    public static func box(
        _ slot: GameView.Slot, label: String, mark: CardMark, colourLetters: Bool, showsBorders: Bool = false
    ) -> [StyledText] {
        var border = BoxLines.rounded
        var inner: StyledText
        var bottomLabel = ""
        var borderStyle = TextStyle.plain
        switch slot {
        case .set(let card):
            let glyph = glyph(card)
            let shapes = Array(repeating: glyph, count: card.count).joined(separator: " ")
            inner = centred(StyledText(shapes, style(card)), in: 7)
            if colourLetters { bottomLabel = colourLetter(card.colour) + borderLetter(card.border) }
            if showsBorders {
                border = card.border == .double ? .double : card.border == .dotted ? .dotted : .rounded
            }
        case .playing(let card?, let isMatched):
            inner = centred(StyledText(card.symbol, isMatched ? .dim : style(card)), in: 7)
            if isMatched {
                border = .dotted
                borderStyle = .dim
            }
        case .playing(nil, _):
            inner = StyledText("░░░░░░░", .dim)
        case .unreadable(let code):
            inner = centred(StyledText(TextRules.sanitized(code)), in: 7)
        }
        switch mark {
        case .none: break
        case .selected:
            if showsBorders {
                borderStyle = TextStyle(isBold: true, isReversed: true)
            } else {
                border = .double
                borderStyle = .bold
            }
        case .hinted: break
        case .fresh: borderStyle = TextStyle(colour: .green, isBold: true)
        }
        let b = border.characters
        let fill = String(repeating: b.horizontal, count: 7)
        var top = StyledText(b.topLeft, borderStyle)
        top.append(label, mark == .selected ? TextStyle(isBold: true, isReversed: true) : .bold)
        let hintMark = mark == .hinted ? "*" : mark == .fresh ? "+" : b.horizontal
        top.append(
            String(repeating: b.horizontal, count: max(0, 6 - TextWidth.columns(label))) + hintMark,
            borderStyle)
        top.append(b.topRight, borderStyle)
        var middle = StyledText(b.vertical, borderStyle)
        middle.append(inner)
        middle.append(b.vertical, borderStyle)
        var bottom: StyledText
        if bottomLabel.isEmpty {
            bottom = StyledText(b.bottomLeft + fill + b.bottomRight, borderStyle)
        } else {
            let left = (7 - bottomLabel.count) / 2
            bottom = StyledText(b.bottomLeft + String(repeating: b.horizontal, count: left), borderStyle)
            bottom.append(bottomLabel, .bold)
            bottom.append(
                String(repeating: b.horizontal, count: 7 - left - bottomLabel.count) + b.bottomRight,
                borderStyle)
        }
        return [top, middle, bottom]
    }

    /// A card as one cell of ``cellWidth`` columns: ` a ▲▲▲R`, `[a]▲▲▲ ` when selected, `*a*` when hinted;
    /// `isWide` cells have ``wideCellWidth`` columns, room for four shapes (` a ▲▲▲▲R`) or three and a
    /// border mark (` a ▲▲▲‖R`).
    public static func cell(
        _ slot: GameView.Slot, label: String, mark: CardMark, colourLetters: Bool, isWide: Bool = false
    ) -> StyledText {
        let art = isWide ? 4 : 3
        let brackets: (String, String)
        switch mark {
        case .none: brackets = (" ", " ")
        case .selected: brackets = ("[", "]")
        case .hinted: brackets = ("*", "*")
        case .fresh: brackets = ("+", "+")
        }
        let labelStyle = mark == .selected ? TextStyle(isBold: true, isReversed: true) : .bold
        var text = StyledText()
        if TextWidth.columns(label) == 1 {
            text.append(brackets.0, .bold)
            text.append(label, labelStyle)
            text.append(brackets.1, .bold)
        } else {
            text.append(StyledText(label, labelStyle).padded(to: 3))  // "#26": no room for brackets
        }
        switch slot {
        case .set(let card):
            var shapes = StyledText(String(repeating: glyph(card), count: card.count), style(card))
            if let mark = borderMark(card.border) {
                shapes = shapes.padded(to: 3)
                shapes.append(mark, .bold)
            }
            text.append(shapes.padded(to: art))
            text.append(colourLetters ? colourLetter(card.colour) : " ", .bold)
        case .playing(let card?, let isMatched):
            text.append(
                StyledText((isMatched ? "=" : "") + card.symbol, isMatched ? .dim : style(card)).padded(
                    to: art + 1))
        case .playing(nil, _):
            text.append(StyledText("░░░", .dim).padded(to: art + 1))
        case .unreadable(let code):
            text.append(StyledText(TextRules.sanitized(code)).padded(to: art + 1))
        }
        return text
    }

    private static func centred(_ text: StyledText, in columns: Int) -> StyledText {
        let cut = text.truncated(to: columns)
        let left = (columns - cut.width) / 2
        var result = StyledText(String(repeating: " ", count: left))
        result.append(cut)
        return result.padded(to: columns)
    }

    private enum BoxLines {
        case rounded, double, dotted

        var characters:
            (
                topLeft: String, topRight: String, bottomLeft: String, bottomRight: String,
                horizontal: String,
                vertical: String
            )
        {
            switch self {
            case .rounded: return ("╭", "╮", "╰", "╯", "─", "│")
            case .double: return ("╔", "╗", "╚", "╝", "═", "║")
            case .dotted: return ("┌", "┐", "└", "┘", "┄", "┆")
            }
        }
    }
}
