/// Why a string is not a SET card code.
public enum CardCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The code does not have exactly four characters.
    case wrongLength(String)
    /// The character at `position` (1-based) is not a valid value of `attribute`.
    case badCharacter(position: Int, found: Character, attribute: String, allowed: String)
    /// The code does not have four characters, or five with a border (``Card/init(anyCode:)``).
    case wrongLengthForAnyDeck(String)
    /// The code gives a border to a card with a fourth value, which no deck has.
    case borderWithFourthValue(String)

    public var description: String {
        switch self {
        case .wrongLength(let text):
            return "'\(text)' is not a card: a card code has 4 characters, like 3GHT"
        case .badCharacter(let position, let found, let attribute, let allowed):
            return "character \(position) '\(found)' is not a \(attribute) (\(allowed))"
        case .wrongLengthForAnyDeck(let text):
            return
                "'\(text)' is not a card: a card code has 4 characters, like 3GHT,"
                + " or 5 with a border, like 3GHTW"
        case .borderWithFourthValue(let text):
            return
                "'\(text)' is not a card: a card with a 4, B, D or X has a single border,"
                + " written as no letter"
        }
    }
}

extension Card: CustomStringConvertible, LosslessStringConvertible {
    static let countLetters: [Character] = ["1", "2", "3"]
    static let colourLetters: [Character] = ["R", "G", "P"]
    static let fillLetters: [Character] = ["F", "H", "E"]
    static let shapeLetters: [Character] = ["T", "C", "S"]

    /// The letters of every value of every deck: the classic letters, then each attribute's fourth value
    /// (4Set's), and the border letters (MegaSet's; a single border is written as no letter).
    static let anyCountLetters: [Character] = ["1", "2", "3", "4"]
    static let anyColourLetters: [Character] = ["R", "G", "P", "B"]
    static let anyFillLetters: [Character] = ["F", "H", "E", "D"]
    static let anyShapeLetters: [Character] = ["T", "C", "S", "X"]
    static let borderLetters: [Character?] = [nil, "W", "O"]

    private static let codes: [String] = universe.map { card in
        String(
            [
                anyCountLetters[card.count - 1], anyColourLetters[card.colour.rawValue],
                anyFillLetters[card.fill.rawValue], anyShapeLetters[card.shape.rawValue],
            ] + (borderLetters[card.border.rawValue].map { [$0] } ?? []))
    }

    /// Parses a 4-character code of the classic deck such as `3GHT` (count, colour R|G|P, fill F|H|E,
    /// shape T|C|S), ignoring case. The codes of MegaSet's and 4Set's other cards are refused here, as
    /// they always were: ``init(anyCode:)`` reads those.
    public init(code: some StringProtocol) throws(CardCodeError) {
        // Clients parse every card of every board they are sent: read four ASCII bytes directly, and
        // leave the slower path below to name what is wrong with a bad code.
        if let index = Self.fastIndex(code.utf8) {
            self.init(index: index)
            return
        }
        let characters = Array(code)
        guard characters.count == 4 else { throw .wrongLength(String(code)) }
        let count = try Self.value(characters, 0, in: Self.countLetters, "count", "1, 2 or 3")
        let colour = try Self.value(characters, 1, in: Self.colourLetters, "colour", "R, G or P")
        let fill = try Self.value(characters, 2, in: Self.fillLetters, "fill", "F, H or E")
        let shape = try Self.value(characters, 3, in: Self.shapeLetters, "shape", "T, C or S")
        self.init(index: count + 3 * colour + 9 * fill + 27 * shape)
    }

    /// Parses the code of a card of any deck, ignoring case: four characters, count `1|2|3|4`, colour
    /// `R|G|P|B`, fill `F|H|E|D`, shape `T|C|S|X`, and for MegaSet's double or dotted border a fifth, `W`
    /// or `O` (a single border has no letter). A classic code reads as the same card as with
    /// ``init(code:)``, and `Card(anyCode: card.code) == card` for every card.
    public init(anyCode code: some StringProtocol) throws(CardCodeError) {
        if let index = Self.fastIndex(code.utf8) {
            self.init(index: index)
            return
        }
        let characters = Array(code)
        guard characters.count == 4 || characters.count == 5 else {
            throw .wrongLengthForAnyDeck(String(code))
        }
        let count = try Self.value(characters, 0, in: Self.anyCountLetters, "count", "1, 2, 3 or 4")
        let colour = try Self.value(characters, 1, in: Self.anyColourLetters, "colour", "R, G, P or B")
        let fill = try Self.value(characters, 2, in: Self.anyFillLetters, "fill", "F, H, E or D")
        let shape = try Self.value(characters, 3, in: Self.anyShapeLetters, "shape", "T, C, S or X")
        // The fifth letter names a border other than the single one every card without it has.
        let border =
            characters.count == 5 ? try Self.value(characters, 4, in: ["W", "O"], "border", "W or O") + 1 : 0
        if max(count, colour, fill, shape) == 3 {
            // No deck has a card with both a fourth value and a border other than single.
            guard border == 0 else { throw .borderWithFourthValue(String(code)) }
            self.init(index: Self.fourValueTable[count + 4 * colour + 16 * fill + 64 * shape])
        } else {
            self.init(index: count + 3 * colour + 9 * fill + 27 * shape + 81 * border)
        }
    }

