import SetServerCore

/// Rooms' listener lists as the core last named them, and their members: a room sends event after event
/// to the same list (the same array) until someone comes or goes, so its members are found once, not
/// hashed for every event and member. Entries are found by the list's first member and used only for a
/// list equal to their own (for the same array, a comparison of two addresses). The owner forgets them
/// all whenever a connection opens or closes, and once a second, so none holds a member that is gone or
/// a room that fell silent. The engine keeps one of its connections, the shell one of its links.
///
/// Inlinable, so that the shell's use of it (another module) is specialized for its links: a generic
/// call per event, hashing through witness tables, was 4 % of setd's CPU with every member sending.
public struct Audiences<Member> {
    /// Each slot's list's first member (``free`` for none): an open-addressed table (linear probing, at
    /// most half full, emptied whole by ``forget()``, so nothing is ever removed alone). Probed on these
    /// integers alone, by a multiplication: a dictionary hashed every event's first member with SipHash.
    @usableFromInline var keys: [ConnectionID] = []
    /// Each slot's list and its members.
    @usableFromInline var lists: [(ids: [ConnectionID], members: [Member?])] = []
    @usableFromInline var stored = 0

    /// No lists yet.
    @inlinable public init() {}

    /// A slot nobody's list is in (connection IDs count up from 1).
    @inlinable static var free: ConnectionID { .min }

    /// The members of `ids`, in their order (`nil` for one `find` does not know), found with `find` only
    /// when the list is not the one kept.
    @inlinable public mutating func members(of ids: [ConnectionID], find: (ConnectionID) -> Member?)
        -> [Member?]
    {
        guard let first = ids.first else { return [] }
        if !keys.isEmpty {
            let mask = keys.count - 1
            var index = connectionSlot(first) & mask
            while keys[index] != Self.free {
                if keys[index] == first {
                    if lists[index].ids == ids { return lists[index].members }
                    break
                }
                index = (index + 1) & mask
            }
        }
        let found = ids.map(find)
        keep(ids, found)
        return found
    }

    /// Keeps `members` as `ids`'s, in place of another list with the same first member.
    @usableFromInline mutating func keep(_ ids: [ConnectionID], _ members: [Member?]) {
        if (stored + 1) * 2 > keys.count {
            let old = (keys, lists)
            keys = Array(repeating: Self.free, count: Swift.max(16, old.0.count * 2))
            lists = Array(repeating: ([], []), count: keys.count)
            stored = 0
            for index in old.0.indices where old.0[index] != Self.free {
                keep(old.1[index].ids, old.1[index].members)
            }
        }
        let first = ids[0]
        let mask = keys.count - 1
        var index = connectionSlot(first) & mask
        while keys[index] != Self.free, keys[index] != first { index = (index + 1) & mask }
        if keys[index] == Self.free { stored += 1 }
        keys[index] = first
        lists[index] = (ids, members)
    }

    /// Forgets every list: a connection came or went, or a second passed.
    @inlinable public mutating func forget() {
        keys = []
        lists = []
        stored = 0
    }
}
