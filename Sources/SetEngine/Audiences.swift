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
    @usableFromInline var entries: [ConnectionID: (ids: [ConnectionID], members: [Member?])] = [:]

    /// No lists yet.
    @inlinable public init() {}

    /// The members of `ids`, in their order (`nil` for one `find` does not know), found with `find` only
    /// when the list is not the one kept.
    @inlinable public mutating func members(of ids: [ConnectionID], find: (ConnectionID) -> Member?)
        -> [Member?]
    {
        guard let first = ids.first else { return [] }
        if let entry = entries[first], entry.ids == ids { return entry.members }
        let found = ids.map(find)
        entries[first] = (ids, found)
        return found
    }

    /// Forgets every list: a connection came or went, or a second passed.
    @inlinable public mutating func forget() { entries.removeAll() }
}
