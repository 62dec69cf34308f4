import Testing

@testable import SetServerCore

/// The table the server keeps its connections and players in finds exactly what a dictionary would,
/// through any order of inserts and removals, with a slot of 8 bytes per element.
@Suite struct KeyedTableTests {
    final class Item {
        let key: Int
        let label: Int
        init(key: Int, label: Int) { (self.key, self.label) = (key, label) }
    }

    enum ByKey: TableKeying {
        static func key(of element: Item) -> Int { element.key }
    }

    /// Random inserts, replacements and removals over a small key space (so runs collide and wrap),
    /// checked after every step against a dictionary: every key is found or not as there, and a
    /// walk sees each element once.
    @Test(arguments: [1, 2, 3, 4]) func itAgreesWithADictionaryThroughAnyOrderOfChanges(seed: UInt64) {
        let random = Randomness.seeded(seed)
        var table = KeyedTable<ByKey>()
        var oracle: [Int: Item] = [:]
        for step in 0..<2_000 {
            let key = Int(random.bits() % 200)
            if random.bits() % 3 == 0 {
                #expect(table.remove(key) === oracle.removeValue(forKey: key))
            } else {
                let item = Item(key: key, label: step)
                #expect(table.insert(item) === oracle.updateValue(item, forKey: key))
            }
            #expect(table.count == oracle.count)
            // One expectation a step, not one a probe (which made 800,000 of them).
            // Borrowed (`withElement`) or held (the subscript), the same element or none.
            let misfound = (0..<200).filter {
                table[$0] !== oracle[$0] || table.withElement($0, { $0.label }) != oracle[$0]?.label
            }
            #expect(
                misfound.isEmpty, "step \(step): keys found otherwise than in the dictionary: \(misfound)")
            #expect(Set(table.map(\.label)) == Set(oracle.values.map(\.label)))
        }
    }

    /// Sequential IDs, as connections get, most of them gone by the time later ones come: the table
    /// stays a quarter free at most full, and never larger than twice what it holds needs.
    @Test func itHoldsOnlyReferencesAndStaysSmall() {
        var table = KeyedTable<ByKey>()
        #expect(table.slots.isEmpty)
        for key in 1...10_000 { table.insert(Item(key: key, label: key)) }
        #expect(table.count == 10_000)
        #expect(table.slots.count == 16_384)
        #expect(MemoryLayout<Item?>.stride == 8)
        for key in 1...10_000 where key % 10 != 0 { table.remove(key) }
        #expect(table.count == 1_000)
        #expect(table[10]?.label == 10)
        #expect(table[11] == nil)
        #expect(table.map(\.key).sorted() == Array(stride(from: 10, through: 10_000, by: 10)))
    }

    /// Removing what a loop walks over is safe: the loop goes over the table as it was.
    @Test func removingDuringAWalkSeesEveryElementOnce() {
        var table = KeyedTable<ByKey>()
        for key in 0..<100 { table.insert(Item(key: key, label: key)) }
        var seen: [Int] = []
        for item in table {
            seen.append(item.key)
            table.remove(item.key)
        }
        #expect(seen.sorted() == Array(0..<100))
        #expect(table.isEmpty)
        #expect(table[5] == nil)
    }
}
