/// A square matrix of bits, one per module of a QR code: `true` is dark.
public struct BitMatrix: Hashable, Sendable {
    /// The number of rows, which is also the number of columns.
    public let size: Int
    private let wordsPerRow: Int
    private var words: [UInt64]

    /// A `size` × `size` matrix with every bit clear.
    public init(size: Int) {
        precondition(size >= 0, "a matrix has no negative size")
        self.size = size
        wordsPerRow = (size + 63) / 64
        words = [UInt64](repeating: 0, count: wordsPerRow * size)
    }

    /// The bit at `row` and `column`, both counted from 0 at the top left.
    public subscript(row: Int, column: Int) -> Bool {
        get {
            precondition((0..<size).contains(row) && (0..<size).contains(column), "outside the matrix")
            return words[row * wordsPerRow + column / 64] >> UInt64(column % 64) & 1 == 1
        }
        set {
            precondition((0..<size).contains(row) && (0..<size).contains(column), "outside the matrix")
            let index = row * wordsPerRow + column / 64
            let bit = UInt64(1) << UInt64(column % 64)
            if newValue { words[index] |= bit } else { words[index] &= ~bit }
        }
    }

    /// The number of set bits.
    public var setCount: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// The matrix as text, one line per row, `#` for a set bit and `.` for a clear one (for tests and
    /// debugging).
    public var text: String {
        var text = ""
        for row in 0..<size {
            for column in 0..<size { text.append(self[row, column] ? "#" : ".") }
            text.append("\n")
        }
        return text
    }
}
