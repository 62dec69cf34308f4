/// How a ``KeyedTable`` finds the key an element carries.
public protocol TableKeying {
    /// The objects the table holds.
    associatedtype Element: AnyObject
    /// What finds one of them.
    associatedtype Key: Hashable
    /// The key `element` is found by; it must not change while the element is in a table.
    static func key(of element: Element) -> Key
    /// Where the search for `key` starts, before masking to the table's size: the key's `hashValue`
    /// unless the keying says otherwise.
    static func slot(of key: Key) -> Int
}

extension TableKeying {
    /// A key's `hashValue`: seeded per process, so a peer cannot pick names or tokens that collide.
    @inlinable public static func slot(of key: Key) -> Int { key.hashValue }
}

extension TableKeying where Key == ConnectionID {
    /// A connection ID times an odd constant: IDs are the server's own, counted up, so there is no
    /// peer-chosen key to defend against, and a product's low bits are a permutation of the ID's, which
    /// spreads counted-up IDs over distinct slots. Hashing one with `Hasher` cost a SipHash per lookup,
    /// several lookups a line (issue 28).
    @inlinable public static func slot(of key: ConnectionID) -> Int { connectionSlot(key) }
}

/// Where a hash table's search for connection `id` starts, before masking to its size: the ID times an
/// odd constant (see `TableKeying.slot(of:)` for IDs). Shared by ``KeyedTable`` and the engine's tables.
@inlinable public func connectionSlot(_ id: ConnectionID) -> Int { id &* -0x61c8_8646_80b5_83eb }

/// Objects found by a key each of them carries: an open-addressed hash table (linear probing, at most
/// three quarters full, no tombstones) of the references alone.
///
/// Why not a `Dictionary`: it stores each key beside its value, 16 to 32 bytes a slot where this stores
/// 8, and the server keeps several tables of every connection and player (by connection ID, by name,
/// by token). Idle, those slots were a fifth of what a seated player cost (issue 28).
///
/// The key of an element must not change while it is in the table: take the element out, change it,
/// put it back. Iterating goes over a copy, as a dictionary's `values` does: removing during a loop is
/// safe.
public struct KeyedTable<Keying: TableKeying>: Sequence {
    /// The objects the table holds.
    public typealias Element = Keying.Element
    /// What finds one of them.
    public typealias Key = Keying.Key

    /// A power of two long (or empty); `nil` is a free slot.
    @usableFromInline var slots: [Element?] = []
    @usableFromInline var stored = 0

    /// Creates an empty table; it allocates nothing until the first insert.
    @inlinable public init() {}

    /// The number of elements.
    @inlinable public var count: Int { stored }

    /// Whether the table holds nothing.
    @inlinable public var isEmpty: Bool { stored == 0 }

    /// The element with `key`, if there is one.
    @inlinable public subscript(key: Key) -> Element? {
        guard let index = index(of: key) else { return nil }
        return slots[index]
    }

    /// Calls `body` with the element with `key`, borrowed from the table rather than held: no reference
    /// count is changed for the call (two atomic operations, on paths run once per line; issue 28).
    /// `body` must not take the element out of the table. Nil when there is no such element.
    @inlinable public func withElement<Result>(_ key: Key, _ body: (Element) -> Result) -> Result? {
        guard let index = index(of: key) else { return nil }
        return slots.withUnsafeBufferPointer { buffer in
            // A present `Element?` is the reference itself, as `Unmanaged` is (`BorrowedMembersTests`).
            UnsafeRawPointer(buffer.baseAddress! + index).load(as: Unmanaged<Element>.self)
                ._withUnsafeGuaranteedRef(body)
        }
    }

    /// Puts `element` in, in place of one with the same key; returns the one it replaced.
    @inlinable @discardableResult public mutating func insert(_ element: Element) -> Element? {
        if (stored + 1) * 4 > slots.count * 3 { grow() }
        let key = Keying.key(of: element)
        let mask = slots.count - 1
        var index = Keying.slot(of: key) & mask
        while let present = slots[index] {
            if Keying.key(of: present) == key {
                slots[index] = element
                return present
            }
            index = (index + 1) & mask
        }
        slots[index] = element
        stored += 1
        return nil
    }

    /// Takes out the element with `key`, if there is one, and returns it.
    ///
    /// The elements after it in its run move back toward their home slots (backward-shift deletion), so
    /// no slot is ever marked deleted and a lookup stops at the first free slot.
    @inlinable @discardableResult public mutating func remove(_ key: Key) -> Element? {
        guard var hole = index(of: key) else { return nil }
        let removed = slots[hole]
        slots[hole] = nil
        stored -= 1
        let mask = slots.count - 1
        var next = (hole + 1) & mask
        while let element = slots[next] {
            let home = Keying.slot(of: Keying.key(of: element)) & mask
            // It may fill the hole when the hole lies on its way from its home slot to where it is.
            if (next &- home) & mask >= (next &- hole) & mask {
                slots[hole] = element
                slots[next] = nil
                hole = next
            }
            next = (next + 1) & mask
        }
        return removed
    }

    /// The slot holding the element with `key`.
    @inlinable func index(of key: Key) -> Int? {
        guard stored > 0 else { return nil }
        let mask = slots.count - 1
        var index = Keying.slot(of: key) & mask
        while let present = slots[index] {
            if Keying.key(of: present) == key { return index }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Doubles the slots (eight at first) and puts every element in again.
    @usableFromInline mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: Swift.max(8, old.count * 2))
        let mask = slots.count - 1
        for case let element? in old {
            var index = Keying.slot(of: Keying.key(of: element)) & mask
            while slots[index] != nil { index = (index + 1) & mask }
            slots[index] = element
        }
    }

    /// Goes over the elements in no particular order.
    @inlinable public func makeIterator() -> Iterator { Iterator(base: slots.makeIterator()) }

    /// Goes over a table's elements, skipping its free slots.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var base: IndexingIterator<[Element?]>

        @inlinable init(base: IndexingIterator<[Element?]>) { self.base = base }

        /// The next element, or `nil` after the last.
        @inlinable public mutating func next() -> Element? {
            while let slot = base.next() {
                if let element = slot { return element }
            }
            return nil
        }
    }
}
