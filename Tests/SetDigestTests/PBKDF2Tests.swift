import SetDigest
import XCTest

/// RFC 6070's test vectors for PBKDF2-HMAC-SHA1, and the stored form of a hash.
///
/// The fourth vector (16,777,216 iterations, about 10 s in a release build) is left to
/// `scripts/pbkdf2-check.sh`, which CI runs.
final class PBKDF2Tests: XCTestCase {
    private func derive(_ password: String, _ salt: String, _ iterations: Int, _ length: Int) -> String {
        PBKDF2.sha1(
            password: Array(password.utf8), salt: Array(salt.utf8), iterations: iterations, length: length
        )
        .hexString
    }

    func testRFC6070Vectors() {
        XCTAssertEqual(derive("password", "salt", 1, 20), "0c60c80f961f0e71f3a9b524af6012062fe037a6")
        XCTAssertEqual(derive("password", "salt", 2, 20), "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957")
        XCTAssertEqual(derive("password", "salt", 4096, 20), "4b007901b765489abead49d926f721d065a429c1")
        XCTAssertEqual(
            derive("passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096, 25),
            "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038")
        XCTAssertEqual(derive("pass\0word", "sa\0lt", 4096, 16), "56fa6aa75548099dcc37d7f03425e0c3")
    }

    func testLongKeysAreHashedFirstAndLengthsSpanBlocks() {
        // A password over 64 bytes is replaced by its SHA-1 (RFC 2104), so it derives what its digest does.
        let long = [UInt8](repeating: 0x61, count: 100)
        XCTAssertEqual(
            PBKDF2.sha1(password: long, salt: [1, 2], iterations: 3),
            PBKDF2.sha1(password: SHA1.digest(long), salt: [1, 2], iterations: 3))
        // 45 bytes take three blocks; the first 20 are the one-block key.
        let three = PBKDF2.sha1(password: [9], salt: [8], iterations: 5, length: 45)
        XCTAssertEqual(three.count, 45)
        XCTAssertEqual(Array(three.prefix(20)), PBKDF2.sha1(password: [9], salt: [8], iterations: 5))
    }

    func testStoredFormReadsBackAndChecks() {
        let hash = PasswordHash(secret: "s3cret", salt: Array(0..<16), iterations: 50)
        XCTAssertEqual(hash.text.split(separator: "$").first, "pbkdf2-sha1")
        XCTAssertEqual(PasswordHash(text: hash.text), hash)
        XCTAssertTrue(hash.matches("s3cret"))
        XCTAssertFalse(hash.matches("s3cret "))
        XCTAssertFalse(hash.matches(""))
        for bad in [
            "", "pbkdf2-sha1$50$00$", "pbkdf2-sha1$0$00$00", "pbkdf2-sha1$x$00$00", "pbkdf2-sha256$5$00$00",
            "pbkdf2-sha1$5$0$00", "pbkdf2-sha1$5$AA$00", "pbkdf2-sha1$5$00$00$", "pbkdf2-sha1$99999999$00$00",
            "pbkdf2-sha1$+5$00$00",
        ] {
            XCTAssertNil(PasswordHash(text: bad), bad)
        }
    }

    func testConstantTimeEquality() {
        XCTAssertTrue(PBKDF2.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        XCTAssertFalse(PBKDF2.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        XCTAssertFalse(PBKDF2.constantTimeEquals([1, 2], [1, 2, 3]))
    }
}
