import SetDigest
import XCTest

/// The test vectors of FIPS 180-2 appendix A and RFC 3174 section 7.3, and the RFC 6455 handshake example.
final class SHA1Tests: XCTestCase {
    func testFIPSVectors() {
        XCTAssertEqual(SHA1.digest(Array("abc".utf8)).hexString, "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(
            SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hexString,
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(SHA1.digest([UInt8]()).hexString, "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    func testOneMillionAs() {
        var hasher = SHA1()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        XCTAssertEqual(hasher.finalize().hexString, "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        // The same million bytes as one array: the digest that compresses block after block in place.
        XCTAssertEqual(
            SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)).hexString,
            "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    func testRFC3174RepeatedVector() {
        // TEST4: 64 bytes of "01234567" repeated 10 times.
        var hasher = SHA1()
        for _ in 0..<10 {
            hasher.update(Array("0123456701234567012345670123456701234567012345670123456701234567".utf8))
        }
        XCTAssertEqual(hasher.finalize().hexString, "dea356a2cddd90c7a7ecedc5ebb563934f460452")
    }

    func testLengthsAroundTheBlockBoundary() {
        // Fed in one piece or byte by byte, every length from 0 to 130 gives the same digest, and
        // lengths 55, 56 and 64 (where the padding spills into another block) differ from their neighbours.
        var seen = Set<String>()
        for length in 0...130 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            var piecewise = SHA1()
            for byte in bytes { piecewise.update([byte]) }
            let whole = SHA1.digest(bytes).hexString
            XCTAssertEqual(piecewise.finalize().hexString, whole, "length \(length)")
            seen.insert(whole)
        }
        XCTAssertEqual(seen.count, 131)
    }

    func testWebSocketAcceptExample() {
        // RFC 6455 section 1.3: the key dGhlIHNhbXBsZSBub25jZQ== gives s3pPLMBiTxaQ9kYGzzhZRbK+xOo=.
        let digest = SHA1.digest(Array("dGhlIHNhbXBsZSBub25jZQ==258EAFA5-E914-47DA-95CA-C5AB0DC85B11".utf8))
        XCTAssertEqual(digest.hexString, "b37a4f2cc0624f1690f64606cf385945b2bec4ea")
    }
}
