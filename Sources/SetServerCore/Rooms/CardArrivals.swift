/// When each card now on the board (or in the chain) arrived there, in whole milliseconds, by card code:
/// a small dictionary that every dealt room holds, kept as one array of 16-byte entries.
///
/// A dictionary of code strings was about 470 bytes a room for a board of 12 (47 a seated player at 10 a
/// room); this is 224. A code of one to eight ASCII bytes (every SET and Matchismo card's) is packed
/// into a `UInt64`, first byte highest and zero-padded, so the entries sorted by it are sorted as their
/// codes are and two equal collections hold equal arrays. Any other code, which no game deals, is kept
/// as it is in a dictionary beside them (empty, and so no heap block, otherwise).
public struct CardArrivals: Equatable, Sendable, Sequence {
    fileprivate struct Entry: Equatable, Sendable {
        var code: UInt64
        var milliseconds: Int
    }

    /// The packed codes' entries, sorted by code.
    private var entries: [Entry] = []
    /// Codes that do not pack (see the type's summary).
    private var others: [String: Int] = [:]

    /// Creates an empty collection.
    public init() {}

    /// The number of cards with an arrival time.
    public var count: Int { entries.count + others.count }

    /// Whether no card has an arrival time.
    public var isEmpty: Bool { count == 0 }

    /// The millisecond card `code` arrived, or `nil` if it has none; setting `nil` removes it.
    public subscript(code: String) -> Int? {
        get {
            guard let packed = Self.pack(code) else { return others[code] }
            return milliseconds(ofPacked: packed)
        }
        set {
            guard let packed = Self.pack(code) else {
                others[code] = newValue
                return
            }
            let index = position(of: packed)
            let isThere = index < entries.count && entries[index].code == packed
            switch (newValue, isThere) {
            case (let time?, true): entries[index].milliseconds = time
            case (let time?, false): entries.insert(Entry(code: packed, milliseconds: time), at: index)
            case (nil, true): entries.remove(at: index)
            case (nil, false): break
            }
        }
    }

    /// The collection of `codes` only, each with the time it has here, or `now` if it has none: the cards
    /// of a new board keep the time they arrived, the ones just dealt arrive now.
    func keeping(_ codes: [String], arrivingAt now: Int) -> CardArrivals {
        var next = CardArrivals()
        next.entries.reserveCapacity(codes.count)
        // Each code packed and looked up here once, the new entries sorted once at the end: setting
        // them one by one packed every code twice and searched and shifted the new list at each (13,000
        // instructions a board in the engine fuzzer, at every deal and every join).
        for code in codes {
            guard let packed = Self.pack(code) else {
                next.others[code] = others[code] ?? now
                continue
            }
            next.entries.append(Entry(code: packed, milliseconds: milliseconds(ofPacked: packed) ?? now))
        }
        next.entries.sortAndDropRepeats()
        return next
    }

    /// The millisecond the card packed as `packed` arrived, or `nil` if it has none.
    private func milliseconds(ofPacked packed: UInt64) -> Int? {
        let index = position(of: packed)
        return index < entries.count && entries[index].code == packed ? entries[index].milliseconds : nil
    }

    /// Each card's code and arrival time: the packed codes in their order, then the others.
    public struct Iterator: IteratorProtocol {
        fileprivate var entries: IndexingIterator<[Entry]>
        fileprivate var others: Dictionary<String, Int>.Iterator

        /// The next code and its time, or `nil` after the last.
        public mutating func next() -> (key: String, value: Int)? {
            if let entry = entries.next() { return (CardArrivals.unpack(entry.code), entry.milliseconds) }
            return others.next()
        }
    }

    /// Each card's code and arrival time: the packed codes in their order, then the others.
    public func makeIterator() -> Iterator {
        Iterator(entries: entries.makeIterator(), others: others.makeIterator())
    }

    /// The index of the first entry whose code is not below `packed`.
    private func position(of packed: UInt64) -> Int {
        var (low, high) = (0, entries.count)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].code < packed { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// `code`'s bytes in a word, first byte highest, or `nil` for an empty code, one longer than eight
    /// bytes, or one with a byte that is zero or not ASCII (which would not read back, or not sort).
    static func pack(_ code: String) -> UInt64? {
        // From the string's bytes in a buffer: iterating its UTF-8 view costs several times as much, and
        // every card dealt and every snapshot's arrivals come through here.
        var code = code
        return code.withUTF8 { bytes in
            let count = bytes.count
            guard count >= 1, count <= 8 else { return nil }
            var word: UInt64 = 0
            for index in 0..<count { word = word << 8 | UInt64(bytes[index]) }
            word <<= UInt64(64 - 8 * count)
            // Every byte checked at once, not one by one (two branches a byte, each traced in the
            // fuzzers): no high bit set, and each of the code's bytes, below 0x80, is non-zero exactly
            // when adding 0x7F to it sets its high bit (no carry leaves a byte).
            let highBits: UInt64 = 0x8080_8080_8080_8080
            let codeBytes = UInt64.max << UInt64(64 - 8 * count)
            guard word & highBits == 0,
                (word &+ 0x7F7F_7F7F_7F7F_7F7F) & highBits & codeBytes == highBits & codeBytes
            else { return nil }
            return word
        }
    }

    /// The code packed in `word` (see ``pack(_:)``).
    static func unpack(_ word: UInt64) -> String {
        String(unsafeUninitializedCapacity: 8) { bytes in
            var (rest, length) = (word, 0)
            while rest != 0 {
                bytes[length] = UInt8(rest >> 56)
                rest <<= 8
                length += 1
            }
            return length
        }
    }
}

extension Array where Element == CardArrivals.Entry {
    /// Sorted by code, with one entry for each code (the list of a board: a dozen or so, mostly in
    /// order already, for which an insertion sort is the cheapest).
    fileprivate mutating func sortAndDropRepeats() {
        guard count > 1 else { return }
        var kept = 1
        for index in 1..<count {
            let entry = self[index]
            var place = kept
            while place > 0, self[place - 1].code > entry.code { place -= 1 }
            // A code met again has the time it had the first time: the same entry.
            if place > 0, self[place - 1].code == entry.code { continue }
            var shift = kept
            while shift > place {
                self[shift] = self[shift - 1]
                shift -= 1
            }
            self[place] = entry
            kept += 1
        }
        removeLast(count - kept)
    }
}
