import SetQR
import SetTestSupport
import Testing

/// A grayscale picture, one byte a pixel: 0 black, 255 white.
struct Picture {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    /// The picture as a PNG file.
    var png: [UInt8] { PNG.grayscale(width: width, height: height, pixels: pixels) }

    /// A picture of `cells` (rows of light or dark cells, `true` dark), each cell `scale` × `scale` pixels.
    init(cells: [[Bool]], scale: Int) {
        height = cells.count * scale
        width = (cells.first?.count ?? 0) * scale
        pixels = []
        pixels.reserveCapacity(width * height)
        for row in cells {
            precondition(row.count * scale == width, "every row as wide as the first")
            let line = row.flatMap { [UInt8](repeating: $0 ? 0 : 255, count: scale) }
            for _ in 0..<scale { pixels += line }
        }
    }
}

extension QRCode {
    /// The modules with the quiet zone of 4 light modules round them, as rows of cells, `true` dark.
    var cellsWithQuietZone: [[Bool]] {
        let quiet = QRCode.quietZone
        return (-quiet..<size + quiet).map { row in
            (-quiet..<size + quiet).map { column in
                (0..<size).contains(row) && (0..<size).contains(column) && isDark(row: row, column: column)
            }
        }
    }

    /// The code as a PNG image, each module 4 × 4 pixels, quiet zone included.
    var png: [UInt8] { Picture(cells: cellsWithQuietZone, scale: 4).png }
}

/// Module rows read back from terminal text as a terminal shows it: `█` is ink in both halves, `▀` in
/// the upper, `▄` in the lower, a space in neither; ink is dark when `inkIsDark` (dark text on a light
/// background), light otherwise. Colour escapes (`ESC [ … m`) are dropped. `nil` for any other
/// character or for lines of different widths.
func cells(ofTerminalText text: String, inkIsDark: Bool) -> [[Bool]]? {
    var rows: [[Bool]] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        var upper: [Bool] = []
        var lower: [Bool] = []
        var inEscape = false
        for character in line {
            if inEscape {
                inEscape = character != "m"
                continue
            }
            let (top, bottom): (Bool, Bool)
            switch character {
            case "\u{1B}":
                inEscape = true
                continue
            case "█": (top, bottom) = (true, true)
            case "▀": (top, bottom) = (true, false)
            case "▄": (top, bottom) = (false, true)
            case " ": (top, bottom) = (false, false)
            default: return nil
            }
            upper.append(top == inkIsDark)
            lower.append(bottom == inkIsDark)
        }
        rows += [upper, lower]
    }
    guard let width = rows.first?.count, rows.allSatisfy({ $0.count == width }) else { return nil }
    return rows
}

/// What zbarimg reads from each image, or a recorded failure (never a skip) if zbarimg cannot run.
func decodedByZbarimg(_ images: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) -> [[UInt8]?]? {
    do {
        return try Zbarimg.decode(images)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The bytes as text for a failure message: UTF-8 where it is, else hex.
func describe(_ bytes: [UInt8]?) -> String {
    guard let bytes else { return "nothing" }
    if let text = String(validating: bytes, as: UTF8.self) { return "\"\(text)\" (\(bytes.count) bytes)" }
    return bytes.map { String($0, radix: 16) }.joined(separator: " ")
}
