import SetServerCore

#if canImport(Glibc)
    import Glibc
#endif

extension JournalRecord {
    /// Whether `self` and `other` are the same value to the bit — the same kind, every text the same
    /// bytes (not merely equal as Swift compares strings: canonically equivalent texts are written
    /// differently), every number the same bits — for the small kinds a whole-state compare holds many
    /// of (ratings, gains, names, the archives' counts); `false` for any other kind.
    ///
    /// A record's bytes are a function of its value, so identical records write identical bytes: a
    /// compare can take `true` as "the same bytes" without writing either. `false` says nothing; the
    /// bytes decide then (``JournalRecord/==`` writes both).
    func isIdentical(to other: JournalRecord) -> Bool {
        func same(_ a: String, _ b: String) -> Bool {
            // The UTF-8 compared as memory (a native string's bytes are contiguous; the UTF-8 views'
            // `elementsEqual` went byte by byte).
            var (a, b) = (a, b)
            return a.withUTF8 { x in
                b.withUTF8 { y in
                    x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
                }
            }
        }
        switch (self, other) {
        case let (
            .rating(name, mode, rating, games, wins, sets, wrong, stale),
            .rating(name2, mode2, rating2, games2, wins2, sets2, wrong2, stale2)
        ):
            return same(name, name2) && same(mode, mode2) && rating == rating2 && games == games2
                && wins == wins2 && sets == sets2 && wrong == wrong2 && stale == stale2
        case let (.gain(name, mode, time, amount), .gain(name2, mode2, time2, amount2)):
            return same(name, name2) && same(mode, mode2) && time.bitPattern == time2.bitPattern
                && amount == amount2
        case let (.chat(room, name, text), .chat(room2, name2, text2)):
            return same(room, room2) && same(name, name2) && same(text, text2)
        case let (
            .nameKey(name, secret, address, claimedAt, usedAt),
            .nameKey(name2, secret2, address2, claimedAt2, usedAt2)
        ):
            return same(name, name2) && same(secret, secret2) && same(address, address2)
                && claimedAt.bitPattern == claimedAt2.bitPattern && usedAt.bitPattern == usedAt2.bitPattern
        case let (.nameUsed(name, time), .nameUsed(name2, time2)):
            return same(name, name2) && time.bitPattern == time2.bitPattern
        default:
            return false
        }
    }
}
