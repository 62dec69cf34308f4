import SetWeb
import Testing

/// The incremental UTF-8 check against the standard library's decoder, on every short sequence of
/// interesting bytes and on text fed one byte at a time.
@Suite struct UTF8ValidatorTests {
    /// The standard library's verdict: `String(validating:as:)` refuses what is not well-formed UTF-8.
    func reference(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    @Test func agreesWithTheStandardLibraryOnEverySequenceOfUpToThreeInterestingBytes() {
        let interesting: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
            0xED,
            0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        var checked = 0
        for a in interesting {
            #expect(UTF8Validator.isValid([a]) == reference([a]))
            for b in interesting {
                #expect(UTF8Validator.isValid([a, b]) == reference([a, b]))
                for c in interesting {
                    #expect(UTF8Validator.isValid([a, b, c]) == reference([a, b, c]), "\([a, b, c])")
                    checked += 1
                }
            }
        }
        #expect(checked == interesting.count * interesting.count * interesting.count)
    }

    @Test func fourByteCharactersAndTheirLimits() {
        #expect(UTF8Validator.isValid(bytes("🂡 card")))
        #expect(UTF8Validator.isValid([0xF4, 0x8F, 0xBF, 0xBF]))  // U+10FFFF
        #expect(!UTF8Validator.isValid([0xF4, 0x90, 0x80, 0x80]))  // past U+10FFFF
        #expect(!UTF8Validator.isValid([0xF0, 0x8F, 0xBF, 0xBF]))  // overlong
        #expect(!UTF8Validator.isValid([0xF0, 0x9F, 0x82]))  // cut short
    }

    @Test func textFedOneByteAtATimeIsValidOnlyAtACharacterBoundary() {
        let text = bytes("naïve 🃏 €")
        var validator = UTF8Validator()
        var boundaries: [Bool] = []
        for byte in text {
            let accepted = validator.consume(byte)
            #expect(accepted)
            boundaries.append(validator.isAtBoundary)
        }
        #expect(boundaries.last == true)
        #expect(boundaries.filter { !$0 }.count == 1 + 3 + 2)  // the inner bytes of ï, 🃏 and €
    }
}
