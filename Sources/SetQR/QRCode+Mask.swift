extension QRCode {
    /// One of the eight data mask patterns of ISO/IEC 18004 (table 10), by its reference 0 to 7.
    public struct Mask: Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The pattern's reference, 0 to 7, as written in the format information.
        public let reference: Int

        /// The mask with reference `reference`, or `nil` outside 0...7.
        public init?(reference: Int) {
            guard (0...7).contains(reference) else { return nil }
            self.reference = reference
        }

        /// The eight masks in the order of their references.
        public static let allCases = (0...7).map { Mask(reference: $0)! }

        /// The reference as text, `mask 3`.
        public var description: String { "mask \(reference)" }

        /// Whether the mask flips the module at `row` and `column` (the standard's i and j).
        func flips(row i: Int, column j: Int) -> Bool {
            switch reference {
            case 0: (i + j) % 2 == 0
            case 1: i % 2 == 0
            case 2: j % 3 == 0
            case 3: (i + j) % 3 == 0
            case 4: (i / 2 + j / 3) % 2 == 0
            case 5: (i * j) % 2 + (i * j) % 3 == 0
            case 6: ((i * j) % 2 + (i * j) % 3) % 2 == 0
            default: ((i + j) % 2 + (i * j) % 3) % 2 == 0
            }
        }
    }
}