    /// ``init(anyCode:)`` for a `String`, the type its callers hold (a journal's card fields, a client's
    /// board lines): a code in ASCII letters is read from its bytes here, where the generic initializer,
    /// called from another module, reads them through witness tables (about 2,000 instructions a card);
    /// anything else goes to the general path, which reads it or names what is wrong.
    public init(anyCode code: String) throws(CardCodeError) {
        var bytes = code
        if let index = bytes.withUTF8(Self.fastAnyIndex) {
            self.init(index: index)
            return
        }
        try self.init(anyCode: code[...])
    }

    /// The index of a code of any deck written in ASCII, either case — what the general path of
    /// ``init(anyCode:)`` gives for it — or `nil` for anything else, a border on a card with a fourth
    /// value included (the general path names the error).
    private static func fastAnyIndex(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count == 4 || bytes.count == 5 else { return nil }
        let count: Int
        switch bytes[0] {
        case 0x31...0x34: count = Int(bytes[0] &- 0x31)
        default: return nil
        }
        let colour: Int
        switch bytes[1] | 0x20 {
        case UInt8(ascii: "r"): colour = 0
        case UInt8(ascii: "g"): colour = 1
        case UInt8(ascii: "p"): colour = 2
        case UInt8(ascii: "b"): colour = 3
        default: return nil
        }
        let fill: Int
        switch bytes[2] | 0x20 {
        case UInt8(ascii: "f"): fill = 0
        case UInt8(ascii: "h"): fill = 1
        case UInt8(ascii: "e"): fill = 2
        case UInt8(ascii: "d"): fill = 3
        default: return nil
        }
        let shape: Int
        switch bytes[3] | 0x20 {
        case UInt8(ascii: "t"): shape = 0
        case UInt8(ascii: "c"): shape = 1
        case UInt8(ascii: "s"): shape = 2
        case UInt8(ascii: "x"): shape = 3
        default: return nil
        }
        var border = 0
        if bytes.count == 5 {
            switch bytes[4] | 0x20 {
            case UInt8(ascii: "w"): border = 1
            case UInt8(ascii: "o"): border = 2
            default: return nil
            }
        }
        guard max(count, colour, fill, shape) == 3 else {
            return count + 3 * colour + 9 * fill + 27 * shape + 81 * border
        }
        // No deck has a card with both a fourth value and a border other than single.
        guard border == 0 else { return nil }
        return fourValueTable[count + 4 * colour + 16 * fill + 64 * shape]
    }

    /// The value of the letter at `at` in `characters`: its place in `letters`, or the error naming it.
    private static func value(
        _ characters: [Character], _ at: Int, in letters: [Character], _ attribute: String, _ allowed: String
    ) throws(CardCodeError) -> Int {
        // Upper-case each character on its own: upper-casing the whole code can change its length
        // ("ß" becomes "SS"), which would misplace positions and index past the code as typed.
        let typed = String(characters[at]).uppercased()
        guard let value = letters.firstIndex(where: { String($0) == typed }) else {
            throw .badCharacter(
                position: at + 1, found: characters[at], attribute: attribute, allowed: allowed)
        }
        return value
    }

    private static func fastIndex(_ bytes: some Collection<UInt8>) -> Int? {
        guard bytes.count == 4 else { return nil }
        var iterator = bytes.makeIterator()
        guard let c = iterator.next(), let o = iterator.next(), let f = iterator.next(),
            let s = iterator.next()
        else { return nil }
        let count: Int
        switch c {
        case UInt8(ascii: "1"): count = 0
        case UInt8(ascii: "2"): count = 1
        case UInt8(ascii: "3"): count = 2
        default: return nil
        }
        let colour: Int
        switch o | 0x20 {
        case UInt8(ascii: "r"): colour = 0
        case UInt8(ascii: "g"): colour = 1
        case UInt8(ascii: "p"): colour = 2
        default: return nil
        }
        let fill: Int
        switch f | 0x20 {
        case UInt8(ascii: "f"): fill = 0
        case UInt8(ascii: "h"): fill = 1
        case UInt8(ascii: "e"): fill = 2
        default: return nil
        }
        let shape: Int
        switch s | 0x20 {
        case UInt8(ascii: "t"): shape = 0
        case UInt8(ascii: "c"): shape = 1
        case UInt8(ascii: "s"): shape = 2
        default: return nil
        }
        return count + 3 * colour + 9 * fill + 27 * shape
    }

    /// Parses a card code of the classic deck, returning `nil` when it is not one (``init(anyCode:)``
    /// reads the other decks' codes, which the description of their cards is).
    public init?(_ description: String) {
        guard let card = try? Card(code: description) else { return nil }
        self = card
    }

    /// The canonical upper-case code: `3GHT` for a classic card; `3GHTW` (a double border) or `3GHTO` (a
    /// dotted one) for MegaSet's other cards; `4BDX` (four blue dotted crosses) for 4Set's.
    public var code: String { Self.codes[index] }

    public var description: String { code }
}

extension Colour: CustomStringConvertible {
    public var description: String { ["red", "green", "purple", "blue"][rawValue] }
}

extension Fill: CustomStringConvertible {
    public var description: String { ["solid", "striped", "open", "dotted"][rawValue] }
}

extension Shape: CustomStringConvertible {
    public var description: String { ["triangle", "circle", "square", "cross"][rawValue] }
}

extension Border: CustomStringConvertible {
    public var description: String { ["single", "double", "dotted"][rawValue] }
}
