/// An object a ``TokenTable`` finds by the token it carries.
protocol TokenHolder: AnyObject {
    /// The holder's token: not 0, and unchanged while the holder is in a table.
    var token: UInt64 { get }
}

/// Objects by the token each carries: an open-addressed hash table (linear probing, at most three
/// quarters full, backward-shift deletion, no tombstones) of the references alone.
///
/// A loop's channels by epoll token were a `Dictionary<UInt64, SocketChannel>`: 16 bytes a slot and its
/// metadata, about 26 bytes a connection held by a server of 10,000; this is 8 a slot (issue 28). The
/// loop hands out tokens in order, so they are mixed (Fibonacci hashing) before they choose a slot:
/// masked as they are, a run of consecutive tokens would fill a run of consecutive slots that every
/// later token's probe has to walk.
struct TokenTable<Element: TokenHolder> {
    /// A power of two long (or empty); `nil` is a free slot.
    private var slots: [Element?] = []
    /// The number of elements.
    private(set) var count = 0

    /// The element with `token`, if there is one.
    subscript(token: UInt64) -> Element? {
        guard let index = index(of: token) else { return nil }
        return slots[index]
    }

    /// Puts `element` in, in place of one with the same token.
    mutating func insert(_ element: Element) {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let mask = slots.count - 1
        var index = Self.home(of: element.token, mask: mask)
        while let present = slots[index] {
            if present.token == element.token {
                slots[index] = element
                return
            }
            index = (index + 1) & mask
        }
        slots[index] = element
        count += 1
    }

    /// Takes out the element with `token`, if there is one. The elements after it in its run move back
    /// toward their home slots, so a lookup can stop at the first free slot.
    mutating func remove(_ token: UInt64) {
        guard var hole = index(of: token) else { return }
        slots[hole] = nil
        count -= 1
        let mask = slots.count - 1
        var next = (hole + 1) & mask
        while let element = slots[next] {
            let home = Self.home(of: element.token, mask: mask)
            // It may fill the hole when the hole lies on its way from its home slot to where it is.
            if (next &- home) & mask >= (next &- hole) & mask {
                slots[hole] = element
                slots[next] = nil
                hole = next
            }
            next = (next + 1) & mask
        }
    }

    private func index(of token: UInt64) -> Int? {
        guard count > 0 else { return nil }
        let mask = slots.count - 1
        var index = Self.home(of: token, mask: mask)
        while let present = slots[index] {
            if present.token == token { return index }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The slot `token` belongs in: the high half of its product with 2⁶⁴ ÷ φ, masked.
    private static func home(of token: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (token &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// Doubles the slots (eight at first) and puts every element in again.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: Swift.max(8, old.count * 2))
        let mask = slots.count - 1
        for case let element? in old {
            var index = Self.home(of: element.token, mask: mask)
            while slots[index] != nil { index = (index + 1) & mask }
            slots[index] = element
        }
    }
}

extension SocketChannel: TokenHolder {}
