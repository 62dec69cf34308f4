import SetTestSupport
import Testing

/// The tests' own PNG writer: its checksums against published values and its zlib stream's layout.
@Suite struct PNGTests {
    @Test func checksumsMatchTheirCheckValues() {
        // The check value of CRC-32/ISO-HDLC, and Adler-32's example from its Wikipedia article.
        #expect(PNG.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNG.crc32([]) == 0)
        #expect(PNG.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(PNG.adler32([]) == 1)
    }

    @Test func theFileIsSignatureHeaderDataAndEnd() {
        let png = PNG.grayscale(width: 3, height: 2, pixels: [0, 255, 0, 255, 0, 255])
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR: length 13, then the type, 3 × 2, 8-bit grayscale.
        #expect(
            Array(png[8..<29]) == [0, 0, 0, 13] + Array("IHDR".utf8) + [
                0, 0, 0, 3, 0, 0, 0, 2, 8, 0, 0, 0, 0,
            ])
        #expect(Array(png.suffix(12)) == [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])
    }

    /// A stored block holds at most 65,535 bytes; more take several, only the last one final.
    @Test func longDataTakesSeveralStoredBlocks() {
        let data = [UInt8](repeating: 7, count: 70_000)
        let stream = PNG.zlibStored(data)
        #expect(Array(stream.prefix(2)) == [0x78, 0x01])
        #expect(Array(stream[2..<7]) == [0, 0xFF, 0xFF, 0, 0])
        let second = 7 + 65535
        #expect(Array(stream[second..<second + 5]) == [1, 0x71, 0x11, 0x8E, 0xEE])
        #expect(stream.count == 2 + 5 + 65535 + 5 + 4465 + 4)
        #expect(Array(stream.suffix(4)) == withUnsafeBytes(of: PNG.adler32(data).bigEndian) { Array($0) })
    }
}
