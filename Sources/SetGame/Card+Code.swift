/// Why a string is not a SET card code.
public enum CardCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The code does not have exactly four characters.
    case wrongLength(String)
    /// The character at `position` (1-based) is not a valid value of `attribute`.
    case badCharacter(position: Int, found: Character, attribute: String, allowed: String)

    public var description: String {
        switch self {
        case .wrongLength(let text):
            return "'\(text)' is not a card: a card code has 4 characters, like 3GHT"
        case .badCharacter(let position, let found, let attribute, let allowed):
            return "character \(position) '\(found)' is not a \(attribute) (\(allowed))"
        }
    }
}

extension Card: CustomStringConvertible, LosslessStringConvertible {
    static let countLetters: [Character] = ["1", "2", "3"]
    static let colourLetters: [Character] = ["R", "G", "P"]
    static let fillLetters: [Character] = ["F", "H", "E"]
    static let shapeLetters: [Character] = ["T", "C", "S"]

    private static let codes: [String] = all.map { card in
        String([
            countLetters[card.count - 1], colourLetters[card.colour.rawValue],
            fillLetters[card.fill.rawValue], shapeLetters[card.shape.rawValue],
        ])
    }

    /// Parses a 4-character code such as `3GHT` (count, colour R|G|P, fill F|H|E, shape T|C|S),
    /// ignoring case.
    public init(code: some StringProtocol) throws(CardCodeError) {
        // Clients parse every card of every board they are sent: read four ASCII bytes directly, and
        // leave the slower path below to name what is wrong with a bad code.
        if let index = Self.fastIndex(code.utf8) {
            self.init(index: index)
            return
        }
        // Upper-case each character on its own: upper-casing the whole code can change its length
        // ("ß" becomes "SS"), which would misplace positions and index past the code as typed.
        let characters = Array(code)
        guard characters.count == 4 else { throw .wrongLength(String(code)) }
        func value(_ at: Int, in letters: [Character], _ attribute: String, _ allowed: String)
            throws(CardCodeError) -> Int
        {
            let typed = String(characters[at]).uppercased()
            guard let value = letters.firstIndex(where: { String($0) == typed }) else {
                throw .badCharacter(
                    position: at + 1, found: characters[at], attribute: attribute, allowed: allowed)
            }
            return value
        }
        let count = try value(0, in: Self.countLetters, "count", "1, 2 or 3")
        let colour = try value(1, in: Self.colourLetters, "colour", "R, G or P")
        let fill = try value(2, in: Self.fillLetters, "fill", "F, H or E")
        let shape = try value(3, in: Self.shapeLetters, "shape", "T, C or S")
        self.init(index: count + 3 * colour + 9 * fill + 27 * shape)
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

    /// Parses a card code, returning `nil` when it is not one.
    public init?(_ description: String) {
        guard let card = try? Card(code: description) else { return nil }
        self = card
    }

    /// The canonical upper-case code, such as `3GHT`.
    public var code: String { Self.codes[index] }

    public var description: String { code }
}

extension Colour: CustomStringConvertible {
    public var description: String { ["red", "green", "purple"][rawValue] }
}

extension Fill: CustomStringConvertible {
    public var description: String { ["solid", "striped", "open"][rawValue] }
}

extension Shape: CustomStringConvertible {
    public var description: String { ["triangle", "circle", "square"][rawValue] }
}
