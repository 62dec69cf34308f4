import SetQR
import SetTestSupport
import Testing

/// Our codes read by a real decoder: each is drawn as a PNG (4 pixels a module, the quiet zone of 4) and
/// handed to zbarimg, whose bytes must equal the input's byte for byte. zbarimg missing is a failure
/// that says how to install it, never a skip.
@Suite struct DecodingTests {
    /// Inputs for every version 1 to 10: the fewest bytes that need it and the most it holds, in turn
    /// URL-like ASCII, arbitrary bytes (the whole range, including the ones that are not UTF-8) and UTF-8
    /// text of several scripts.
    static func inputsOfEveryVersion() -> [(bytes: [UInt8], version: Int)] {
        var generator = SeededBytes(seed: 1804)
        let utf8 = Array("Jeu de SET · café ✓ Ωμέγα 三枚のカード 🃏 ".utf8)
        var inputs: [(bytes: [UInt8], version: Int)] = []
        var previous = 0
        for version in QRCode.versions {
            let capacity = QRCode.byteCapacity(ofVersion: version)
            for (kind, count) in [previous + 1, capacity].enumerated() {
                let bytes =
                    switch (version + kind) % 3 {
                    case 0: generator.bytes(count, from: "abcdefghijklmnopqrstuvwxyz0123456789/:?=&.-_%")
                    case 1: generator.bytes(count)
                    default:
                        Array(utf8.prefix(count)) + generator.bytes(max(0, count - utf8.count), from: "xyz")
                    }
                inputs.append((bytes, version))
            }
            previous = capacity
        }
        return inputs
    }

    /// The links setd prints and the page's room links, and text.
    static let texts = [
        "http://192.168.1.20:7777/?room=fun",
        "http://192.168.1.20:7777/",
        "http://[fe80::1]:7777/",
        "http://[2001:db8:1234:5678:9abc:def0:1234:5678]:65535/?room=game%20night&name=al",
        "http://10.0.0.7:7777/?room=%C3%A9t%C3%A9",
        "SET ✓ café — ünïcödé 🃏🂡 中文",
        "01234567",
        "a",
    ]

    @Test func everyVersionAtItsSmallestAndLargestIsReadBack() throws {
        let inputs = Self.inputsOfEveryVersion()
        let codes = try inputs.map { try QRCode(bytes: $0.bytes) }
        #expect(codes.map(\.version) == inputs.map(\.version))
        guard let decoded = decodedByZbarimg(codes.map(\.png)) else { return }
        for (input, result) in zip(inputs, decoded) {
            #expect(
                result == input.bytes,
                "version \(input.version), \(input.bytes.count) bytes: read \(describe(result))")
        }
    }

    @Test func linksAndTextAreReadBack() throws {
        let codes = try Self.texts.map { try QRCode(text: $0) }
        guard let decoded = decodedByZbarimg(codes.map(\.png)) else { return }
        for (text, result) in zip(Self.texts, decoded) {
            #expect(result == Array(text.utf8), "\(text): read \(describe(result))")
        }
    }

    /// The penalty rules pick a few masks most of the time; each of the eight must read back too.
    @Test func everyMaskIsReadBack() throws {
        let text = "http://192.168.1.20:7777/?room=fun"
        let codes = try QRCode.Mask.allCases.map { try QRCode(text: text, mask: $0) }
        guard let decoded = decodedByZbarimg(codes.map(\.png)) else { return }
        for (code, result) in zip(codes, decoded) {
            #expect(result == Array(text.utf8), "\(code.mask): read \(describe(result))")
        }
    }

    /// The terminal text, turned back into modules as the terminal shows it, reads back in every style:
    /// light ink on a dark background, dark ink on a light one, and with the colours that pin it.
    @Test func terminalTextReadsBackAsATerminalShowsIt() throws {
        let styles: [(ink: QRCode.TerminalInk, colored: Bool)] = [
            (.lightModules, false), (.darkModules, false), (.lightModules, true), (.darkModules, true),
        ]
        let texts = [
            "http://192.168.1.20:7777/", "http://[fe80::1]:7777/?room=fun",
            String(repeating: "z", count: 213),
        ]
        var cases: [(text: String, label: String, image: [UInt8])] = []
        for text in texts {
            let code = try QRCode(text: text)
            for style in styles {
                let label = "\(style.ink)\(style.colored ? ", colored" : ""), \(code.version)"
                let rendered = code.terminalText(ink: style.ink, colored: style.colored)
                guard let cells = cells(ofTerminalText: rendered, inkIsDark: style.ink == .darkModules) else {
                    Issue.record("\(label): lines of other widths or other characters")
                    continue
                }
                // The symbol and its quiet zone come first; the last line's lower half is light below them.
                #expect(Array(cells.prefix(code.size + 8)) == code.cellsWithQuietZone, "\(label)")
                #expect(cells.count == code.size + 9 && cells.last!.allSatisfy { !$0 }, "\(label)")
                cases.append((text, label, Picture(cells: cells, scale: 4).png))
            }
        }
        guard let decoded = decodedByZbarimg(cases.map(\.image)) else { return }
        for (item, result) in zip(cases, decoded) {
            #expect(result == Array(item.text.utf8), "\(item.label): read \(describe(result))")
        }
    }
}
