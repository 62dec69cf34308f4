/// A PNG encoder of our own (no packages), for tests that hand images to a real decoder: 8-bit
/// grayscale, no interlace, every scanline unfiltered, and the zlib stream in stored (uncompressed)
/// deflate blocks, which every PNG reader must accept (RFC 1950, RFC 1951, PNG 2nd edition).
public enum PNG {
    /// The PNG file of a `width` × `height` 8-bit grayscale image, `pixels` row by row from the top
    /// left, 0 black and 255 white.
    public static func grayscale(width: Int, height: Int, pixels: [UInt8]) -> [UInt8] {
        precondition(width > 0 && height > 0 && pixels.count == width * height, "one byte per pixel")
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        // Bit depth 8, colour type 0 (grayscale), compression 0, filter method 0, no interlace.
        header += [8, 0, 0, 0, 0]
        var scanlines: [UInt8] = []
        scanlines.reserveCapacity((width + 1) * height)
        for row in 0..<height {
            scanlines.append(0)  // Filter type 0: the row as it is.
            scanlines += pixels[row * width..<(row + 1) * width]
        }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", header)
        file += chunk("IDAT", zlibStored(scanlines))
        file += chunk("IEND", [])
        return file
    }

    /// The CRC-32 of ISO 3309 and PNG (polynomial 0xEDB88320 reflected, initial and final xor
    /// 0xFFFFFFFF), computed bit by bit.
    public static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? crc >> 1 ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The Adler-32 checksum of zlib (RFC 1950, 8.2): two sums modulo 65521.
    public static func adler32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    /// The longest stored deflate block: its length is a 16-bit field.
    public static let storedBlockLimit = 65535

    /// A zlib stream of `data` in stored blocks: the header 78 01 (deflate, 32 KiB window, no
    /// dictionary; its check bits make 0x7801 a multiple of 31), the blocks, then the Adler-32.
    public static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + storedBlockLimit, data.count)
            let length = UInt16(end - start)
            // BFINAL on the last block, BTYPE 00 (stored); then LEN and its complement, little-endian.
            stream.append(end == data.count ? 1 : 0)
            stream += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            stream += data[start..<end]
            start = end
        } while start < data.count
        stream += bigEndian(adler32(data))
        return stream
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
