import Foundation
import SetQR
import SetTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The terminal text and the SVG, read back into modules.
@Suite struct RendererTests {
    static let code = try! QRCode(text: "http://192.168.1.20:7777/?room=fun")

    @Test func terminalTextIsHalfBlocksTwoRowsALineWithTheQuietZone() {
        let code = Self.code
        let text = code.terminalText()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "every line ends with a newline")
        #expect(lines.count - 1 == (code.size + 8 + 1) / 2)
        for line in lines.dropLast() {
            #expect(line.count == code.size + 8)
            #expect(line.allSatisfy { "▀▄█ ".contains($0) }, "\(line)")
        }
        // Light ink: the top two quiet rows are full blocks, and the default is light ink, uncoloured.
        #expect(lines[0].allSatisfy { $0 == "█" } && lines[1].allSatisfy { $0 == "█" })
        // The finder patterns' top rows: dark (background) above, their dark edges and light inside below.
        #expect(lines[2].hasPrefix("████ ▄▄▄▄▄ "), "\(lines[2])")
        #expect(text == code.terminalText(ink: .lightModules, colored: false))
        // Dark ink is the same picture with ink and background swapped.
        let swapped = String(
            text.map {
                switch $0 {
                case "█": " "
                case " ": "█"
                case "▀": "▄"
                case "▄": "▀"
                default: $0
                }
            })
        #expect(code.terminalText(ink: .darkModules) == swapped)
    }

    /// Colours are pure white ink on pure black for light ink, and the reverse for dark ink, from the
    /// fixed 256-colour cube; every line resets them.
    @Test func coloredTextPinsWhiteAndBlack() {
        let plain = Self.code.terminalText().split(separator: "\n")
        for (ink, escape) in [
            (QRCode.TerminalInk.lightModules, "\u{1B}[38;5;231;48;5;16m"),
            (.darkModules, "\u{1B}[38;5;16;48;5;231m"),
        ] {
            let lines = Self.code.terminalText(ink: ink, colored: true).split(separator: "\n")
            let reference =
                ink == .lightModules
                ? plain : Self.code.terminalText(ink: .darkModules).split(separator: "\n")
            #expect(lines.count == reference.count)
            for (line, bare) in zip(lines, reference) {
                #expect(line == escape + bare + "\u{1B}[0m")
            }
        }
    }

    @Test func svgIsXMLWithOnePathWhoseRectanglesAreTheDarkModules() throws {
        let code = Self.code
        let svg = code.svg()
        let reader = SVGReader()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        #expect(parser.parse(), "the SVG is well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
        let side = code.size + 8
        #expect(reader.elements.map(\.name) == ["svg", "rect", "path"])
        let root = reader.elements[0].attributes
        #expect(root["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(root["viewBox"] == "0 0 \(side) \(side)")
        #expect(root["width"] == "\(side * 8)" && root["height"] == "\(side * 8)")
        #expect(root["shape-rendering"] == "crispEdges")
        #expect(reader.elements[1].attributes == ["width": "\(side)", "height": "\(side)", "fill": "#fff"])
        #expect(reader.elements[2].attributes["fill"] == "#000")
        guard let d = reader.elements[2].attributes["d"], let cells = darkCells(ofPath: d, side: side) else {
            Issue.record("the path is not rectangles of whole modules: \(svg)")
            return
        }
        #expect(cells == code.cellsWithQuietZone)
        #expect(code.svg(pixelsPerModule: 3).contains("width=\"\(side * 3)\""))
        // The path drawn as pixels reads back.
        guard let decoded = decodedByZbarimg([Picture(cells: cells, scale: 4).png]) else { return }
        #expect(decoded == [Array("http://192.168.1.20:7777/?room=fun".utf8)])
    }

    /// The cells a path of `M x,y h w v 1 h -w z` rectangles covers, or `nil` for anything else (an
    /// overlap included).
    func darkCells(ofPath d: String, side: Int) -> [[Bool]]? {
        var cells = [[Bool]](repeating: [Bool](repeating: false, count: side), count: side)
        for rectangle in d.split(separator: "z") {
            guard rectangle.hasPrefix("M"), let h = rectangle.firstIndex(of: "h") else { return nil }
            let origin = rectangle[rectangle.index(after: rectangle.startIndex)..<h].split(separator: ",")
            let rest = rectangle[rectangle.index(after: h)...].split(separator: "v")
            guard origin.count == 2, let x = Int(origin[0]), let y = Int(origin[1]), rest.count == 2,
                let width = Int(rest[0]), width > 0, rest[1] == "1h-\(width)", x >= 0, y >= 0,
                x + width <= side,
                y < side
            else { return nil }
            for column in x..<x + width {
                guard !cells[y][column] else { return nil }
                cells[y][column] = true
            }
        }
        return cells
    }
}

/// The elements of an XML document in order, with their attributes.
final class SVGReader: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String]
    ) {
        elements.append((elementName, attributes))
    }
}
