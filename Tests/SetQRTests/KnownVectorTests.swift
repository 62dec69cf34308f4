import Testing

@testable import SetQR

/// Whole symbols against an independent encoder's: Project Nayuki's QR Code generator (the Python one,
/// MIT licence), run once with level M, no boosting of the level and its automatic mask, and its
/// matrices pasted here. The same comparison over 347 inputs of every version and every mask agreed
/// module for module when this encoder was written. zbarimg reads each of these back.
@Suite struct KnownVectorTests {
    /// The worked example of ISO/IEC 18004 annex I, "01234567" in numeric mode at 1-M, placed with mask 2
    /// by both encoders. Ours makes byte mode only, so the example's data codewords go in as they are.
    static let isoExample = """
        #######..#.##.#######
        #.....#..####.#.....#
        #.###.#.#.....#.###.#
        #.###.#.##....#.###.#
        #.###.#.#.###.#.###.#
        #.....#.#...#.#.....#
        #######.#.#.#.#######
        ........#..##........
        #.#####..#..#.#####..
        ...#.#.##.#.#..#.##..
        ..#...##.#.#.#..#####
        ....#....#.....####..
        ...######..#.#..#....
        ........#.#####..##..
        #######..##.#.##.....
        #.....#.#.#####...#.#
        #.###.#.#...#..#.##..
        #.###.#.##..#..#.....
        #.###.#.#.##.#..#.#..
        #.....#........##.##.
        #######.####.#..#.#..
        """

    /// setd's kind of link: version 3, its mask chosen by the penalty rules.
    static let roomLink = """
        #######....#.###...#..#######
        #.....#..##..#####..#.#.....#
        #.###.#.##..##.#...##.#.###.#
        #.###.#.#.###.##.##.#.#.###.#
        #.###.#.##.##..##..#..#.###.#
        #.....#.####.....#..#.#.....#
        #######.#.#.#.#.#.#.#.#######
        ........###.#.#.#..##........
        #.#####..##.#....##.#.#####..
        ###....#..##.###.###..#.#...#
        .#..####.....###.#.....##....
        #...#.....#..#..#..#.##.#..#.
        .##.#.##.####.#..#####.#.##..
        .#.#....####....##.#..#.#.#.#
        ..#.#.#.###.#..###...##...#..
        .#..#..##.....###....#.#...#.
        #...####.......###..##....#..
        ###......##.###.#..#.##.###.#
        #.##..#..#..####.##...#..##..
        #..###.#.##..#..#.##.##.#..#.
        #.#####...##..##.#..#####.###
        ........##..#...#####...#####
        #######..##....###.##.#.###..
        #.....#.#..#..###...#...#..##
        #.###.#.##..#...##..########.
        #.###.#.##...##..##.##.#...##
        #.###.#.#..##..###.##.#.##.#.
        #.....#....#.####...##.##..#.
        #######.#.#.#....#.......##..
        """

    /// 110 bytes of text: version 7, with version information, three alignment patterns on a side and
    /// mask 4 chosen.
    static let versionSeven = """
        #######.#......#....#.....#..###....#.#######
        #.....#....###..#####..###.....###.#..#.....#
        #.###.#..##.####......#....#.##.##.#..#.###.#
        #.###.#.#...#..##...##...#..##.#...##.#.###.#
        #.###.#.##...#####..########.########.#.###.#
        #.....#.##..###.##.##...#.###..###....#.....#
        #######.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#######
        ........##.#.##.###.#...##.#...##.##.........
        #...#.####.#######.######.##..#.##.#######..#
        .#..#..###..##.#..###..##.#..#####.##.#..####
        ...####..#..#...#..#...#.###.##..#.#.#####.#.
        .##..#..##.###..###..##..#.####.####...#...##
        #..######..#.....##.#.#.#.#####.##...##..#.##
        ##.....#.#.....#...#####.##.######.##.#..###.
        ##....#.#.#..#......##....#...##.#.#..##.###.
        ####.#...#.#..##.#.#...#...#...#####.###.....
        ########...#....#####..##.....#.###..#.#...##
        .#...#.###.#..#.#..#......##.##.##.##.##.###.
        .....###....######..#.##..#.#.#..######.#..#.
        ###.##...#.###.#.##...######....#.##...#....#
        #...#####.#.#..#.#########.#.####...#####...#
        ###.#...#...###.#..##...#..#..#.##.##...###..
        ..###.#.##.#.#..##.##.#.#..#####....#.#.#..#.
        #####...####.####..##...#..#.##.#.###...#..#.
        ..#.######.##...#.########.#..####.##########
        ..#.##..#.###.##.##.#.#.#.######.....##..##.#
        .#....#.#........#...####.#.#.#.##.#.#..#..#.
        ...###..##.##.#..##...#....###.##.....#.#...#
        #.#####.##...#...##.##..###..#..#...#.#.##...
        .##.##.##.#.#..##.##..#.#.##..####.#.##..###.
        .#..#.##..#..#.##..#.###..#####..#...#.#.....
        ....##..##.##.#.#.#####.#..#.#..#.#...##...#.
        ..##.##.#.#.#....##.##....##.#..##...#..##..#
        .##.#..#....##.#..#..###..##..#..#.##.##..##.
        ....#.#..#.###....#.#######.###...####.....#.
        .####..#.##..#..#..##.#....#.#..#.#.#####..#.
        #..##.#..####.###.#######.##..#.##..#####..#.
        ........###.###.#####...########.#..#...####.
        #######.##...#..#..##.#.##.##.#....##.#.##.#.
        #.....#...####...####...##...#.######...##.#.
        #.###.#.#.#.#.####.######.##...##..#######..#
        #.###.#..####.#######....##..#####....#.#.##.
        #.###.#...####.#...##.##..######.#......####.
        #.....#.....##....#.###.####.#..#..##..#.....
        #######.#...#####.#.#####..#..###..###......#
        """
    static let versionSevenText =
        "SET: three cards where each feature is all the same or all different. SET: three cards where each feature is a"

    @Test func theStandardsExampleMatchesModuleForModule() {
        let data: [UInt8] = [
            0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11,
        ]
        let code = QRCode(version: SymbolVersion.all[0], dataCodewords: data, mask: QRCode.Mask(reference: 2))
        #expect(code.modules.text == Self.isoExample + "\n")
    }

    @Test func zbarimgReadsEachVector() throws {
        let isoData: [UInt8] = [
            0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11,
        ]
        let codes = [
            QRCode(version: SymbolVersion.all[0], dataCodewords: isoData, mask: QRCode.Mask(reference: 2)),
            try QRCode(text: "http://192.168.1.20:7777/?room=fun"),
            try QRCode(text: Self.versionSevenText),
        ]
        guard let decoded = decodedByZbarimg(codes.map(\.png)) else { return }
        #expect(
            decoded
                == ["01234567", "http://192.168.1.20:7777/?room=fun", Self.versionSevenText].map {
                    Array($0.utf8)
                })
    }

    @Test func aRoomLinkMatchesModuleForModuleWithTheSameMask() throws {
        let code = try QRCode(text: "http://192.168.1.20:7777/?room=fun")
        #expect(code.version == 3)
        #expect(code.mask.reference == 2)
        #expect(code.modules.text == Self.roomLink + "\n")
    }

    @Test func aVersionSevenSymbolMatchesModuleForModuleWithTheSameMask() throws {
        let code = try QRCode(text: Self.versionSevenText)
        #expect(code.version == 7)
        #expect(code.mask.reference == 4)
        #expect(code.modules.text == Self.versionSeven + "\n")
    }
}
