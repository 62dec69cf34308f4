import SetGame
import SetProtocol

/// Where each card of a board goes on the screen, and the board drawn that way.
///
/// SET boards are laid out in columns of three, top to bottom, the way the cards lie on a table: the
/// first twelve cards make four columns and each extra three cards add a column, so no card moves
/// when the board grows. When the columns do not fit side by side they continue in a second band
/// below. Matchismo boards are laid out in rows.
public struct BoardGrid: Equatable, Sendable {
    /// Boxes of three lines, or one-line cells.
    public var isCompact: Bool
    /// Card columns on the screen.
    public var columns: Int
    /// For each position, its row and column in cards.
    public var places: [(row: Int, column: Int)]
    /// Whether one-line cells are ``CardArt/wideCellWidth`` columns (4Set's four shapes, MegaSet's
    /// border mark).
    public var isWide = false
    /// Whether each box draws its card's border (MegaSet), so a selection cannot double it.
    public var showsBorders = false

    /// Columns between two cards.
    static let gap = 1

    public static func == (lhs: BoardGrid, rhs: BoardGrid) -> Bool {
        lhs.isCompact == rhs.isCompact && lhs.columns == rhs.columns && lhs.isWide == rhs.isWide
            && lhs.showsBorders == rhs.showsBorders
            && lhs.places.map(\.row) == rhs.places.map(\.row)
            && lhs.places.map(\.column) == rhs.places.map(\.column)
    }

    /// Columns of one card.
    public var cellWidth: Int {
        isCompact ? (isWide ? CardArt.wideCellWidth : CardArt.cellWidth) : CardArt.boxWidth
    }
    /// Lines of one card.
    public var cellHeight: Int { isCompact ? 1 : CardArt.boxHeight }
    /// Rows of cards.
    public var cardRows: Int { (places.map(\.row).max() ?? -1) + 1 }
    /// Columns the board takes.
    public var width: Int { columns * cellWidth + max(0, columns - 1) * Self.gap }
    /// Lines the board takes.
    public var height: Int { cardRows * cellHeight }

    /// The grid for `count` cards in at most `maxWidth` columns, or `nil` when too few cards fit
    /// side by side to be worth drawing this way. `mode` says how the SET deck's cards are drawn: 4Set's
    /// and MegaSet's cells are wider, and MegaSet's boxes draw the cards' borders.
    public static func make(
        count: Int, isMatchismo: Bool, isCompact: Bool, maxWidth: Int, mode: SetMode = .normal
    ) -> BoardGrid? {
        let isWide = !isMatchismo && [.megaset, .fourSet, .fourSetJunior].contains(mode)
        let showsBorders = !isMatchismo && mode == .megaset
        let cell = isCompact ? (isWide ? CardArt.wideCellWidth : CardArt.cellWidth) : CardArt.boxWidth
        let fit = (maxWidth + gap) / (cell + gap)
        guard fit >= (isCompact ? 2 : 3) else { return nil }
        if isMatchismo {
            let columns = max(1, min(fit, 10, count))
            let places = (0..<count).map { (row: $0 / columns, column: $0 % columns) }
            return BoardGrid(isCompact: isCompact, columns: columns, places: places)
        }
        let tableColumns = (count + 2) / 3
        let band = max(1, min(fit, tableColumns))
        let places = (0..<count).map { i in
            let column = i / 3
            return (row: (column / band) * 3 + i % 3, column: column % band)
        }
        return BoardGrid(
            isCompact: isCompact, columns: band, places: places, isWide: isWide, showsBorders: showsBorders)
    }

    /// The board drawn as ``height`` lines of exactly ``width`` columns.
    public func lines(_ board: [GameView.Slot], marks: [Int: CardMark], colourLetters: Bool) -> [StyledText] {
        var cells = [[StyledText?]](repeating: [StyledText?](repeating: nil, count: columns), count: height)
        for (i, slot) in board.enumerated() where i < places.count {
            let place = places[i]
            let label = SetGame.positionName(i)
            let mark = marks[i] ?? .none
            if isCompact {
                cells[place.row][place.column] = CardArt.cell(
                    slot, label: label, mark: mark, colourLetters: colourLetters, isWide: isWide)
            } else {
                let box = CardArt.box(
                    slot, label: label, mark: mark, colourLetters: colourLetters, showsBorders: showsBorders)
                for (k, line) in box.enumerated() { cells[place.row * cellHeight + k][place.column] = line }
            }
        }
        let blank = StyledText(String(repeating: " ", count: cellWidth))
        let space = StyledText(String(repeating: " ", count: Self.gap))
        return cells.map { row in
            var line = StyledText()
            for (c, cell) in row.enumerated() {
                if c > 0 { line.append(space) }
                line.append(cell ?? blank)
            }
            return line
        }
    }
}
